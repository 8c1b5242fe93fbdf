#!/bin/sh
# SPDX-License-Identifier: MIT
# check-vm: the crypto group's kernel backend through AF_ALG. Every result
# ok, or skipped with a reason (an algorithm this kernel lacks); no error.
set -eu
. "$(dirname "$0")/lib.sh"
name=crypto

out=$PG_VM_BUILD/out-crypto
rm -rf "$out"
set +e
sh "$here/run-in-vm.sh" --script "$here/crypto-guest.sh" --out "$out" \
	--modules "af_alg algif_skcipher algif_hash algif_aead" \
	--module-dirs "crypto arch/x86/crypto lib/crypto"
rc=$?
set -e
[ $rc -ne 125 ] || fail "crypto: the VM did not run (see the line above)"
[ -s "$out/kernel.jsonl" ] || fail "crypto: no results file from the guest (exit $rc; console: $out/console.log)"
python3 - "$out/kernel.jsonl" <<'PY' || fail "crypto: the kernel backend's results are wrong (above; $out/kernel.jsonl)"
import json, sys
path = sys.argv[1]
recs = [json.loads(l) for l in open(path) if l.strip()]
res = [r for r in recs if r.get("type") == "result"]
end = [r for r in recs if r.get("type") == "end"]
bad = []
for r in res:
    st = r.get("status")
    what = "%s %s" % (r.get("bench"), json.dumps(r.get("params", {}), sort_keys=True))
    if st == "skipped" and not r.get("reason"):
        bad.append("skipped without a reason: " + what)
    elif st not in ("ok", "skipped"):
        bad.append("%s: %s (%s)" % (st, what, r.get("reason") or r.get("error") or ""))
ok = [r for r in res if r.get("status") == "ok"]
if not ok:
    bad.append("no result is ok: the kernel backend measured nothing")
if not end or end[-1].get("status") != "complete":
    bad.append("the run did not complete")
for b in bad:
    print("check-vm: crypto: " + b, file=sys.stderr)
benches = {r["bench"] for r in res}
drivers = sorted({r.get("note", "").split(" (")[0] for r in ok if r.get("note")})
print("check-vm: crypto: kernel drivers used: " + ", ".join(drivers))
print("check-vm: crypto: %d results from %d benchmarks: %d ok, %d skipped"
      % (len(res), len(benches), len(ok), sum(r.get("status") == "skipped" for r in res)))
sys.exit(1 if bad else 0)
PY
[ $rc -eq 0 ] || fail "crypto: the guest exited $rc (console: $out/console.log)"
