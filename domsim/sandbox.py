"""The sandbox a bot in its own process runs in (docs/seat-protocol.md, "The sandbox"):
bubblewrap (`bwrap`, Debian's package `bubblewrap`) over unprivileged namespaces, as Flatpak and
judges for untrusted programs use it. Inside, a bot has:

- its own PID namespace: it sees and signals no process but its own, and when its seat closes,
  or the domsim process that started it dies (`--die-with-parent`), every process it started
  dies with the namespace;
- no network (a namespace with loopback only), its own IPC, UTS and cgroup namespaces, no
  capabilities, a session of its own (no terminal to push keys into);
- a read-only view of the system, of Python and domsim, and of the folders of the files its spec
  names (its program, scripts, strategy file), with the run folder, the scenario files and
  other runs found there masked, and nothing else of the file system: not the current folder,
  not the user's home;
- one writable folder, /tmp (also its HOME and working folder), in memory, `SCRATCH_MB` at most,
  gone with the sandbox;
- a clean environment (PATH, HOME, LANG, and PYTHONPATH if set);
- hard limits per process on address space (--seat-memory), CPU time (`CPU_SECONDS`), file size
  and core dumps, and on the number of its processes: `MAX_PROCESSES` through a pids cgroup
  where domsim may make one, else RLIMIT_NPROC.

`check()` says, in one line, why the sandbox cannot start here (no bwrap, no user namespaces)."""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import re
import shutil
import subprocess
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path

TOOL = "bwrap"
#: The writable in-memory /tmp of a sandbox, in MiB.
SCRATCH_MB = 64
#: CPU seconds one bot process may use (it plays a batch of games, then ends).
CPU_SECONDS = 3600
#: Processes and threads a bot may run at once.
MAX_PROCESSES = 64
#: The largest file a bot may write, in bytes.
MAX_FILE_BYTES = SCRATCH_MB << 20
#: System folders a program needs, bound read-only where they exist.
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
PIDS_CGROUP = Path("/sys/fs/cgroup/pids")
CGROUP_PREFIX = "domsim-seat-"  # then the pid of the domsim process that made it
PIPE_BYTES = 1 << 16  # what a pipe holds by default (Linux)
INSTALL_HINT = "install bubblewrap (Debian: apt install bubblewrap)"


class SandboxError(Exception):
    """The sandbox cannot start here; the message is one line that says what to do."""


