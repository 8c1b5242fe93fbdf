#!/bin/sh
# SPDX-License-Identifier: MIT
# The guide fits the page: with the seed boards as the baseline's company
# and a measured board that has storage in two configurations (one of them
# five jobs wide), Ethernet by frame size and crypto with a backend the
# kernel lacks, neither the html guide nor its Sphinx page is wider than
# a 1400 px window (document.documentElement.scrollWidth, measured in
# headless Chromium), in whatever fonts the machine has: in its own
# choice, then in each installed font directory alone (a fresh Debian root
# has DejaVu alone, fontconfig's dependency; another machine Liberation,
# narrower; PG_WIDTH_FONTS adds directories). Storage is a table per medium and configuration,
# never named by its path; UDP rows go by frame size.
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without SQLite"
need_python
F="$PG_SOURCE_DIR/tests/fixtures"

# The measured board: the seed's am68_sk-fs figures as another board's
# (so that it has ratios to the baseline), and what a run of storage,
# Ethernet and crypto records.
python3 - "$F/seed-am68_sk-fs.jsonl" "$T/vm.jsonl" <<'PY'
import json, sys
src, out = sys.argv[1], sys.argv[2]
lines = [json.loads(l) for l in open(src)]
run = dict(lines[0], id="vm-1", board="vm", started="2026-12-01T00:00:00.000Z")
run["machine"] = {"board": "vm", "arch": "x86_64"}
recs = [run]
def res(bench, params, metric, unit, v, higher=True, note=None, status="ok", reason=None, busy=40.0):
    r = {"type": "result", "bench": bench, "params": params, "metric": metric, "unit": unit,
         "better": "higher" if higher else "lower", "status": status}
    if status == "ok":
        r.update(samples=[v * 0.95, v, v * 1.05], median=v, min=v * 0.95, max=v * 1.05, cv=0.02,
                 stop="ci", cpu={"busy_pct": busy})
    else:
        r["reason"] = reason
    if note:
        r["note"] = note
    return r
for l in lines[1:]:
    if l.get("type") == "result":
        l = dict(l, median=l["median"] * 1.1, min=l["min"] * 1.1, max=l["max"] * 1.1)
        l["samples"] = [l["median"]]
        if l["bench"].startswith("crypto."):
            # as a run records them: every parameter, the backend openssl
            l["params"] = dict(l["params"], backend="openssl", driver="auto", path="sendmsg", threads=1)
            if not l["bench"].startswith("crypto.sha"):
                l["params"]["op"] = "encrypt"
        recs.append(l)
note = "medium=virtio; device=vda; fs=ext4; sync=no; rotational=no; engine=%s; depth=%d; size=%s; options=rw,relatime"
base = {"direct": 1, "jobs": 1}
for bs in (4096,):
    for b in ("storage.write", "storage.read"):
        p = dict(base, bs=bs, depth=4, engine="auto", path=".", size=33554432, time=1, ramp=0)
        recs.append(res(b, p, "bandwidth", "MB/s", 150.0, note=note % ("io_uring", 4, "32m")))
for bs in (4096, 262144, 1048576, 4194304):
    for b in ("storage.write", "storage.read", "storage.randread", "storage.randwrite", "storage.randrw"):
        p = dict(base, bs=bs, depth=4, engine="psync", path="/srv/a-very-long-directory-name/on-the-disk",
                 size=1073741824, time=3, ramp=1)
        recs.append(res(b, p, "bandwidth", "MB/s", 70.0 + bs / 1e5, note=note % ("psync", 1, "1g")))
for size in (1472, 18, 978, 82, 210):
    p = {"peer": "local", "time": 2, "size": size, "loss": "0.5", "window": "auto", "dir": "out"}
    recs.append(res("net.udp.zeroloss", p, "ndr", "Mbit/s", size * 2.0))
    recs.append(res("net.udp.zeroloss", p, "ndr_kpps", "kpps", 150.0))
    p = {"peer": "local", "time": 3, "size": size, "rate": "max", "window": "auto", "dir": "out"}
    recs.append(res("net.udp.stream", p, "throughput", "Mbit/s", size * 3.0))
    recs.append(res("net.udp.stream", p, "kpps", "kpps", 200.0))
    recs.append(res("net.udp.stream", p, "loss", "%", 0.5, higher=False))
