"""Hostile on purpose: an exec: bot that first starts a child in a session of its own (out of
its process group: the group kill misses it), and one more that the child starts, writes their
pids to the file named by its first argument, then plays as the example bot its second argument
names (in the sandbox, a file no argument names is not there)."""

import runpy
import subprocess
import sys
from pathlib import Path

# Each sleeper carries the pids file's name in its command line: a test finds them by it.
NAP = "import time; time.sleep(3600)"
SLEEPER = ("import subprocess, sys, time; print(subprocess.Popen([sys.executable, '-c', "
           f"{NAP!r}, sys.argv[1]]).pid, flush=True); time.sleep(3600)")

child = subprocess.Popen([sys.executable, "-c", SLEEPER, sys.argv[1]], start_new_session=True,
                         stdout=subprocess.PIPE, text=True)
grandchild = child.stdout.readline().strip()
Path(sys.argv[1]).parent.mkdir(parents=True, exist_ok=True)  # in a sandbox's /tmp
Path(sys.argv[1]).write_text(f"{child.pid}\n{grandchild}\n")
example = sys.argv[2]
sys.argv[1:] = []
runpy.run_path(example, run_name="__main__")
