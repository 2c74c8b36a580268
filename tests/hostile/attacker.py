#!/usr/bin/env python3
"""Hostile on purpose: a seat-protocol bot (imports nothing of domsim) that attacks the run as
argv[1] says at its first `choose`, reports what it got on stderr (the run's log) as lines
`attacker: ...`, and otherwise plays the first legal move, as tests/hostile/bad_bot.py does, so
that a run with it can be compared with one with that honest twin.

- peek: looks for a way to the deals: a seed in a message it is sent or in its environment, a
  process whose command line names a seed (`--seed`), the sandbox's masks or a scenario it can
  read, a run's manifest under any process's working folder, a scenario or a manifest in its
  own folder;
  reports `attacker: found ...` for each, or `attacker: found nothing`;
- write RUN_DIR: tries to rewrite the run's files (the manifest, every part) and to create one,
  and reports `attacker: wrote ...` or `attacker: wrote nothing`;
- kill PID...: SIGKILLs each PID (its worker, the tourney) and every process it can see but
  itself, and reports `attacker: killed ...`;
- daemon MARKER: double-forks a daemon that sleeps an hour with MARKER in its command line;
- flood: answers `choose` with junk lines, without end;
- stderr: writes 1 MiB to stderr without a newline, at every `choose`;
- think SECONDS: sleeps SECONDS at its first `choose` (a long think, no limit);
- spin MARKER: starts a child that burns CPU with MARKER in its command line, and plays on;
- cpus: reports the CPUs it may run on, `attacker: cpus [...]` (not an attack);
- probe [FILE...]: tries what a bot never may: read /etc/shadow, each FILE and any process's
  environment, write a sysctl, see a file beside its own, connect to any Unix socket it can
  find, open a vsock socket, lock a file, set its CPUs, ask whether a file's pages are cached
  (RWF_NOWAIT), ptrace, make a user namespace; reports `attacker: probe ...` for each that
  worked, then its uid and its mounts as `attacker: uid N` and `attacker: mount ROOT POINT`;
- remember: remembers the hand it held at the start of every hand it played, and at each
  decision looks among them for the one the opponent holds (a duplicate deal's mirror: the hand
  it held there, disjoint from its own, holding every tile the opponent has played); reports
  `attacker: claim MINE THEIRS` (its hand's first tiles and the opponent's it believes) or
  `attacker: claim none`, and at each hand's first decision `attacker: process TOKEN game N
  holds MINE` (TOKEN: drawn once per process; N: its count of games), so that a test can tell
  which process played which deal;
- brute: looks for the game's seed through domsim's public derivations: the seat seed it is
  told, and the first hand it is dealt, against those of run seeds -100..100 (-20..20 for the
  hands) and their first 64 deals, and against those of game seeds -100..100 (a game played
  alone, `domsim play --seed S`, was dealt from S itself); reports once a game `attacker:
  brute found SEED...`, the game seeds it believes (a hand may match another deal's by
  chance), or `attacker: brute nothing`;
- deep: answers every `choose` with a line of 300,000 `[` (json.loads would run out of
  recursion), then its move;
- hog N MIB: starts N children that each fill MIB MiB of memory and hold it for two seconds,
  and reports how many held theirs at once: `attacker: held K`;
- locks: every process of the bot publishes the hand it holds as byte-range read locks
  (F_OFD_SETLK) on its own read-only file, and at each decision reads the others' with
  F_OFD_GETLK (any process of the bot, across workers and sandboxes), looking for the hand of
  another seat of its game: one disjoint from its own that holds every tile the others have
  played; reports `attacker: claim MINE THEIRS` or `attacker: claim none` as `remember` does,
  and `attacker: locks refused` once if it cannot lock;
- spinners N: at its first game's start, starts N children that burn CPU without end, each in
  a session of its own (on the CPU its worker keeps to with its bots, the victim's), and plays
  on."""

import contextlib
import fcntl
import json
import os
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

how, args = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("", [])
received: list[str] = []


def say(message: dict) -> None:
    print(json.dumps(message), flush=True)


def report(text: str) -> None:
    print(f"attacker: {text}", file=sys.stderr, flush=True)


