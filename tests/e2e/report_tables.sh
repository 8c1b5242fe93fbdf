#!/bin/sh
# SPDX-License-Identifier: MIT
# The seed guide's published tables imported as they ship (import --table,
# with the map files in maps/): each row onto perfguide's benchmark where
# its label is perfguide's own (linpack's "linpack (Kflops)" onto the
# default parameter set of the four the suites label so), a line per row
# that maps onto none saying why, a table whose row names repeat refused;
# a section is one section whatever its case; and every fixture rendered,
# no two html ids and no two charts' files alike.
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without SQLite"
need_python
F="$PG_SOURCE_DIR/tests/fixtures"
M="$PG_SOURCE_DIR/maps"
DB="$T/t.db"

imp() {
	"$PG" import --db "$DB" --table "$@" --release 09.02 --date 2024-06-01 >"$T/imp.out" 2>"$T/imp.err" ||
		fail "import --table $*: $(cat "$T/imp.err")"
}
said() {
	grep -qF "$1" "$T/imp.err" || fail "import said: $(cat "$T/imp.err")"
}

imp "$F/seed-linpack.csv"
said "seed-linpack.csv: 1 row onto perfguide's benchmarks, 0 rows of its own, 7 boards"
imp "$F/seed-lmbench.csv" --map "$M/lmbench.csv"
said "seed-lmbench.csv: 102 rows onto perfguide's benchmarks, 13 rows of its own, 7 boards"
said "seed-lmbench.csv: line 109: 'pipe_latency (microsec)' is a row of its own: no benchmark's result is labelled so (a --map line names one)"
[ "$(grep -c "is a row of its own: " "$T/imp.err")" -eq 13 ] || fail "a line per unmapped row: $(cat "$T/imp.err")"
imp "$F/seed-multibench.csv" --map "$M/multibench.csv"
said "seed-multibench.csv: 28 rows onto perfguide's benchmarks, 0 rows of its own, 7 boards"
imp "$F/seed-openssl.csv" --keys 2
said "seed-openssl.csv: 60 rows onto perfguide's benchmarks, 0 rows of its own, 6 boards"
imp "$F/seed-openssl-cpu.csv" --map "$M/openssl-cpu.csv"
said "seed-openssl-cpu.csv: 10 rows onto perfguide's benchmarks, 0 rows of its own, 6 boards"
for t in dhrystone whetstone nbench stream coremarkpro; do
	imp "$F/seed-$t.csv"
	said "0 rows of its own"
done

# A row whose name another row's took: its own row, and why.
printf 'benchmark,b1\nlat_pipe,5.0\nlat_pipe (us),6.0\n' >"$T/twice.csv"
imp "$T/twice.csv"
said "twice.csv: line 3: 'lat_pipe (us)' is a row of its own: the row of line 2 maps onto os.pipe.lat"
# Row names that repeat: the table's names are more columns (refused).
expect_usage_error "repeated row names" import --db "$DB" --table "$F/seed-openssl.csv"
grep -q "seed-openssl.csv: line 3: 'aes-128-cbc' names line 2's row too: are rows named by 2 columns (--keys 2)?" \
	"$T/err" || fail "repeated row names: $(cat "$T/err")"

# A section is one section whatever its case; two titles of one anchor
# get two anchors and two sets of charts' files.
printf 'benchmark,am68_sk-fs,am69_sk-fs\nmy flops (Kflops),1.0,2.0\n' >"$T/lower.csv"
imp "$T/lower.csv" --section linpack
printf 'benchmark,am68_sk-fs,am69_sk-fs\nx (MB/s),1.0,2.0\ny (MB/s),3.0,1.0\n' >"$T/a.csv"
imp "$T/a.csv" --section "Seed extra"
printf 'benchmark,am68_sk-fs,am69_sk-fs\nz (MB/s),4.0,5.0\n' >"$T/b.csv"
imp "$T/b.csv" --section "Seed: extra"

