#!/bin/sh
# SPDX-License-Identifier: MIT
# A results file that gives every result a section of its own (issue 40,
# defect 6: per-section work passed over all the rows and every anchor so
# far, quadratic in sections: 100,000 took 52 s), 5,000 sections of one
# board from report_scale_gen.py --own-sections 1: in every format every
# section is there once with its row, in the file's order, and in md and
# html the anchors are unique, every link of the contents has its heading,
# and titles whose anchors collide are numbered as GitHub numbers them
# (a second "scale-000048" is "scale-000048-1"; "Scale 000048 1" then
# "scale-000048-1-1"; a title of no word "-1"). No timing here:
# bench/report-scale.sh --own-sections 1 times it.
. "$(dirname "$0")/lib.sh"
need_python
need_json
G="$(dirname "$0")/report_scale_gen.py"
N=5000
rows=$(python3 "$G" "$T/s.jsonl" --records $N --boards 1 --runs 1 --own-sections 1 | sed -n 's/^rows //p')
[ "$rows" -eq $((N - 2)) ] || fail "the generator says $rows rows, expected $((N - 2))"
# the sections' titles in the file's order (the guide's: they declare no order)
python3 - "$T/s.jsonl" >"$T/titles" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["type"] == "result":
        print(r["section"])
PY
[ "$(sort -fu "$T/titles" | wc -l)" -eq "$rows" ] || fail "the generator's titles are not one per section"

for f in csv json md html rst; do
	"$PG" report "$T/s.jsonl" --format $f -o "$T/g.$f" 2>"$T/err" || fail "report $f: $(cat "$T/err")"
done

python3 - "$T" <<'PY' || fail "see above"
import csv, html.parser, json, re, sys
from pgcheck import check

T = sys.argv[1]
titles = open(T + "/titles").read().split("\n")[:-1]
n = len(titles)

rows = list(csv.reader(open(T + "/g.csv")))[1:]
check([r[0] for r in rows] == titles, "csv: the rows' sections are not one per title in order")

g = json.load(open(T + "/g.json"))
check([s["title"] for s in g["sections"]] == titles, "json: the sections are not the titles in order")
check(all(len(s["rows"]) == 1 for s in g["sections"]), "json: a section without its one row")


def unique_links(fmt, toc, ids):
    """The contents link every section once, each to a heading of its own."""
    check(len(ids) == len(set(ids)), "%s: %d anchors given twice" % (fmt, len(ids) - len(set(ids))))
    got = {t: a for t, a in toc}
    check(len(got) == len(toc), "%s: a title twice in the contents" % fmt)
    check(all(t in got for t in titles), "%s: %d sections not in the contents"
          % (fmt, sum(t not in got for t in titles)))
    have = set(ids)
    check(all(a in have for _, a in toc), "%s: a link of the contents to no heading" % fmt)
    for t, a in (("Scale 000048", "scale-000048"), ("scale-000048", "scale-000048-1"),
                 ("Scale 000048 1", "scale-000048-1-1"), (".", "-1"), ("..", "-2"),
                 ("storage-004988", "storage-004988-1")):
        check(got.get(t) == a, "%s: %s's anchor is %s, expected %s" % (fmt, t, got.get(t), a))


md = open(T + "/g.md").read()
toc = re.findall(r"^- \[(.*)\]\(#([^)]*)\)$", md, re.M)
heads = re.findall(r"^## (.*)$", md, re.M)
check(heads[1:n + 1] == titles, "md: the sections' headings are not the titles in order")
unique_links("md", toc, [a for _, a in toc])


class Html(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.toc, self.h2, self.href, self.text = [], [], [], None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and a.get("href", "").startswith("#"):
            self.href, self.text = a["href"][1:], ""
        if tag == "h2":
            self.text = ""

    def handle_data(self, data):
        if self.text is not None:
            self.text += data

    def handle_endtag(self, tag):
        if tag == "a" and self.href is not None:
            self.toc.append((self.text, self.href))
            self.href = self.text = None
        if tag == "h2":
            self.h2.append(self.text)
            self.text = None


h = Html()
h.feed(open(T + "/g.html").read())
check(h.h2[1:n + 1] == titles, "html: the sections' headings are not the titles in order")
unique_links("html", h.toc, h.ids)

rst = open(T + "/g.rst").read()
heads = re.findall(r"^(.*)\n=+$", rst, re.M)
check([t.replace("\\", "") for t in heads[1:n + 1]] == titles,
      "rst: the sections' headings are not the titles in order")
PY
echo "ok: $rows sections in every format, anchors unique"