def peek() -> None:
    """Every place the run's seed or the deals could come from."""
    hits = [f"the {m['type']} message names a seed" for m in map(json.loads, received)
            if "seed" in m]
    hits += [f"environment variable {key}" for key in os.environ if "SEED" in key.upper()]
    for pid in (p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--seed" in command:
            hits.append(f"process {pid}'s command line names the seed")
        if b"--tmpfs" in command or b"--ro-bind" in command:
            hits.append(f"process {pid}'s command line shows what the sandbox masks")
        for scenario in (arg for arg in command if arg.endswith(b".toml")):
            try:
                if b"seed" in Path(scenario.decode()).read_bytes():
                    hits.append(f"process {pid}'s command line names a scenario it can read")
            except OSError:
                pass
        try:
            cwd = Path(os.readlink(f"/proc/{pid}/cwd"))
            manifests = [*cwd.glob("*/manifest.json"), *cwd.glob("*/*/manifest.json")]
        except OSError:
            continue
        hits += [f"{m} is readable" for m in manifests if os.access(m, os.R_OK)]
    own = Path(__file__).resolve().parent  # its folder, where a user may keep runs and scenarios
    for path in [*own.rglob("*.toml"), *own.rglob("manifest.json")]:
        try:
            if "seed" in path.read_text():
                hits.append(f"{path.name} in its folder names a seed")
        except OSError:
            pass
    for hit in sorted(set(hits)) or ["nothing"]:  # a line each: a log line is cut at 1000
        report(f"found {hit}")


def write(run_dir: str) -> None:
    wrote = []
    targets = [Path(run_dir, "manifest.json"), Path(run_dir, "forged.txt"),
               *Path(run_dir).glob("parts/*")]
    for path in targets:
        try:
            with path.open("ab") as out:
                out.write(b"forged")
            wrote.append(str(path))
        except OSError:
            pass
    report("wrote " + ("; ".join(wrote) if wrote else "nothing"))


def kill(pids: list[str]) -> None:
    killed = []
    visible = [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]
    for pid in [*map(int, pids), *visible]:
        try:
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
        except OSError:
            pass
    report(f"killed {killed}")


def daemon(marker: str) -> None:
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(3600)",
                                      marker])
        os._exit(0)
    os.wait()


def probe(files: list[str]) -> None:
    import ctypes
    import socket
    import stat

    done = []
    for path in ["/etc/shadow", *files]:
        try:
            Path(path).read_bytes()
            done.append(f"read {path}")
        except OSError:
            pass
    # one line for them all: a line a process would fill the log's budget on a busy machine
    # before the lines below were said
    read = []
    for pid in (p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()):
        try:
            names = {v.split(b"=")[0] for v in Path(f"/proc/{pid}/environ").read_bytes()
                     .split(b"\0") if v}
        except OSError:
            continue
        if names - {b"PATH", b"HOME", b"TMPDIR", b"LANG", b"PYTHONDONTWRITEBYTECODE",
                    b"PYTHONPATH"}:
            read.append(pid)
    if read:
        done.append(f"read the environment of {len(read)} processes (pid {read[0]} first)")
    try:
        with open("/proc/sys/fs/file-max", "w") as sysctl:
            sysctl.write(Path("/proc/sys/fs/file-max").read_text())
        done.append("wrote a sysctl")
    except OSError:
        pass
    me = Path(__file__).resolve()
    done += [f"saw {path} beside it" for path in me.parent.iterdir()
             if path != me and str(path) not in files]
    skip = {"/proc", "/sys", "/dev", "/usr", sys.base_prefix, sys.prefix}  # no socket there
    for folder, subfolders, names in os.walk("/"):
        subfolders[:] = [s for s in subfolders if os.path.join(folder, s) not in skip]
        for name in names:
            path = os.path.join(folder, name)
            try:
                if not stat.S_ISSOCK(os.lstat(path).st_mode):
                    continue
                with socket.socket(socket.AF_UNIX) as client:
                    client.connect(path)
                done.append(f"connected to {path}")
            except OSError:
                pass
    mine = Locks.file
    attempts = {
        "opened a vsock socket": lambda: socket.socket(40).close(),  # AF_VSOCK
        "locked a file": lambda: fcntl.flock(mine, fcntl.LOCK_SH),
        "set its CPUs": lambda: os.sched_setaffinity(0, os.sched_getaffinity(0)),
        "asked if a file's pages are cached": lambda: os.preadv(mine.fileno(), [bytearray(1)], 0,
                                                                os.RWF_NOWAIT),
    }
    for name, attempt in attempts.items():
        with contextlib.suppress(OSError):
            attempt()
            done.append(name)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.ptrace(0, 0, None, None) == 0:  # PTRACE_TRACEME
        done.append("ptrace worked")
    if libc.unshare(0x10000000) == 0:  # CLONE_NEWUSER
        done.append("made a user namespace")
    for line in done:
        report(f"probe {line}")
    report(f"uid {os.getuid()}")
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        fields = line.split()
        report(f"mount {fields[3]} {fields[4]}")


