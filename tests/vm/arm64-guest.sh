# SPDX-License-Identifier: MIT
# Guest side of `make check-vm`'s arm64 test (run by run-in-vm.sh --arch
# aarch64, busybox sh on Debian's arm64 kernel under qemu -M virt, TCG):
# the static board binary reads a real arm64 kernel's /proc and /sys, and
# runs a short selection of the mem, cpu and os groups. Under TCG this
# tests the path, not the machine: two short samples each.
set -u
fail() { echo "arm64-guest: $*"; exit 1; }

perfguide info >"$PG_OUT/info.txt" || fail "perfguide info failed"
perfguide info --json >"$PG_OUT/info.json" || fail "perfguide info --json failed"
cp /proc/cpuinfo "$PG_OUT/cpuinfo.txt"

FAST="--runs 2 --min-time 0.05"
# shellcheck disable=SC2086
perfguide run mem.bw.rd mem.bw.fcp mem.stream.triad cpu.dhrystone cpu.whetstone \
	os.syscall.null os.pipe.lat os.ctx os.proc.fork os.boot.kernel \
	-p size=256k $FAST --board qemu-virt-a72 --no-db --out "$PG_OUT/arm64.jsonl"
