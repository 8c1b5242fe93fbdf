#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Runs a command with every system call made slower, and nothing else:
#
#   python3 bench/slow-syscalls.py CMD [ARGS...]
#
# It installs seccomp filters that load each call's first argument and
# compare it with many constants before allowing the call (the kernel runs
# them on every system call of the process and its children), then execs
# CMD. SECCOMP_FILTER_FLAG_SPEC_ALLOW keeps the kernel from turning on the
# speculative-store-bypass mitigation, which would slow memory too.
#
# SLOW_FILTERS (default 1) filters of SLOW_INSNS (default 150) comparisons
# each: on this project's VM (AMD EPYC, KVM, 2026-12-06) the default made
# a system call about 0.1 us slower: os.syscall.null 0.167 -> 0.265 us
# (+59%), os.syscall.read +44%, os.pipe.lat 5.12 -> 5.62 us (+10%); 250
# comparisons +69%, +49%, +13%. bench/gate-check.sh uses 16 filters of 400
# for a gross slowdown (about 10x).
#
# An ab with B slowed:
#   perfguide ab os.syscall.null mem.bw.rd --b-prefix 'python3 bench/slow-syscalls.py'
import ctypes
import os
import struct
import sys

if len(sys.argv) < 2:
    sys.exit("usage: slow-syscalls.py CMD [ARGS...]")
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
    sys.exit("slow-syscalls: prctl: " + os.strerror(ctypes.get_errno()))
nr = {"x86_64": 317, "aarch64": 277, "armv7l": 383}.get(os.uname().machine)  # seccomp(2)
if nr is None:
    sys.exit("slow-syscalls: no seccomp system call number for " + os.uname().machine)
insns = int(os.environ.get("SLOW_INSNS", "150"))
# ld [16] (args[0]); jeq #k, 0, 0 (either way: next); ...; ret ALLOW
code = b"".join(struct.pack("HBBI", 0x20, 0, 0, 16) + struct.pack("HBBI", 0x15, 0, 0, 0x7fffffff - i)
                for i in range(insns)) + struct.pack("HBBI", 0x06, 0, 0, 0x7fff0000)
buf = ctypes.create_string_buffer(code, len(code))
prog = ctypes.create_string_buffer(struct.pack("HxxxxxxQ" if ctypes.sizeof(ctypes.c_void_p) == 8 else "HxxI",
                                               2 * insns + 1, ctypes.addressof(buf)))
for _ in range(int(os.environ.get("SLOW_FILTERS", "1"))):
    if libc.syscall(nr, 1, 4, prog) != 0:  # SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_SPEC_ALLOW
        sys.exit("slow-syscalls: seccomp: " + os.strerror(ctypes.get_errno()))
try:
    os.execvp(sys.argv[1], sys.argv[1:])
except OSError as e:
    sys.exit("slow-syscalls: %s: %s" % (sys.argv[1], e.strerror))
