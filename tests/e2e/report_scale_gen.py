#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A large results file for timing and checking `perfguide report`.

report_scale_gen.py OUT.jsonl [--records N] [--boards B] [--runs R] [--own-sections 0|1]

Writes N records (run and end records counted; at most 100000, the
reader's limit in docs/security.md) as B boards x R runs each. A board's
runs hold the same result keys (the guide's column merges them); board b
holds keys b*K/2 to b*K/2+K-1 of one endless list (K: results per run),
so each board shares half its rows with the next and the guide has about
(B+1)*K/2 rows, one column per board. The keys mix the guide's layouts: plain
rows of synthetic benchmarks (parameters that vary between their rows and
parameters every row shares, labels several rows carry), the Crypto
section's pivot (algorithm x buffer size) and the Storage section's pivot
with its place parameter (path). A result's figures follow from its key,
its board and its run (value() below), so a test can say what a cell
holds. With --own-sections 1, every result key is a section of its own
(issue 40: per-section work that passes over all rows is quadratic then),
titled "<section> <key>", with titles whose anchors collide, which the
guide must number apart: every tenth key's title is the one before's in
lower case with a dash ("scale-000018" after "Scale 000018": a second
"scale-000018", numbered "scale-000018-1"), every hundredth's the number
that gives ("Scale 000048 1": "scale-000048-1" is taken), and every
thousandth's has no word at all ("...": its anchor "" numbered "-1", "-2"). Prints "rows R" (the guide's rows:
distinct keys) on stdout.
"""
import json
import sys

CRYPTO = ["aes-128-cbc", "aes-192-cbc", "aes-256-cbc", "aes-128-ecb", "aes-192-ecb",
          "aes-256-ecb", "des3", "sha1", "sha256", "sha512"]


def keys():
    """Result keys (bench, params, metric, unit, better, section, label), endlessly."""
    i = 0
    while True:
        kind = i % 4
        if kind in (0, 1):
            # a synthetic benchmark: size and threads vary between its rows,
            # the other parameters are the same in all of them
            n = i // 4 * 2 + kind
            bench = "scale.b%04d" % n
            label = "scale b%04d" % n if n % 4 == 1 else None
            for size in range(8):
                for threads in (1, 2):
                    for metric, unit, better in (("bandwidth", "MB/s", "higher"), ("latency", "us", "lower")):
                        yield (bench, {"align": 64, "copies": 1, "huge": 0, "mode": "rw", "pattern": "seq",
                                       "size": 4096 << size, "stride": 64, "threads": threads, "warmup": 1},
                               metric, unit, better, "Scale", label)
        elif kind == 2:
            # an algorithm at 32 buffer sizes of its own block
            alg = CRYPTO[(i // 4) % len(CRYPTO)]
            base = 16 * (1 + (i // 4) * 32)
            for j in range(32):
                yield ("crypto." + alg, {"size": base + 16 * j}, "throughput", "KBytes/Sec", "higher",
                       "Crypto", None)
        else:
            # storage: a block of buffer sizes on one path and depth
            depth = 1 + (i // 4) % 8
            base = 512 * (1 + (i // 4) * 16)
            for j in range(16):
                for bench in ("storage.write", "storage.read"):
                    yield (bench, {"bs": base + 512 * j, "depth": depth, "direct": 1, "engine": "psync",
                                   "path": "/mnt/sd", "size": 67108864, "time": 2},
                           "bandwidth", "MB/s", "higher", "Storage", None)
        i += 1


def value(k, board, run):
    """The median of result key number k on a board in a run: distinct per key."""
    return round(1000.0 + k * 0.5 + board * 100.0 + run * 10.0, 2)


def section_titles(ks):
    """Each key's own section: "Scale 000017", or a title whose anchor another's takes (see above)."""
    titles = []
    for k, key in enumerate(ks):
        if k % 1000 == 999:
            titles.append("." * (1 + k // 1000))
        elif k % 100 == 99:
            titles.append(titles[k - 51] + " 1")
        elif k % 10 == 9:
            titles.append(titles[k - 1].lower().replace(" ", "-"))
        else:
            titles.append("%s %06d" % (key[5], k))
    return titles


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)
    out = args.pop(0)
    opts = {"--records": 100000, "--boards": 4, "--runs": 2, "--own-sections": 0}
    while args:
        name = args.pop(0)
        if name not in opts or not args:
            sys.exit(__doc__)
        opts[name] = int(args.pop(0))
    n, boards, runs = opts["--records"], opts["--boards"], opts["--runs"]
    if not 0 < n <= 100000 or boards < 1 or runs < 1:
        sys.exit("report_scale_gen.py: 1 to 100000 records, at least one board and run")
    per_run = n // (boards * runs) - 2
    if per_run < 1:
        sys.exit("report_scale_gen.py: too few records for %d runs" % (boards * runs))
    step = max(per_run // 2, 1)
    gen = keys()
    ks = [next(gen) for _ in range(step * (boards - 1) + per_run)]
    titles = section_titles(ks) if opts["--own-sections"] else None
    with open(out, "w") as f:
        for b in range(boards):
            board = "board-%02d" % b
            for r in range(runs):
                f.write(json.dumps({"type": "run", "schema": "perfguide/1", "id": "%s-r%d" % (board, r),
                                    "board": board, "started": "2026-01-01T00:%02d:%02dZ" % (r, b % 60),
                                    "machine": {"board": board, "arch": "aarch64", "cpus_online": 4},
                                    "build": {"version": "scale"}, "config": {},
                                    "sections": [{"title": "Scale", "intro": "Synthetic rows.", "order": 5}]},
                                   separators=(",", ":")) + "\n")
                for k in range(b * step, b * step + per_run):
                    bench, params, metric, unit, better, section, label = ks[k]
                    v = value(k, b, r)
                    rec = {"type": "result", "bench": bench, "params": params, "metric": metric, "unit": unit,
                           "better": better, "samples": [v - 1, v, v + 1], "median": v, "min": v - 1,
                           "max": v + 1, "mean": v, "stddev": 1.0, "cv": round(1.0 / v, 6), "noisy": False,
                           "cpu": {"busy_pct": 50.0, "self_pct": 25.0}, "status": "ok", "section": section}
                    if label:
                        rec["label"] = label
                    if opts["--own-sections"]:
                        rec["section"] = titles[k]
                    f.write(json.dumps(rec, separators=(",", ":")) + "\n")
                f.write('{"type":"end","finished":"2026-01-01T01:00:00Z","status":"complete"}\n')
    print("rows %d" % len(ks))


if __name__ == "__main__":
    main()
