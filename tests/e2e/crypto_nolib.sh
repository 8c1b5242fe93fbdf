# SPDX-License-Identifier: MIT
# Built without libcrypto, the crypto group is still there: the openssl
# backend says `skipped` and what to install, the kernel backend (AF_ALG,
# libc alone) runs or skips on its own terms, and the run succeeds.
. "$(dirname "$0")/lib.sh"
nolib_tree
grep -q 'crypto group: kernel backend only' "$NB/cfg.log" || fail "configure does not say the openssl backend is off"
ldd "$NB/perfguide" 2>/dev/null | grep -q libcrypto && fail "linked libcrypto anyway"
cd "$T"
"$NB/perfguide" run crypto.sha256 crypto.aes-128-cbc -p size=16 -p backend=openssl,kernel \
	--runs 2 --min-time 0.01 >"$T/out" 2>"$T/err" || fail "run failed: $(cat "$T/err")"
[ "$(grep -c 'skipped: built without libcrypto: install libssl-dev and rebuild' "$T/out")" -eq 2 ] ||
	fail "the openssl backend does not say what to install: $(cat "$T/out")"
grep -q '^crypto.sha256 .*backend=kernel.*\(skipped: the kernel\|KBytes/Sec\)' "$T/out" ||
	fail "no kernel backend line: $(cat "$T/out")"
echo "ok"