recs.append(res("net.tcp.bidir", {"peer": "local", "time": 3}, "throughput", "Mbit/s", 9000.0))
why = "the kernel has no AF_ALG: load af_alg and algif_skcipher"
for size in (16, 1024, 16384):
    p = {"backend": "kernel", "driver": "auto", "op": "encrypt", "path": "sendmsg", "size": size, "threads": 1}
    recs.append(res("crypto.aes-128-cbc", p, "throughput", "KBytes/Sec", 0, status="skipped", reason=why))
recs.append({"type": "end", "finished": "2026-12-01T00:10:00.000Z", "status": "complete"})
with open(out, "w") as f:
    for r in recs:
        f.write(json.dumps(r) + "\n")
PY
"$PG" report "$F"/seed-*.jsonl "$T/vm.jsonl" --baseline j721e-idk-gw -o "$T/guide.md" 2>/dev/null ||
	fail "report -o guide.md failed"
"$PG" report "$F"/seed-*.jsonl "$T/vm.jsonl" --baseline j721e-idk-gw -o "$T/guide.html" 2>/dev/null ||
	fail "report -o guide.html failed"
M="$T/guide.md"
# Storage: a table per medium and configuration, the path in no heading,
# column or chart; what tells the configurations apart said in words.
st=$(sed -n '/^## Storage/,/^## Crypto/p' "$M")
echo "$st" | grep -q '^### VIRTIO EXT4: io_uring, queue depth 4, a 32m file, 1 s per sample, ramp 0 s$' ||
	fail "no storage table for io_uring: $(echo "$st" | grep '^###')"
echo "$st" | grep -q '^### VIRTIO EXT4: psync, queue depth 1, a 1g file, 3 s per sample, ramp 1 s$' ||
	fail "no storage table for psync: $(echo "$st" | grep '^###')"
echo "$st" | grep -E '^(#|\||!)' | grep -q 'a-very-long-directory' && fail "the path in a heading, column or chart"
echo "$st" | grep -q 'path /srv/a-very-long-directory-name/on-the-disk (vm)' || fail "the path is not in the intro"
# Ethernet: the UDP tables by frame size, rows in order, frame and datagram.
et=$(sed -n '/^## Ethernet/,/^## Storage/p' "$M")
echo "$et" | grep -q '^| Frame size (bytes) | UDP datagram size (bytes) | vm: Throughput (Mbit/s) | vm: Packets per second (kpps) | vm: CPU load (system) % |' ||
	fail "no UDP table by frame size: $(echo "$et" | grep '^| Frame')"
[ "$(echo "$et" | awk '/^### UDP throughput at zero loss/ { on = 1; next } on && /^#/ { exit } on' | sed -n 's/^| \([0-9]*\) | \([0-9]*\) |.*/\1 \2/p' | tr '\n' ' ')" = \
	"64 18 128 82 256 210 1024 978 1518 1472 " ] || fail "UDP rows not by frame size: $(echo "$et" | grep '^| [0-9]')"
echo "$et" | grep -q 'ndr_kpps' && fail "a metric's id as a heading or axis"
# its charts: x is the frame size, as the rows read, named so
for f in $(echo "$et" | sed -n 's/^!\[.*\](\(guide-ethernet-[0-9]*\.svg\))$/\1/p'); do
	grep -q '>Frame size (bytes)' "$T/$f" || fail "$f: x is not the frame size"
	grep -q '>1518<' "$T/$f" && ! grep -q '>1472<' "$T/$f" || fail "$f: x ticks are not the rows' frames"
	grep -q 'ndr_kpps' "$T/$f" && fail "$f: a metric's id on a chart"
done
[ -n "$(echo "$et" | grep '^!\[.*guide-ethernet-')" ] || fail "no Ethernet chart"
# Crypto: the kernel backend the machine lacks is one line, no column.
cr=$(sed -n '/^## Crypto/,/^## Not/p' "$M")
echo "$cr" | grep -q '^- vm: backend=kernel throughput (KBytes/Sec): skipped: the kernel has no AF_ALG' ||
	fail "the skipped backend is not one line: $(echo "$cr" | grep -i 'kernel' | head -3)"
