#!/bin/sh
# SPDX-License-Identifier: MIT
# report --format html: one self-contained file that headless Chromium
# renders with its charts drawn (non-empty SVG paths) and no console errors.
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without SQLite"
F="$PG_SOURCE_DIR/tests/fixtures"
"$PG" report "$F"/seed-*.jsonl --format html -o "$T/guide.html" 2>/dev/null || fail "report --format html failed"
H="$T/guide.html"
# Self-contained: no scripts, nothing fetched.
grep -qi '<script' "$H" && fail "the page has a script"
grep -Ei '(src|href)=' "$H" | grep -Ev 'href="#[a-z0-9_-]+"' && fail "the page refers to something outside it"
# The bw_mem sizes make a line per board; the other rows bar charts.
[ "$(grep -c '<svg' "$H")" -gt 10 ] || fail "too few charts"
grep -q '<title>bw_mem-fcp</title>' "$H" || fail "no line chart for the bw_mem fcp sweep, titled by its rows"
grep -q '(log scale); higher is better' "$H" || fail "a sweep by powers of two is not on a log scale, or says no direction"
grep -q 'from 0; lower is better' "$H" || fail "a bar chart says no direction"
# A table of contents links the sections; the crypto table is the seed's shape.
grep -q '<li><a href="#crypto">Crypto</a></li>' "$H" || fail "no table of contents"
grep -q '<h2 id="crypto">Crypto</h2>' "$H" || fail "no anchor on a section"
grep -q '<th>Algorithm</th><th>Buffer Size (in bytes)</th>' "$H" || fail "the crypto table is not the seed's shape"

B=""
for c in chromium chromium-browser google-chrome; do
	command -v $c >/dev/null 2>&1 && B=$c && break
done
[ -n "$B" ] || skip "$(deps_why chromium || echo "no headless Chromium (apt-get install chromium) to render the page")"
chrome() {
	timeout 120 "$B" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --no-first-run --user-data-dir="$T/chrome" \
		--enable-logging=stderr --v=0 "$@"
}
# Chromium that cannot start here at all (a chroot without /dev/shm, a
# container) is a machine that lacks it, not a broken page.
echo '<!doctype html><title>probe</title><p>probe' >"$T/probe.html"
chrome --dump-dom "file://$T/probe.html" >"$T/probe.out" 2>"$T/probe.err" && grep -q probe "$T/probe.out" ||
	skip "$B cannot render even an empty page here: $(grep -v '^$' "$T/probe.err" | tail -n 1 | cut -c1-200)"
chrome --window-size=1400,2000 --screenshot="$T/shot.png" "file://$H" >"$T/shot.out" 2>"$T/shot.err" ||
	fail "chromium could not render the page: $(tail -3 "$T/shot.err")"
[ -s "$T/shot.png" ] || fail "no screenshot"
[ "$(head -c 4 "$T/shot.png" | od -An -c | tr -d ' ')" = "211PNG" ] || fail "the screenshot is not a PNG"
chrome --dump-dom "file://$H" >"$T/dom.html" 2>"$T/dom.err" || fail "chromium --dump-dom failed"
grep -qi 'CONSOLE' "$T/shot.err" "$T/dom.err" && fail "console messages: $(grep -i console "$T/dom.err" | head -3)"
# The DOM Chromium built has the charts, with drawn lines (M x y L x y).
[ "$(grep -c '<svg' "$T/dom.html")" -eq "$(grep -c '<svg' "$H")" ] || fail "charts lost in the DOM"
grep -Eq '<path fill="none" stroke-width="2" stroke="#[0-9a-f]{6}" d="M[0-9.]+ [0-9.]+ L[0-9.]+ [0-9.]+' "$T/dom.html" ||
	fail "no drawn line in the rendered page"
grep -q '<path d="M[0-9]* [0-9]* h[0-9.]*[1-9]' "$T/dom.html" || fail "no drawn bar in the rendered page"

# With a baseline: the summary and its chart, ratios in the tables, rendered clean.
"$PG" report "$F"/seed-*.jsonl --baseline j721e-idk-gw --format html -o "$T/base.html" 2>/dev/null ||
	fail "report --baseline --format html failed"
chrome --dump-dom "file://$T/base.html" >"$T/base.dom" 2>"$T/base.err" || fail "chromium --dump-dom (baseline) failed"
grep -qi 'CONSOLE' "$T/base.err" && fail "console messages (baseline): $(grep -i console "$T/base.err" | head -3)"
grep -q '<h2 id="against-j721e-idk-gw">Against j721e-idk-gw</h2>' "$T/base.dom" || fail "no summary against the baseline"
grep -q 'stroke-dasharray="4 3"' "$T/base.dom" || fail "the ratio chart has no line at 1"
grep -q '<td class="v ratio same">' "$T/base.dom" || fail "no greyed ratio where the boards overlap"

# One board: no one-bar charts, the sweeps' curves stay.
"$PG" report "$F/seed-am68_sk-fs.jsonl" --format html -o "$T/one.html" 2>/dev/null || fail "report of one board failed"
grep -q '<svg [^>]*width="420"' "$T/one.html" && fail "a one-bar chart for a single board"
grep -q '<svg [^>]*width="420"' "$T/guide.html" || fail "no bar charts for seven boards"
grep -q '<title>bw_mem-fcp</title>' "$T/one.html" || fail "a single board lost its line charts"
# One board's crypto figures: a plot of every algorithm, a line each.
grep -q '<title>Crypto: throughput</title>' "$T/one.html" || fail "no plot of the algorithms of one board"
grep -q '>aes-128-cbc</text>' "$T/one.html" || fail "the crypto plot's legend names no algorithm"
echo ok
