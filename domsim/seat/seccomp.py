"""The seccomp filter of the bot sandbox (domsim.seat.sandbox): a classic BPF program, as
bubblewrap's `--seccomp FD` loads it, refusing with EPERM the system calls a bot never needs
(debugging other processes, mounting, namespaces, kernel keys, BPF, perf, loading modules,
setting the clock, io_uring) and answering `clone3` with ENOSYS, so that the C library falls back to
`clone`, whose namespace flags are refused. A call from another architecture's table (32-bit
x86 through `int 0x80`) kills the process: its numbers differ, so the list would not hold."""

from __future__ import annotations

import errno
import platform
import struct

#: Linux's numbers of the refused calls, per architecture (arch/x86/entry/syscalls/syscall_64.tbl,
#: include/uapi/asm-generic/unistd.h for arm64).
_REFUSED = {
    "x86_64": {
        "ptrace": 101, "syslog": 103, "uselib": 134, "vhangup": 153, "pivot_root": 155,
        "adjtimex": 159, "chroot": 161, "acct": 163, "settimeofday": 164, "mount": 165,
        "umount2": 166, "swapon": 167, "swapoff": 168, "reboot": 169, "sethostname": 170,
        "setdomainname": 171, "iopl": 172, "ioperm": 173, "init_module": 175,
        "delete_module": 176, "quotactl": 179, "lookup_dcookie": 212, "clock_settime": 227,
        "kexec_load": 246, "add_key": 248, "request_key": 249, "keyctl": 250, "unshare": 272,
        "perf_event_open": 298, "fanotify_init": 300, "name_to_handle_at": 303,
        "open_by_handle_at": 304, "clock_adjtime": 305, "setns": 308, "process_vm_readv": 310,
        "process_vm_writev": 311, "kcmp": 312, "finit_module": 313, "kexec_file_load": 320,
        "bpf": 321, "userfaultfd": 323, "io_uring_setup": 425, "io_uring_enter": 426,
        "io_uring_register": 427, "open_tree": 428, "move_mount": 429, "fsopen": 430,
        "fsconfig": 431, "fsmount": 432, "fspick": 433, "pidfd_getfd": 438,
        "mount_setattr": 442, "quotactl_fd": 443,
    },
    "aarch64": {
        "lookup_dcookie": 18, "umount2": 39, "mount": 40, "pivot_root": 41, "chroot": 51,
        "vhangup": 58, "quotactl": 60, "acct": 89, "unshare": 97, "kexec_load": 104,
        "init_module": 105, "delete_module": 106, "clock_settime": 112, "syslog": 116,
        "ptrace": 117, "reboot": 142, "sethostname": 161, "setdomainname": 162,
        "settimeofday": 170, "adjtimex": 171, "add_key": 217, "request_key": 218, "keyctl": 219,
        "swapon": 224, "swapoff": 225, "perf_event_open": 241, "fanotify_init": 262,
        "name_to_handle_at": 264, "open_by_handle_at": 265, "clock_adjtime": 266, "setns": 268,
        "process_vm_readv": 270, "process_vm_writev": 271, "kcmp": 272, "finit_module": 273,
        "bpf": 280, "userfaultfd": 282, "kexec_file_load": 294, "io_uring_setup": 425,
        "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428, "move_mount": 429,
        "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "pidfd_getfd": 438,
        "mount_setattr": 442, "quotactl_fd": 443,
    },
}
#: AUDIT_ARCH_*, and the numbers of clone and clone3, per architecture.
_ARCH = {"x86_64": (0xC000003E, 56, 435), "aarch64": (0xC00000B7, 220, 435)}
#: x86_64's x32 calls have this bit set (the same calls under other numbers).
_X32_BIT = 0x40000000
#: CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET.
_NEW_NAMESPACES = 0x7E020000

_LD_ABS_W, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_KILL_PROCESS, _ERRNO, _ALLOW = 0x80000000, 0x00050000, 0x7FFF0000
_NR, _ARCH_OFFSET, _ARG0 = 0, 4, 16  # in struct seccomp_data (arg0's low half: little-endian)


def supported() -> str | None:
    """None where the filter can be built, else why not (one phrase)."""
    machine = platform.machine()
    return None if machine in _ARCH else f"no seccomp filter for the {machine} architecture"


def refused_calls() -> tuple[str, ...]:
    return tuple(sorted(_REFUSED[platform.machine()]))


def program() -> bytes:
    """The filter as `struct sock_filter` records, for bubblewrap's `--seccomp`."""
    machine = platform.machine()
    arch, clone, clone3 = _ARCH[machine]
    code: list[tuple[int, object, object, int]] = [  # (op, jump if true, if false, k)
        (_LD_ABS_W, 0, 0, _ARCH_OFFSET),
        (_JEQ, 1, 0, arch),
        (_RET, 0, 0, _KILL_PROCESS),
        (_LD_ABS_W, 0, 0, _NR),
    ]
    if machine == "x86_64":
        code.append((_JGE, "deny", 0, _X32_BIT))
    code += [(_JEQ, "deny", 0, number) for number in sorted(_REFUSED[machine].values())]
    code += [
        (_JEQ, "nosys", 0, clone3),
        (_JEQ, 0, "allow", clone),
        (_LD_ABS_W, 0, 0, _ARG0),
        (_JSET, "deny", "allow", _NEW_NAMESPACES),
    ]
    labels = {"allow": len(code), "deny": len(code) + 1, "nosys": len(code) + 2}
    code += [(_RET, 0, 0, _ALLOW), (_RET, 0, 0, _ERRNO | errno.EPERM),
             (_RET, 0, 0, _ERRNO | errno.ENOSYS)]

    def offset(at: int, target: object) -> int:
        return target if isinstance(target, int) else labels[target] - at - 1

    return b"".join(struct.pack("=HBBI", op, offset(at, yes), offset(at, no), k)
                    for at, (op, yes, no, k) in enumerate(code))
