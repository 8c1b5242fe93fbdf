# SPDX-License-Identifier: MIT
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
# The version is VERSION's, with no git suffix (a tarball's build says the
# same); each backend library it has shows its version (or that it states
# none) and, on Debian, the package it was built from.
v=$(cat "${PG_SOURCE_DIR:?}/VERSION")
grep -qx "perfguide  *$v" "$T/info" || fail "info's version is not VERSION's $v: $(grep '^perfguide' "$T/info")"
"$PG" --version | grep -qx "perfguide $v" || fail "--version is not VERSION's $v: $("$PG" --version)"
for b in $(sed -n 's/^backends  *//p' "$T/info"); do
	case $b in
	jansson|openssl|sqlite|liburing|libaio|alsa) ;;
	*) continue ;;
	esac
	grep -Eq "^lib $b  +([0-9][0-9a-z.]*|\(states no version\))( |,|$)" "$T/info" ||
		fail "info shows no version for $b: $(grep '^lib ' "$T/info")"
	case $b in
	openssl) dev=libssl-dev ;; sqlite) dev=libsqlite3-dev ;; alsa) dev=libasound2-dev ;; *) dev=$b-dev ;;
	esac
	if dpkg-query -W -f '${db:Status-Abbrev}' "$dev" 2>/dev/null | grep -q '^ii'; then
		grep -Eq "^lib $b .*, from $dev:[a-z0-9]+ [0-9]" "$T/info" || fail "info names no Debian package for $b"
	fi
done

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
b = m["build"]
for lib in b.get("backends", "").split():
    if lib in ("openssl", "sqlite", "jansson", "alsa"):
        assert re.fullmatch(r"\d+(\.\d+)+[a-z]*", b["libs"][lib]), (lib, b["libs"])
        assert b["libs_running"][lib], (lib, b["libs_running"])
if "sqlite" in b.get("backends", "").split():
    # the library python3 runs is the machine's, as a dynamic perfguide's is
    import sqlite3
    if b["libs_packages"].get("sqlite"):
        assert b["libs_running"]["sqlite"] == sqlite3.sqlite_version, (b["libs_running"], sqlite3.sqlite_version)
PY
echo "ok"
