# SPDX-License-Identifier: MIT
# Guest side of `make check-vm` for the crypto group (run by run-in-vm.sh in
# the VM, busybox sh): the kernel backend's known-answer tests and a short
# timed run of every algorithm through AF_ALG, results in $PG_OUT.
set -u
fail() { echo "crypto-guest: $*"; exit 1; }

perfguide info >"$PG_OUT/info.txt" || fail "perfguide info failed"
[ -r /proc/crypto ] || fail "no /proc/crypto"
for m in af_alg algif_skcipher algif_hash algif_aead; do
	grep -q "^$m " /proc/modules || fail "module $m is not loaded"
done

if ! perfguide list | grep -q '^crypto\.'; then
	echo "crypto-guest: this perfguide has no crypto group: checked the modules only"
	: >"$PG_OUT/no-crypto"
	exit 0
fi

# Every algorithm both ways and by both data paths (each result checks its
# known answers first), two short samples: under TCG this is a test of the
# path, not a measurement.
FAST="--runs 2 --min-time 0.05"
# shellcheck disable=SC2086
perfguide run 'crypto.*' -p backend=kernel -p op=encrypt,decrypt -p path=sendmsg,splice -p size=1k \
	$FAST --no-db --out "$PG_OUT/kernel.jsonl"
rc=$?
# The openssl backend beside it, for the figures; a static build without
# libcrypto skips it, which is no failure of the kernel backend.
# shellcheck disable=SC2086
perfguide run 'crypto.*' -p backend=openssl $FAST --no-db --out "$PG_OUT/openssl.jsonl" >"$PG_OUT/openssl.log" 2>&1 ||
	echo "crypto-guest: the openssl backend exited $? (see openssl.log)"
# Which drivers the kernel had, and which the modprobe loaded on demand.
cp /proc/crypto "$PG_OUT/proc-crypto.txt"
cat /proc/modules >"$PG_OUT/modules.txt"
exit $rc