echo "$cr" | grep '^| Algorithm' | grep -q 'kernel' && fail "a column of skipped cells"
[ "$(echo "$cr" | grep -c '^- vm: backend=kernel')" -eq 1 ] || fail "the skipped backend's line under every part"
echo "$cr" | grep '^| Algorithm' | grep -q 'backend=openssl' && fail "backend=openssl told from a column that is gone"
# a chart per algorithm, the seed's rows and the measured board's on one
[ "$(echo "$cr" | grep -c '^!\[')" -eq 10 ] || fail "crypto's charts: $(echo "$cr" | grep '^!\[')"
echo "$cr" | grep '^!\[' | grep -q 'backend=' && fail "a chart of the measured board apart"
echo "$cr" | grep -q '^| aes-128-cbc | 16384 |' || fail "crypto sizes not in bytes"
# The summary: no section without a ratio.
grep -q '(0 rows) |.*(0 rows) |.*(0 rows) |.*(0 rows) |.*(0 rows) |.*(0 rows) |.*(0 rows) |$' "$M" &&
	fail "a summary row with no ratio at all"

B=""
for c in chromium chromium-browser google-chrome; do
	command -v $c >/dev/null 2>&1 && B=$c && break
done
[ -n "$B" ] || skip "no headless Chromium (apt-get install chromium) to measure the page"
# width PAGE [FONTDIR]: the page's scrollWidth in a 1400 px window (a copy
# of it, beside its files, with a script that writes it into the DOM),
# laid out in the fonts of FONTDIR alone (a fonts.conf of it) if given.
width() {
	cp "$1" "$(dirname "$1")/measure.html"
	echo "<script>addEventListener('load',function(){document.documentElement.setAttribute('data-w',document.documentElement.scrollWidth)})</script>" >>"$(dirname "$1")/measure.html"
	fc=""
	if [ -n "${2:-}" ]; then
		fc="$T/fonts-$(echo "$2" | tr -c 'a-zA-Z0-9\n' _).conf"
		printf '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><dir>%s</dir><cachedir>%s</cachedir><include ignore_missing="yes">/etc/fonts/conf.d</include></fontconfig>\n' \
			"$2" "$T/fc-cache" >"$fc"
	fi
	${fc:+env FONTCONFIG_FILE="$fc"} timeout 120 "$B" --headless --no-sandbox --disable-gpu --disable-quic \
		--disable-background-networking --disable-component-update --disable-sync --no-first-run \
		--user-data-dir="$T/chrome" --window-size=1400,1000 --virtual-time-budget=3000 \
		--dump-dom "file://$(dirname "$1")/measure.html" 2>"$T/chrome.err" | sed -n 's/.*data-w="\([0-9]*\)".*/\1/p' | head -n 1
}
echo '<!doctype html><title>probe</title><p>probe' >"$T/probe.html"
[ -n "$(width "$T/probe.html")" ] ||
	skip "$B cannot render even an empty page here: $(grep -v '^$' "$T/chrome.err" | tail -n 1 | cut -c1-200)"
# The font sets: the machine's choice (""), each font directory alone.
fonts=""
for d in /usr/share/fonts/truetype/* /usr/share/fonts/opentype/* ${PG_WIDTH_FONTS:-}; do
	[ -d "$d" ] && [ -n "$(find "$d" -name '*.[ot]tf' | head -n 1)" ] && fonts="$fonts $d"
done
# fits WHAT PAGE: PAGE is at most 1400 px wide in every font set.
fits() {
	for f in "" $fonts; do
		w=$(width "$2" "$f")
		[ -n "$w" ] && [ "$w" -le 1400 ] ||
			fail "the $1 is ${w:-?} px wide in a 1400 px window (fonts: ${f:-the machine's})"
	done
}
fits "html guide" "$T/guide.html"

command -v sphinx-build >/dev/null 2>&1 || skip "no sphinx-build (apt-get install python3-sphinx) for the Sphinx page"
mkdir "$T/doc"
"$PG" report "$F"/seed-*.jsonl "$T/vm.jsonl" --baseline j721e-idk-gw -o "$T/doc/guide.rst" 2>/dev/null || fail "report rst"
printf 'project = "guide"\nextensions = []\nexclude_patterns = ["_build"]\n' >"$T/doc/conf.py"
printf 'Guides\n======\n\n.. toctree::\n\n   guide\n' >"$T/doc/index.rst"
sphinx-build -W -q -b html "$T/doc" "$T/doc/_build" >"$T/sphinx.out" 2>&1 || fail "sphinx-build -W: $(tail -5 "$T/sphinx.out")"
fits "Sphinx page" "$T/doc/_build/guide.html"
echo ok
