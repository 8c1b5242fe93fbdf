# SPDX-License-Identifier: MIT
# What `cmake --install` (and so the Debian package) puts in place for a
# user: the user documents only (README, install, methodology, report,
# security; not the developers' architecture and testing pages), every
# relative link among them resolving where they are installed, and the
# LAVA test definition working from the installed files in a job directory
# that is no perfguide checkout.
. "$(dirname "$0")/lib.sh"
: "${PG_SOURCE_DIR:?}"
CMAKE=${CMAKE_COMMAND:-cmake}
need_python
build=$(dirname "$PG")
[ -f "$build/cmake_install.cmake" ] || skip "$build is not a CMake build directory"
DESTDIR="$T/root" "$CMAKE" --install "$build" --prefix /usr >"$T/install.log" 2>&1 ||
	fail "cmake --install failed: $(tail -n 5 "$T/install.log")"
r=$T/root/usr
d=$r/share/doc/perfguide
for f in README.md docs/install.md docs/methodology.md docs/methodology-cpu.md docs/report.md docs/security.md \
	lava/README.md; do
	[ -f "$d/$f" ] || fail "$f is not installed in share/doc/perfguide"
done
for f in architecture.md testing.md testing-vm.md; do
	[ ! -e "$d/docs/$f" ] || fail "the developers' $f is installed"
done
# Every relative link of every installed document, resolved where it is.
python3 - "$d" <<'PY' || fail "links that do not resolve where the documents are installed"
import os, re, sys
root = sys.argv[1]
bad = []
for dirpath, _, files in os.walk(root):
    for name in files:
        if not name.endswith(".md"):
            continue
        path = os.path.join(dirpath, name)
        text = re.sub(r"```.*?```", "", open(path, encoding="utf-8").read(), flags=re.S)
        text = re.sub(r"`[^`\n]*`", "", text)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            file = target.split("#", 1)[0]
            if not os.path.exists(os.path.normpath(os.path.join(dirpath, file))):
                bad.append("%s: %s" % (os.path.relpath(path, root), target))
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

need_json
# The installed LAVA definition's run steps, as LAVA runs them, in a job
# directory holding no perfguide checkout, the installed perfguide on PATH.
y=$r/share/perfguide/lava/perfguide.yaml
mkdir "$T/job"
{
	echo "SUITE=quick BENCHMARKS=mem.bw.rd PEER= BOARD=lava-board RELEASE= PERFGUIDE=perfguide"
	echo "EXTRA='-p size=64k --runs 2 --min-time 0.01' ARTIFACTORIAL_URL= ARTIFACTORIAL_TOKEN="
	sed -n '/^  steps:/,$ s/^    - //p' "$y"
} >"$T/job.sh"
(cd "$T/job" && PATH="$r/bin:$PATH" sh "$T/job.sh") >"$T/job.log" 2>&1 ||
	fail "the installed definition's steps failed: $(tail -n 5 "$T/job.log")"
grep -q '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=perfguide-run RESULT=pass>' "$T/job.log" ||
	fail "no passing perfguide-run case: $(tail -n 5 "$T/job.log")"
grep -q '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=mem.bw.rd' "$T/job.log" || fail "no mem.bw.rd case: $(tail -n 5 "$T/job.log")"
echo ok
