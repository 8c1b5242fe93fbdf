# SPDX-License-Identifier: MIT
# The CAN group on a vcan this test creates and removes (root, and a kernel
# with the vcan module; skipped otherwise, and always run in the VM by
# tests/vm/can.check.sh): every frame can.tx says it wrote is one the
# interface's own counter saw, none lost; can.rr gets its answers from the
# kernel's can-gw (or skips where the kernel has none).
. "$(dirname "$0")/lib.sh"
need_json
need_python
[ "$(id -u)" -eq 0 ] || skip "creating a vcan interface needs root"
need_cmd ip iproute2
V=pgcan$$
cleanup() { ip link del "$V" 2>/dev/null || true; rm -rf "$T"; }
trap cleanup EXIT
ip link add "$V" type vcan 2>"$T/err" || skip "cannot create a vcan interface here: $(cat "$T/err")"
ip link set "$V" up
tx0=$(cat /sys/class/net/$V/statistics/tx_packets)
"$PG" run can.tx -p if=$V -p time=1 --runs 2 --out "$T/tx.jsonl" >"$T/table" 2>"$T/err" || fail "can.tx: $(cat "$T/err")"
tx1=$(cat /sys/class/net/$V/statistics/tx_packets)
"$PG" run can.rr -p if=$V -p time=1 --runs 2 --out "$T/rr.jsonl" >>"$T/table" 2>>"$T/err" || fail "can.rr: $(cat "$T/err")"
python3 - "$T" $((tx1 - tx0)) <<'PY'
import sys
from pgcheck import check, results
t, sent_by_counter = sys.argv[1], int(sys.argv[2])

def by_metric(name):
    return {r["metric"]: r for r in results("%s/%s.jsonl" % (t, name), end=None)}

tx = by_metric("tx")
check(tx["frames"]["status"] == "ok", "can.tx: %s" % tx["frames"].get("reason"))
sent = sum(round(v * s) for v, s in zip(tx["frames"]["samples"], tx["frames"]["sample_s"]))
check(sent == sent_by_counter, "can.tx wrote %d frames, the interface sent %d" % (sent, sent_by_counter))
check(tx["lost"]["samples"] == [0, 0], "lost %s" % tx["lost"]["samples"])
check("every one received in order" in tx["frames"]["note"], tx["frames"]["note"])
rr = next(iter(by_metric("rr").values()))
if rr["status"] == "skipped":
    check("can-gw" in rr["reason"] or "CAP_NET_ADMIN" in rr["reason"], rr["reason"])
else:
    check(rr["status"] == "ok", "can.rr: %s" % rr.get("reason"))
print("ok: %d frames" % sent)
PY