def hog(children: int, mib: int) -> None:
    pids = []
    for _ in range(children):
        pid = os.fork()
        if pid == 0:
            Path("/proc/self/oom_score_adj").write_text("1000")  # the OOM killer's first pick
            held = b"\1" * (mib << 20)
            time.sleep(2)
            os._exit(0 if held else 1)
        pids.append(pid)
    held = sum(os.waitpid(pid, 0)[1] == 0 for pid in pids)
    report(f"held {held}")


def report_claim(mine: frozenset, fits: list[frozenset]) -> None:
    """`attacker: claim MINE THEIRS` when one hand fits, else `attacker: claim none`."""
    if len(fits) == 1:
        held, theirs = (",".join(f"{a}-{b}" for a, b in sorted(h)) for h in (mine, fits[0]))
        report(f"claim {held} {theirs}")
    else:
        report("claim none")


class Memory:
    """What `remember` keeps: every hand it started, and the current one's."""

    seen: list[frozenset] = []
    key: tuple | None = None
    start: frozenset = frozenset()

    @classmethod
    def claim(cls, message: dict) -> None:
        key = (len(received_games), message["hand_number"])
        if key != cls.key:
            if cls.key is not None:
                cls.seen.append(cls.start)
            cls.key, cls.start = key, frozenset(map(tuple, message["hand"]))
            held = ",".join(f"{a}-{b}" for a, b in sorted(cls.start))
            report(f"process {TOKEN} game {len(received_games)} holds {held}")
        played = {tuple(sorted(e["tile"])) for e in message["history"]
                  if e["kind"] == "play" and e["seat"] != message["seat"]}
        fits = [h for h in cls.seen if h.isdisjoint(cls.start) and played <= h]
        report_claim(cls.start, fits)


received_games: list[str] = []
TOKEN = os.urandom(6).hex()


def brute(game: dict, choose: dict) -> None:
    from domsim.deals import seed_deals
    from domsim.seat.protocol import rules_from
    from domsim.seeding import game_seed, seat_seed
    from domsim.tiles import tile_id

    told, seat = game["seat_seed"], game["seat"]
    found = [game_seed(run, deal) for run in range(-100, 101) for deal in range(64)
             if seat_seed(game_seed(run, deal), seat) == told]
    found += [seed for seed in range(-100, 101) if seat_seed(seed, seat) == told]
    mine = sum(1 << tile_id(a, b) for a, b in choose["hand"])
    rules = rules_from(game["rules"])
    found += [seed for run in range(-20, 21) for _, seed, deal in seed_deals(rules, run, 64)
              if deal.hands[seat] == mine]
    report("brute " + ("found " + " ".join(map(str, found)) if found else "nothing"))


