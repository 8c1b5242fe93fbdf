#!/bin/sh
# SPDX-License-Identifier: MIT
# check-vm: run-in-vm.sh falls back to TCG when KVM is there but cannot start
# the guest (nested virtualisation on which qemu aborts: status 134 before
# the guest prints anything), and says so in one line. A qemu that fails as
# such a host's does stands in front of the real one on PATH.
set -eu
. "$(dirname "$0")/lib.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
real=$(command -v qemu-system-x86_64) || skip "no qemu-system-x86_64"
cat >"$t/qemu-system-x86_64" <<EOS
#!/bin/sh
case " \$* " in *" -accel kvm "*)
	echo "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69" >&2
	echo "qemu-system-x86_64: ../target/i386/kvm/kvm.c: kvm_buf_set_msrs: Assertion failed." >&2
	exit 134 ;;
esac
exec "$real" "\$@"
EOS
chmod +x "$t/qemu-system-x86_64"
echo 'echo up >"$PG_OUT/up"' >"$t/guest.sh"
PATH=$t:$PATH PG_VM_ACCEL=kvm sh "$here/run-in-vm.sh" --script "$t/guest.sh" --out "$t/out" --timeout 120 \
	2>"$t/err" || fail "accel: no fallback: $(tail -n 3 "$t/err")"
[ "$(cat "$t/out/up" 2>/dev/null)" = up ] || fail "accel: the guest did not run under TCG"
[ "$(grep -c 'falling back to TCG' "$t/err")" -eq 1 ] || fail "accel: no single line saying so: $(cat "$t/err")"
echo "check-vm: accel: KVM that cannot start the guest falls back to TCG: $(grep 'falling back' "$t/err")"
