"""The seccomp filter of the bot sandbox (domsim.seat.sandbox): a classic BPF program, as
bubblewrap's `--seccomp FD` loads it. Refused, with an error (EPERM; a socket family with
EAFNOSUPPORT) so that a library probing a call keeps working, never a kill:

- what a bot never needs: debugging other processes, mounting, namespaces, kernel keys, BPF,
  perf, loading modules, setting the clock, io_uring and Linux AIO;
- every channel between processes through a kernel object they share (docs/seat-protocol.md,
  "The sandbox"): file locks of every kind (`flock`, `fcntl`'s POSIX and OFD record locks),
  leases, F_NOTIFY, inotify and fanotify, and the probes and evictions of the page cache
  (`fadvise`, `cachestat`, `mincore`, `RWF_NOWAIT` reads and writes, `madvise`'s COLD and
  PAGEOUT), and statmount/listmount;
- widening its CPU set (`sched_setaffinity`);
- sockets of a family other than Unix, IPv4, IPv6 and netlink (vsock first: the network
  namespace does not cover it).

`clone3` is answered with ENOSYS, so that the C library falls back to `clone`, whose namespace
flags are refused. A call from another architecture's table (32-bit x86 through `int 0x80`)
kills the process: its numbers differ, so the list would not hold."""

from __future__ import annotations

import errno
import platform
import struct

#: Linux's numbers of the calls refused whatever their arguments, per architecture
#: (arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/asm-generic/unistd.h for arm64).
_REFUSED = {
    "x86_64": {
        "mincore": 27, "flock": 73, "ptrace": 101, "syslog": 103, "uselib": 134, "vhangup": 153,
        "pivot_root": 155, "adjtimex": 159, "chroot": 161, "acct": 163, "settimeofday": 164,
        "mount": 165, "umount2": 166, "swapon": 167, "swapoff": 168, "reboot": 169,
        "sethostname": 170, "setdomainname": 171, "iopl": 172, "ioperm": 173, "init_module": 175,
        "delete_module": 176, "quotactl": 179, "sched_setaffinity": 203, "io_setup": 206,
        "io_submit": 209, "lookup_dcookie": 212, "fadvise64": 221, "clock_settime": 227,
        "kexec_load": 246, "add_key": 248, "request_key": 249, "keyctl": 250,
        "inotify_init": 253, "inotify_add_watch": 254, "inotify_rm_watch": 255, "unshare": 272,
        "inotify_init1": 294, "perf_event_open": 298, "fanotify_init": 300,
        "fanotify_mark": 301, "name_to_handle_at": 303, "open_by_handle_at": 304,
        "clock_adjtime": 305, "setns": 308, "process_vm_readv": 310, "process_vm_writev": 311,
        "kcmp": 312, "finit_module": 313, "kexec_file_load": 320, "bpf": 321,
        "userfaultfd": 323, "io_uring_setup": 425, "io_uring_enter": 426,
        "io_uring_register": 427, "open_tree": 428, "move_mount": 429, "fsopen": 430,
        "fsconfig": 431, "fsmount": 432, "fspick": 433, "pidfd_getfd": 438,
        "process_madvise": 440, "mount_setattr": 442, "quotactl_fd": 443, "cachestat": 451,
        "statmount": 457, "listmount": 458,
    },
    "aarch64": {
        "io_setup": 0, "io_submit": 2, "lookup_dcookie": 18, "inotify_init1": 26,
        "inotify_add_watch": 27, "inotify_rm_watch": 28, "flock": 32, "umount2": 39, "mount": 40,
        "pivot_root": 41, "chroot": 51, "vhangup": 58, "quotactl": 60, "acct": 89, "unshare": 97,
        "kexec_load": 104, "init_module": 105, "delete_module": 106, "clock_settime": 112,
        "syslog": 116, "ptrace": 117, "sched_setaffinity": 122, "reboot": 142,
        "sethostname": 161, "setdomainname": 162, "settimeofday": 170, "adjtimex": 171,
        "add_key": 217, "request_key": 218, "keyctl": 219, "swapon": 224, "swapoff": 225,
        "fadvise64": 223, "mincore": 232, "perf_event_open": 241, "fanotify_init": 262,
        "fanotify_mark": 263, "name_to_handle_at": 264, "open_by_handle_at": 265,
        "clock_adjtime": 266, "setns": 268, "process_vm_readv": 270, "process_vm_writev": 271,
        "kcmp": 272, "finit_module": 273, "bpf": 280, "userfaultfd": 282,
        "kexec_file_load": 294, "io_uring_setup": 425, "io_uring_enter": 426,
        "io_uring_register": 427, "open_tree": 428, "move_mount": 429, "fsopen": 430,
        "fsconfig": 431, "fsmount": 432, "fspick": 433, "pidfd_getfd": 438,
        "process_madvise": 440, "mount_setattr": 442, "quotactl_fd": 443, "cachestat": 451,
        "statmount": 457, "listmount": 458,
    },
}
#: The numbers of the calls refused by their arguments (`_BY_ARGUMENT`), and of clone3.
_CALLS = {
    "x86_64": {"madvise": 28, "fcntl": 72, "socket": 41, "socketpair": 53, "clone": 56,
               "preadv2": 327, "pwritev2": 328, "clone3": 435},
    "aarch64": {"fcntl": 25, "socket": 198, "socketpair": 199, "clone": 220, "madvise": 233,
                "preadv2": 286, "pwritev2": 287, "clone3": 435},
}
#: AUDIT_ARCH_* per architecture.
_AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
#: x86_64's x32 calls have this bit set (the same calls under other numbers).
_X32_BIT = 0x40000000
#: CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET.
_NEW_NAMESPACES = 0x7E020000
#: fcntl's F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW, F_SETLEASE,
#: F_GETLEASE, F_NOTIFY.
_LOCK_COMMANDS = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026)
#: madvise's MADV_COLD and MADV_PAGEOUT (they evict a file's pages from the page cache).
_EVICTING_ADVICE = (20, 21)
_RWF_NOWAIT = 0x8
#: AF_UNIX, AF_INET, AF_INET6, AF_NETLINK.
_SOCKET_FAMILIES = (1, 2, 10, 16)
#: (call, argument, test, values, errno): refused when the argument is `one of` the values,
#: `none of` them, or has `any bit` of them set.
_BY_ARGUMENT = (
    ("fcntl", 1, "one of", _LOCK_COMMANDS, errno.EPERM),
    ("madvise", 2, "one of", _EVICTING_ADVICE, errno.EPERM),
    ("preadv2", 5, "any bit", (_RWF_NOWAIT,), errno.EPERM),
    ("pwritev2", 5, "any bit", (_RWF_NOWAIT,), errno.EPERM),
    ("socket", 0, "none of", _SOCKET_FAMILIES, errno.EAFNOSUPPORT),
    ("socketpair", 0, "none of", _SOCKET_FAMILIES, errno.EAFNOSUPPORT),
    ("clone", 0, "any bit", (_NEW_NAMESPACES,), errno.EPERM),
)

