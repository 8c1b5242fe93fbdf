#!/bin/sh
# SPDX-License-Identifier: MIT
# Storage as a vendor publishes it unedited (issue 38, items 3 and 10):
# beside the seed boards as the baseline, a board's storage in two
# configurations on one virtio disk is a table per configuration whose
# rows are buffer sizes as TI's fio tables print them (4k, 256k);
# columns are per board and measure ("vm: Write (MB/s)"), not the medium
# that names the table again; the settings line says what differs in words
# and never the path (a note under the table says where it ran); the disk's
# rotational flag is in words; Sphinx's caption does not repeat the heading.
. "$(dirname "$0")/lib.sh"
need_python
F="$PG_SOURCE_DIR/tests/fixtures"

python3 - "$F/seed-am68_sk-fs.jsonl" "$T/vm.jsonl" <<'PY'
import json, sys
src, out = sys.argv[1], sys.argv[2]
run = dict(json.loads(open(src).readline()), id="vm-1", board="vm", started="2026-12-01T00:00:00.000Z")
run["machine"] = {"board": "vm", "arch": "x86_64"}
recs = [run]
note = ("medium=virtio; device=vda; fs=ext4; sync=no; rotational=yes; engine=%s; depth=%d; size=32m; "
        "options=rw,relatime")
for engine, depth, path in (("io_uring", 4, "."), ("psync", 1, "/srv/a-long-directory/on-the-disk")):
    for bs in (4096, 262144):
        for b in ("storage.write", "storage.read"):
            v = 100.0 + bs / 1e4
            p = {"bs": bs, "depth": 4, "direct": 1, "engine": "auto" if engine == "io_uring" else engine,
                 "jobs": 1, "path": path, "ramp": 0, "size": 33554432, "time": 1}
            recs.append({"type": "result", "bench": b, "params": p, "metric": "bandwidth", "unit": "MB/s",
                         "better": "higher", "status": "ok", "samples": [v, v, v], "median": v, "min": v,
                         "max": v, "cv": 0.0, "stop": "ci", "cpu": {"busy_pct": 20.0},
                         "label": "VIRTIO EXT4 " + ("Write" if b.endswith("write") else "Read"),
                         "note": note % (engine, depth)})
recs.append({"type": "end", "finished": "2026-12-01T00:10:00.000Z", "status": "complete"})
with open(out, "w") as f:
    for r in recs:
        f.write(json.dumps(r) + "\n")
PY
mkdir "$T/doc"
for f in guide.md doc/guide.rst guide.html; do
	"$PG" report "$F"/seed-*.jsonl "$T/vm.jsonl" --baseline j721e-idk-gw -o "$T/$f" 2>"$T/err" ||
		fail "report -o $f: $(cat "$T/err")"
done

st=$(sed -n '/^## Storage/,/^## Crypto/p' "$T/guide.md")
echo "$st" | grep -q '^### VIRTIO EXT4: io_uring, queue depth 4$' ||
	fail "no io_uring table: $(echo "$st" | grep '^###')"
echo "$st" | grep -q '^### VIRTIO EXT4: psync, queue depth 1$' || fail "no psync table: $(echo "$st" | grep '^###')"
# 1. sizes as the seed prints them under "Buffer size (bytes)": 4k, 1m
[ "$(echo "$st" | sed -n 's/^| \([0-9a-z]*\) | .*/\1/p' | tr '\n' ' ')" = "4k 256k 4k 256k " ] ||
	fail "buffer sizes not as the seed prints them: $(echo "$st" | grep '^| [0-9]')"
# 2. columns per board and measure; the medium only in the table's name
[ "$(echo "$st" | grep -c '^| Buffer size (bytes) | vm: Write (MB/s) | vm: Write CPU load (system) % | vm: Read (MB/s) | vm: Read CPU load (system) % |$')" -eq 2 ] ||
	fail "storage columns: $(echo "$st" | grep '^| Buffer')"
echo "$st" | grep '^| Buffer' | grep -q 'VIRTIO' && fail "the medium in a column heading"
grep -o '<th[^>]*>[^<]*VIRTIO EXT4 [WR][^<]*' "$T/guide.html" && fail "the medium in an html column heading"
# 3. the settings in words, no path; the path in a note under the table
set=$(echo "$st" | grep '^Settings: ')
[ "$(echo "$set" | wc -l)" -eq 2 ] || fail "settings lines: $set"
echo "$set" | grep -q 'path' && fail "the path in a settings line: $set"
echo "$st" | grep -E '^(#|\||!|Settings)' | grep -q 'a-long-directory' && fail "the path in a heading, column or chart"
echo "$st" | grep -q '^- .*Where it ran: path /srv/a-long-directory/on-the-disk (vm)\.' ||
	fail "the path is not in a note: $(echo "$st" | grep '^- ')"
echo "$st" | grep -q '^- .*Where it ran: path \. (vm)\.' || fail "the io_uring table's path is not in a note"
# 4. the rotational flag in words, never a bare word between commas
echo "$set" | grep -q ', rotational,' && fail "a bare 'rotational': $set"
echo "$set" | grep -q 'a spinning disk (rotational)' || fail "the rotational flag not in words: $set"
# the caption of a table under its own heading does not repeat it
grep -q '^\.\. csv-table:: VIRTIO EXT4' "$T/doc/guide.rst" && fail "the rst caption repeats the heading"
grep -q '^\.\. csv-table::$' "$T/doc/guide.rst" || fail "no storage csv-table in rst"
if command -v sphinx-build >/dev/null 2>&1; then
	printf 'project = "guide"\nextensions = []\nexclude_patterns = ["_build"]\n' >"$T/doc/conf.py"
	printf 'Guides\n======\n\n.. toctree::\n\n   guide\n' >"$T/doc/index.rst"
	sphinx-build -W -q -b html "$T/doc" "$T/doc/_build" >"$T/sphinx.out" 2>&1 ||
		fail "sphinx-build -W: $(tail -5 "$T/sphinx.out")"
fi
echo ok