class Locks:
    """What `locks` publishes: for each hand it has held, a slot (a lock on an even byte of the
    slots' range) and, under the slot, a lock per tile of the hand (even bytes too: one owner's
    touching locks would merge)."""

    SLOTS, STRIDE, TILE = 1 << 14, 128, 7  # a tile (a, b) is the byte 2 * (a * TILE + b)
    file = open(__file__, "rb")  # noqa: SIM115 (held for the process's life)
    key: tuple | None = None
    start: frozenset = frozenset()
    refused = False
    published: list[list[int]] = []  # the bytes locked for each hand, oldest first
    KEPT = 3

    @classmethod
    def base(cls, slot: int) -> int:
        return 2 * cls.SLOTS + slot * cls.STRIDE

    @classmethod
    def lock(cls, start: int, kind: int = fcntl.F_RDLCK) -> None:
        fcntl.fcntl(cls.file, fcntl.F_OFD_SETLK, struct.pack("hhqqi", kind, 0, start, 1, 0))

    @classmethod
    def held(cls, start: int, end: int) -> list[int]:
        """The bytes in [start, end) another process holds a lock on (the kernel names any one
        lock in a range: the ranges either side of it are asked in turn)."""
        if start >= end:
            return []
        query = struct.pack("hhqqi", fcntl.F_WRLCK, 0, start, end - start, 0)
        kind, _, at, length, _ = struct.unpack("hhqqi", fcntl.fcntl(cls.file, fcntl.F_OFD_GETLK,
                                                                    query))
        if kind == fcntl.F_UNLCK:
            return []
        first, last = max(at, start), min(at + length, end)
        return [*cls.held(start, first), *range(first, last), *cls.held(last, end)]

    @classmethod
    def publish(cls, hand: frozenset) -> None:
        """Its latest hands only (each query walks every lock on the file)."""
        slot = int.from_bytes(os.urandom(2)) % cls.SLOTS
        cls.published.append([cls.base(slot) + 2 * (a * cls.TILE + b) for a, b in hand]
                             + [2 * slot])
        for byte in cls.published[-1]:
            cls.lock(byte)
        if len(cls.published) > cls.KEPT:
            for byte in cls.published.pop(0):
                cls.lock(byte, fcntl.F_UNLCK)

    @classmethod
    def hands(cls) -> list[frozenset]:
        return [frozenset(divmod((byte - cls.base(marker // 2)) // 2, cls.TILE)
                          for byte in cls.held(cls.base(marker // 2), cls.base(marker // 2 + 1)))
                for marker in cls.held(0, 2 * cls.SLOTS)]

    @classmethod
    def claim(cls, message: dict) -> None:
        if cls.refused:
            report_claim(cls.start, [])
            return
        try:
            key = (len(received_games), message["hand_number"])
            if key != cls.key:
                cls.key, cls.start = key, frozenset(tuple(sorted(t)) for t in message["hand"])
                cls.publish(cls.start)
            played: dict[int, set] = {}
            for e in message["history"]:
                if e["kind"] == "play" and e["seat"] != message["seat"]:
                    played.setdefault(e["seat"], set()).add(tuple(sorted(e["tile"])))
            fits = [h for h in cls.hands() if h.isdisjoint(cls.start)
                    and any(tiles <= h for tiles in played.values())]
        except OSError:
            cls.refused = True
            report("locks refused")
            fits = []
        report_claim(cls.start, fits)


def spinners(count: int) -> None:
    for _ in range(count):
        if os.fork() == 0:
            os.setsid()  # a session, so a scheduler autogroup, of its own: weighs as a process
            while True:
                pass


def spin(marker: str) -> None:
    subprocess.Popen([sys.executable, "-c", "while True: pass", marker],
                     start_new_session=True)


ATTACKS = {"peek": peek, "write": lambda: write(args[0]),
           "kill": lambda: kill(args), "daemon": lambda: daemon(args[0]),
           "think": lambda: time.sleep(float(args[0])), "spin": lambda: spin(args[0]),
           "cpus": lambda: report(f"cpus {sorted(os.sched_getaffinity(0))}"),
           "probe": lambda: probe(args), "hog": lambda: hog(int(args[0]), int(args[1]))}
attacked = False
brute_games = 0
for line in sys.stdin:
    received.append(line)
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        say({"type": "hello", "protocol": 2})
    elif kind == "game":
        received_games.append(line)
        if how == "spinners" and not attacked:  # before the opponent's first move
            attacked = True
            spinners(int(args[0]))
        say({"type": "ready"})
    elif kind == "game_over":
        say({"type": "done"})
    elif kind == "choose":
        if how == "flood":
            while True:
                print("junk " * 20, flush=True)
        if how == "brute" and brute_games < len(received_games):
            brute_games = len(received_games)  # once a game, at its first decision
            brute(json.loads(received_games[-1]), message)
        if how == "remember":
            Memory.claim(message)
        if how == "locks":
            Locks.claim(message)
        if how == "deep":
            print("[" * 300_000, flush=True)
        if how == "stderr":
            sys.stderr.write("x" * (1 << 20))
            sys.stderr.flush()
        if not attacked and how in ATTACKS:
            attacked = True
            ATTACKS[how]()
        say({"type": "move", "id": message["id"], **message["legal_moves"][0]})