_LD_ABS_W, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_KILL_PROCESS, _ERRNO, _ALLOW = 0x80000000, 0x00050000, 0x7FFF0000
_NR, _ARCH_OFFSET, _ARGS = 0, 4, 16  # in struct seccomp_data (an argument's low half first)
_DENY = "errno", errno.EPERM


def supported() -> str | None:
    """None where the filter can be built, else why not (one phrase)."""
    machine = platform.machine()
    return None if machine in _AUDIT_ARCH else f"no seccomp filter for the {machine} architecture"


def refused_calls() -> tuple[str, ...]:
    """The calls refused whatever their arguments."""
    return tuple(sorted(_REFUSED[platform.machine()]))


def program() -> bytes:
    """The filter as `struct sock_filter` records, for bubblewrap's `--seccomp`."""
    machine = platform.machine()
    calls = _CALLS[machine]
    code: list[tuple[int, object, object, int]] = [  # (op, jump if true, if false, k)
        (_LD_ABS_W, 0, 0, _ARCH_OFFSET),
        (_JEQ, 1, 0, _AUDIT_ARCH[machine]),
        (_RET, 0, 0, _KILL_PROCESS),
        (_LD_ABS_W, 0, 0, _NR),
    ]
    if machine == "x86_64":
        code.append((_JGE, _DENY, 0, _X32_BIT))
    code += [(_JEQ, _DENY, 0, number) for number in sorted(_REFUSED[machine].values())]
    code += [(_JEQ, ("call", at), 0, calls[rule[0]]) for at, rule in enumerate(_BY_ARGUMENT)]
    code += [(_JEQ, ("errno", errno.ENOSYS), 0, calls["clone3"]), (_RET, 0, 0, _ALLOW)]
    labels: dict[object, int] = {}
    for at, (_, argument, test, values, error) in enumerate(_BY_ARGUMENT):
        labels["call", at] = len(code)
        code += [(_LD_ABS_W, 0, 0, _ARGS + 8 * argument), *_test(test, values, error)]
    labels["allow"] = len(code)
    code.append((_RET, 0, 0, _ALLOW))
    for error in sorted({errno.EPERM, errno.ENOSYS, *(rule[4] for rule in _BY_ARGUMENT)}):
        labels["errno", error] = len(code)
        code.append((_RET, 0, 0, _ERRNO | error))

    def offset(at: int, target: object) -> int:
        if isinstance(target, int):
            return target
        jump = labels[target] - at - 1
        assert 0 <= jump < 256, "the filter outgrew classic BPF's jumps: reorder it"
        return jump

    return b"".join(struct.pack("=HBBI", op, offset(at, yes), offset(at, no), k)
                    for at, (op, yes, no, k) in enumerate(code))


def _test(test: str, values: tuple[int, ...], error: int) -> list[tuple[int, object, object, int]]:
    """The jumps that end an argument's test, its value loaded: in `error` or in "allow"."""
    refused = "errno", error
    if test == "any bit":
        return [(_JSET, refused, "allow", values[0])]
    hit, miss = (refused, "allow") if test == "one of" else ("allow", refused)
    return [(_JEQ, hit, 0, value) for value in values[:-1]] + [(_JEQ, hit, miss, values[-1])]