mkdir "$T/md" "$T/rst"
"$PG" report --db "$DB" -o "$T/guide.html" 2>/dev/null || fail "report html"
"$PG" report --db "$DB" -o "$T/md/guide.md" 2>/dev/null || fail "report md"
"$PG" report --db "$DB" -o "$T/rst/guide.rst" 2>/dev/null || fail "report rst"
"$PG" report "$F"/seed-*.jsonl -o "$T/md/seed.md" 2>/dev/null || fail "report of the fixtures, md"
"$PG" report "$F"/seed-*.jsonl --baseline j721e-idk-gw -o "$T/rst/seed.rst" 2>/dev/null || fail "report rst"
"$PG" report "$F"/seed-*.jsonl --baseline j721e-idk-gw -o "$T/seed.html" 2>/dev/null || fail "report html"

python3 - "$T" <<'PY' || fail "the imported tables' guide"
import collections, glob, os, re, sys
t = sys.argv[1]
md = open(t + "/md/guide.md").read()
heads = re.findall(r"^## (.*)$", md, re.M)
assert heads.count("Linpack") == 1 and "linpack" not in heads, heads
assert heads.index("LMBench") < heads.index("Linpack") < heads.index("NBench"), heads
for want in ("Crypto", "MultiBench", "Dhrystone", "Seed extra", "Seed: extra"):
    assert want in heads, (want, heads)
# linpack's row is cpu.linpack's, in the Linpack section, with the row the --section table added
lin = md.split("## Linpack")[1].split("\n## ")[0]
assert "| linpack (KFLOPS) | 2496970.00 |" in lin, lin
assert "my flops" in lin, lin
# the imported boards: one line for their source, not a list of runs
runs = [l for l in md.splitlines() if l.startswith("| Runs |")]
assert runs and "| published tables: " in runs[0] and "seed-linpack.csv" in runs[0], runs
assert "seed-lmbench.csv" in runs[0] and "seed-openssl-cpu.csv" in runs[0], runs
assert "table-seed" not in runs[0], runs
# the openssl CPU table's figures are crypto's "CPU (process)", a figure per
# algorithm: a table of their own, as the seed's (bytes as the seed prints them)
crypto = md.split("## Crypto")[1].split("\n## ")[0]
assert "| aes-128-cbc | 16384 | 186957.82 |" in crypto, crypto[:900]
assert "| aes-128-cbc | 32.00 |" in crypto, crypto[-1500:]

def unique_ids(path):
    ids = re.findall(r' id="([^"]*)"', open(path).read())
    dup = [i for i, n in collections.Counter(ids).items() if n > 1]
    assert not dup, (path, dup)
    return ids

for h in ("/guide.html", "/seed.html"):
    ids = unique_ids(t + h)
    assert ids, h
    page = open(t + h).read()
    for a in re.findall(r'href="#([^"]*)"', page):
        assert a in ids, (h, a)
ids = unique_ids(t + "/guide.html")
assert "seed-extra" in ids and "seed-extra-1" in ids and "linpack" in ids, ids

# every chart a guide refers to is a file of its own, written once
for d, ref in (("md", r"!\[[^\]]*\]\(([^)]+\.svg)\)"), ("rst", r"^\.\. image:: (\S+\.svg)")):
    for guide in glob.glob(t + "/%s/*.%s" % (d, d)):
        files = re.findall(ref, open(guide).read(), re.M)
        assert files, guide
        dup = [f for f, n in collections.Counter(files).items() if n > 1]
        assert not dup, (guide, dup)
        for f in files:
            assert os.path.getsize(os.path.join(t, d, f)) > 0, f
    on_disk = [os.path.basename(p) for p in glob.glob(t + "/%s/*.svg" % d)]
    referred = []
    for guide in glob.glob(t + "/%s/*.%s" % (d, d)):
        referred += re.findall(ref, open(guide).read(), re.M)
    assert sorted(on_disk) == sorted(referred), (d, sorted(set(on_disk) ^ set(referred)))
md_files = re.findall(r"\]\((guide-[^)]+\.svg)\)", md)
assert any(f.startswith("guide-seed-extra-1-") for f in md_files), md_files
assert any(f.startswith("guide-seed-extra-") and not f.startswith("guide-seed-extra-1-") for f in md_files), md_files
PY
echo ok
