# list and info, as text and as JSON.
. "$(dirname "$0")/lib.sh"

"$PG" list >"$T/list" || fail "list failed"
for id in mem.bw.rd mem.bw.wr mem.bw.rdwr mem.bw.cp mem.bw.frd mem.bw.fwr mem.bw.fcp \
	mem.bw.bzero mem.bw.bcopy mem.lat.rd mem.lat.rand mem.stream.copy mem.stream.scale \
	mem.stream.add mem.stream.triad; do
	grep -q "^$id " "$T/list" || fail "list lacks $id"
done
"$PG" info >"$T/info" || fail "info failed"
grep -q '^board ' "$T/info" || fail "info has no board"
grep -q '^kernel ' "$T/info" || fail "info has no kernel"
grep -q '^compiler ' "$T/info" || fail "info has no compiler"

[ "${PG_HAVE_JANSSON:-ON}" = ON ] || { echo ok; exit 0; }
need_python
"$PG" list --json >"$T/list.json" || fail "list --json failed"
"$PG" info --json >"$T/info.json" || fail "info --json failed"
python3 - "$T/list.json" "$T/info.json" <<'PY'
import json, re, sys
benches = json.load(open(sys.argv[1]))
ids = [b["id"] for b in benches]
assert len(ids) == len(set(ids)), "duplicate ids"
for b in benches:
    assert re.fullmatch(r"[a-z0-9-]+(\.[a-z0-9-]+)+", b["id"]), b["id"]
    assert b["metrics"] and all(m["unit"] for m in b["metrics"]), b["id"]
    for p in b["params"]:
        assert p["type"] in ("size", "int", "string") and p["default"], (b["id"], p)
m = json.load(open(sys.argv[2]))
for k in ("board", "board_source", "cpus", "caches", "kernel_release", "libc", "build"):
    assert k in m, k
assert m["build"]["compiler"]
PY
echo "ok"