@functools.lru_cache(maxsize=1)
def check() -> str | None:
    """Why no sandbox can start on this machine (one line), or None when one can."""
    tool = shutil.which(TOOL)
    if tool is None:
        return f"{TOOL} is not installed: {INSTALL_HINT}"
    try:
        trial = subprocess.run([tool, *_namespaces(), "--ro-bind", "/", "/", "true"],
                               capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{TOOL} does not run: {exc}"
    if trial.returncode != 0:
        reason = trial.stderr.decode(errors="replace").strip().splitlines()
        said = reason[-1] if reason else "no reason given"
        return (f"{TOOL} cannot make its namespaces here ({said}): unprivileged user "
                "namespaces may be off (sysctl kernel.unprivileged_userns_clone)")
    return None


def require() -> None:
    """SandboxError when no sandbox can start."""
    reason = check()
    if reason is not None:
        raise SandboxError(f"the bot sandbox cannot start: {reason}; or pass --no-sandbox to run "
                           "bots in their own process without it (weaker: recorded in the "
                           "manifest)")


@functools.lru_cache(maxsize=1)
def version() -> str:
    """The sandbox tool and its version, for the manifest."""
    try:
        out = subprocess.run([TOOL, "--version"], capture_output=True, text=True, timeout=10)
        return out.stdout.strip() or TOOL
    except (OSError, subprocess.TimeoutExpired):
        return TOOL


def _namespaces() -> list[str]:
    return ["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]


@dataclass(frozen=True)
class Wrapped:
    """A bot's command in the sandbox: `argv`, which bwrap's options reach through the pipe
    `settings` (its read end: pass it to the process, then close it), so that no command line
    a bot can read shows what is masked; and the pids cgroup it joins (None: RLIMIT_NPROC
    limits its processes instead)."""

    argv: list[str]
    settings: int
    cgroup: Path | None


def wrap(argv: tuple[str, ...], cwd: str, files: tuple[str, ...], memory_mb: int,
         hide: tuple[str, ...], python_path: tuple[str, ...] = ()) -> Wrapped:
    """The command that runs `argv` (started in `cwd`, defined by `files`, absolute paths) in
    a sandbox; `hide` are folders masked inside (the run's); `python_path` joins PYTHONPATH
    inside. Arguments naming files are made absolute: the bot starts in /tmp."""
    program = _absolute(argv[0], cwd)
    args = [os.path.abspath(os.path.join(cwd, a)) if os.path.isfile(os.path.join(cwd, a))
            else a for a in argv[1:]]
    readable = _readable(program, [Path(f) for f in files])
    settings = _settings_pipe([*_namespaces(), *_binds(readable, hide), "--clearenv",
                               *_environment(python_path), "--chdir", "/tmp"])
    command = [shutil.which(TOOL), "--args", str(settings), "--", program, *args]
    cgroup = _pids_cgroup()
    limits = _limits(memory_mb, cgroup is None)
    if cgroup is not None:
        # The shell joins the cgroup before it becomes prlimit and bwrap: nothing escapes it.
        join = f'echo $$ > "{cgroup / "cgroup.procs"}" && exec "$@"'
        return Wrapped(["/bin/sh", "-c", join, "sh", *limits, *command], settings, cgroup)
    return Wrapped([*limits, *command], settings, None)


def _settings_pipe(options: list[str]) -> int:
    """A pipe holding `options` as bwrap's `--args` reads them; its read end."""
    data = b"".join(option.encode() + b"\0" for option in options)
    read, write = os.pipe()
    try:
        if len(data) > PIPE_BYTES:  # a pipe holds 64 KiB unless told more: written at once
            fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, len(data))
        os.write(write, data)
    except OSError as exc:
        os.close(read)
        raise SandboxError(f"cannot hand the sandbox its settings: {exc.strerror}") from None
    finally:
        os.close(write)
    return read


def _absolute(program: str, cwd: str) -> str:
    """The program's absolute path, symlinks kept (a venv's python is one: resolved, it would
    be the base interpreter, without the venv's packages). `python`, `python3` or `python3.N`
    is domsim's own interpreter: found on PATH it may be a version manager's shim, a script
    that needs the manager's whole folder."""
    if re.fullmatch(r"python(3(\.\d+)?)?", program):
        return sys.executable
    found = os.path.join(cwd, program) if os.sep in program else shutil.which(program)
    return os.path.abspath(found) if found else program


def _readable(program: str, files: list[Path]) -> list[Path]:
    """What a bot may read besides the system: Python, domsim, and the folders of its files."""
    import domsim
    import domsim.strategies

    paths = {Path(sys.base_prefix), Path(sys.prefix), Path(sys.exec_prefix),
             Path(domsim.__file__).parent, Path(domsim.strategies.__file__).parent,
             Path(program).parent, Path(program).resolve().parent}
    paths |= {Path(entry) for entry in sys.path if entry and Path(entry).is_dir()
              and Path(entry).resolve() != Path.cwd().resolve()}
    paths |= {Path(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p}
    paths |= {f.resolve().parent for f in files}
    found = sorted({p.resolve() for p in paths if p.exists()})
    return [p for p in found if not any(p != q and p.is_relative_to(q) for q in found)]


def _run_traces(folder: Path) -> list[Path]:
    """What in a folder shown to a bot could name a run's seed: scenario files (`*.toml`) and
    run folders (holding a manifest.json), two levels down (a bot's folder is often the one
    where runs are started: results/RUN, scenarios/x.toml)."""
    if folder == Path(sys.base_prefix).resolve() or folder.is_relative_to(sys.prefix):
        return []
    traces = [*folder.glob("*.toml"), *folder.glob("*/*.toml")]
    return traces + [m.parent for m in (*folder.glob("*/manifest.json"),
                                        *folder.glob("*/*/manifest.json"))]


def _binds(readable: list[Path], hide: tuple[str, ...]) -> list[str]:
    binds = [arg for folder in SYSTEM for arg in ("--ro-bind-try", folder, folder)]
    binds += ["--proc", "/proc", "--dev", "/dev", "--size", str(SCRATCH_MB << 20),
              "--tmpfs", "/tmp"]
    for path in readable:
        binds += ["--ro-bind", str(path), str(path)]
    masked = {Path(folder).resolve() for folder in hide}
    masked |= {trace.resolve() for path in readable for trace in _run_traces(path)}
    for path in sorted(masked):
        if not any(path.is_relative_to(shown) for shown in readable):
            continue
        if path.is_dir():
            binds += ["--tmpfs", str(path), "--remount-ro", str(path)]
        else:
            binds += ["--ro-bind", "/dev/null", str(path)]
    return binds


def _environment(python_path: tuple[str, ...]) -> list[str]:
    path = os.pathsep.join([str(Path(sys.executable).parent), "/usr/local/bin", "/usr/bin",
                            "/bin"])
    env = {"PATH": path, "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8",
           "PYTHONDONTWRITEBYTECODE": "1"}
    python_path = (*python_path, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep)))
    if python_path:
        env["PYTHONPATH"] = os.pathsep.join(python_path)
    return [arg for key, value in env.items() for arg in ("--setenv", key, value)]


def _limits(memory_mb: int, count_processes: bool) -> list[str]:
    limits = [f"--cpu={CPU_SECONDS}", f"--fsize={MAX_FILE_BYTES}", "--core=0"]
    if memory_mb:
        limits.append(f"--as={memory_mb << 20}")
    if count_processes:
        limits.append(f"--nproc={MAX_PROCESSES}")
    return [shutil.which("prlimit") or "prlimit", *limits, "--"]


def _pids_cgroup() -> Path | None:
    """A fresh pids cgroup allowing `MAX_PROCESSES`, where domsim may make one (root with the
    cgroup v1 pids controller), else None."""
    if not os.access(PIDS_CGROUP, os.W_OK):
        return None
    _sweep_cgroups()
    group = PIDS_CGROUP / f"{CGROUP_PREFIX}{os.getpid()}-{uuid.uuid4().hex[:8]}"
    try:
        group.mkdir()
        (group / "pids.max").write_text(str(MAX_PROCESSES))
    except OSError:
        return None
    return group


@functools.cache
def _sweep_cgroups() -> None:
    """Once a process: remove the cgroups left by domsim processes that died without removing
    theirs (a worker killed outright). The kernel removes only an empty cgroup, and the name
    says which process made it: one still alive may be about to fill its new one."""
    for group in PIDS_CGROUP.glob(f"{CGROUP_PREFIX}*"):
        maker = group.name[len(CGROUP_PREFIX):].partition("-")[0]
        if maker.isdigit() and not Path(f"/proc/{maker}").exists():
            remove_cgroup(group)


def remove_cgroup(group: Path | None) -> None:
    """After the sandbox ended (its processes gone, so the cgroup is empty)."""
    if group is not None:
        with contextlib.suppress(OSError):
            group.rmdir()
