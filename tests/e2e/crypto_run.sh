# SPDX-License-Identifier: MIT
# The crypto group end to end: every algorithm runs through the openssl
# backend after its known-answer tests, its figures are what it counted
# (buffers of `size` bytes over the time), the seed's rows carry their
# labels, and the kernel backend runs or skips with a reason (this machine's
# kernel has no AF_ALG). Bad combinations are refused before anything runs.
. "$(dirname "$0")/lib.sh"
need_json
need_python
cd "$T"

"$PG" run 'crypto.*' -p backend=openssl,kernel -p size=16,1k $FAST --out "$T/r.jsonl" \
	>"$T/table" 2>"$T/err" || fail "run failed: $(cat "$T/err")"
"$PG" run crypto.aes-128-cbc crypto.aes-128-gcm crypto.sha1 -p threads=2 -p size=64 \
	$FAST --out "$T/t.jsonl" >>"$T/table" 2>>"$T/err" || fail "threads=2 run failed: $(cat "$T/err")"
"$PG" run crypto.des3 crypto.chacha20-poly1305 crypto.aes-128-gcm -p op=decrypt -p size=64 -p backend=openssl,kernel \
	$FAST --out "$T/d.jsonl" >>"$T/table" 2>>"$T/err" || fail "decrypt run failed: $(cat "$T/err")"
"$PG" run crypto.aes-128-cbc -p backend=kernel -p path=splice -p driver=cbc-aes-nosuch -p size=16 \
	$FAST --out "$T/k.jsonl" >>"$T/table" 2>>"$T/err" || fail "kernel driver run failed: $(cat "$T/err")"
grep -q '^crypto.aes-128-cbc' "$T/table" || fail "no table line for crypto.aes-128-cbc"

python3 - "$T" <<'PY'
import json, socket, sys
from pgcheck import check, close, results
t = sys.argv[1]

try:
    socket.socket(38, socket.SOCK_SEQPACKET, 0).close()   # AF_ALG
    have_alg = True
except OSError:
    have_alg = False

ALGS = {"aes-128-cbc", "aes-192-cbc", "aes-256-cbc", "aes-128-ecb", "aes-192-ecb", "aes-256-ecb",
        "des3", "sha1", "sha256", "sha512", "aes-128-gcm", "aes-256-gcm", "aes-128-ctr",
        "chacha20-poly1305", "hmac-sha256"}
METRICS = ["throughput", "bandwidth", "cpu_load", "elapsed_per_op", "process_cpu_per_op",
           "thread_cpu_per_op"]
seen = set()
have_lib = None
for name in ("r", "t", "d", "k"):
    res = results("%s/%s.jsonl" % (t, name))
    by = {}
    for r in res:
        by.setdefault((r["bench"], json.dumps(r["params"], sort_keys=True)), []).append(r)
    for (bench, _), rs in by.items():
        p = rs[0]["params"]
        alg = bench.split(".", 1)[1]
        if rs[0]["status"] != "ok":
            check(len(rs) == 1, "a skip is one record")
            why = rs[0].get("reason", "")
            check(rs[0]["status"] == "skipped", "%s %s: %s %s" % (bench, p, rs[0]["status"], why))
            if p["backend"] == "openssl":
                check("built without libcrypto: install libssl-dev" in why, "openssl skip says why: " + why)
                have_lib = False
            elif not have_alg:
                check(why.startswith("the kernel has no AF_ALG: load af_alg and algif_"), "AF_ALG skip: " + why)
            else:
                check("kernel" in why and ("/proc/crypto" in why or "AF_ALG" in why), "kernel skip: " + why)
            continue
        seen.add((alg, p["backend"]))
        check([r["metric"] for r in rs] == METRICS, "%s metrics %s" % (bench, [r["metric"] for r in rs]))
        m = {r["metric"]: r for r in rs}
        note = rs[0].get("note", "")
        check("known answers:" in note and "passed" in note, "%s note names the known answers: %s" % (bench, note))
        if p["backend"] == "openssl":
            have_lib = True
            check(note.startswith("provider "), "openssl note names the provider: " + note)
        else:
            check(("splice" if p["path"] == "splice" else "sendmsg") in note, "kernel note names the path: " + note)
        size, copies = p["size"], rs[0]["copies"]
        check(copies == p["threads"], "copies = threads")
        tp, bw, el = m["throughput"], m["bandwidth"], m["elapsed_per_op"]
        check(tp["unit"] == "KBytes/Sec" and bw["unit"] == "MB/s" and el["unit"] == "us", "units")
        for v, b, e, s in zip(tp["samples"], bw["samples"], el["samples"], tp["sample_s"]):
            ops = tp["iterations"] * copies
            check(close(v, ops * size / s / 1000), "%s: KBytes/Sec = buffers x size / s / 1000" % bench)
            check(close(b, v / 1000), "MB/s = KBytes/Sec / 1000")
            check(close(e, s * copies / ops * 1e6), "elapsed us per op")
        for v in m["cpu_load"]["samples"]:
            check(0 <= v <= 100 * copies * 1.5 + 5, "%s cpu load %g%%" % (bench, v))
        for k in ("process_cpu_per_op", "thread_cpu_per_op"):
            check(all(v >= 0 for v in m[k]["samples"]), k + " >= 0")
        want = "%s %d" % (alg, size) if (p["backend"] == "openssl" and copies == 1 and
                                         p.get("op", "encrypt") == "encrypt") else ""
        check(tp.get("label", "") == want, "%s %s label %r, want %r" % (bench, p, tp.get("label"), want))
if have_lib:
    check({a for a, b in seen if b == "openssl"} == ALGS, "every algorithm ran: %s" % seen)
if not have_alg:
    check(not any(b == "kernel" for a, b in seen), "no kernel figure without AF_ALG")
print("ok")
PY

# Bad combinations: one line, exit 2, nothing run.
expect_usage_error "a size that is not whole blocks" run crypto.aes-128-cbc -p size=17
expect_usage_error "des3's 8-byte blocks" run crypto.des3 -p size=12
expect_usage_error "path with the openssl backend" run crypto.sha1 -p path=splice
expect_usage_error "driver with the openssl backend" run crypto.sha1 -p driver=sha1-generic
expect_usage_error "an unknown backend" run crypto.sha1 -p backend=gpu
expect_usage_error "op on a hash only" run crypto.sha1 -p op=decrypt
echo "ok"
