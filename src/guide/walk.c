/* SPDX-License-Identifier: MIT */
/*
 * The walk through the guide that every writer shares: its head (title,
 * when and by what it was made, the table of contents), the machine table,
 * the figures to doubt, the summary against a baseline, each section's
 * tables (split where too wide, its other metrics after it with
 * --all-metrics), and last the sections in which nothing was measured,
 * one line each.
 */
#include "writer.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/env.h"
#include "core/hash.h"
#include "core/text.h"
#include "pg_build.h"

#define TITLE "Performance guide"
#define NOT_MEASURED "Not measured"
#define DOUBTS "Figures to doubt"
/* The slug of the summary's charts' files. */
#define CHARTS_SUMMARY "summary"

void pg_anchor(const char *title, char *buf, size_t len)
{
	size_t at = 0;
	int dash = 0;
	for (const unsigned char *p = (const unsigned char *)title; *p && at + 2 < len; p++) {
		if (isalnum(*p) || *p == '_' || *p >= 0x80) {
			if (dash && at)
				buf[at++] = '-';
			dash = 0;
			buf[at++] = (char)tolower(*p);
		} else if (*p == ' ' || *p == '-') {
			dash = 1;
		}
	}
	buf[at] = '\0';
	pg_utf8_trim(buf);
}

/* Whether every result of section s was skipped (a board without the
 * device): it collapses to one line saying why. A failure is news: its
 * section keeps its table. */
static int collapsed(const struct pg_guide *g, int s)
{
	for (int r = pg_section_first(g, s); r < pg_section_end(g, s); r++)
		for (int c = 0; c < g->ncols; c++) {
			const struct pg_gcell *cell = &g->rows[r].cells[c];
			if (cell->present && cell->status != PG_SKIP)
				return 0;
		}
	return 1;
}

/* title's anchor, unique in the guide by construction: the second heading
 * whose words make the same anchor gets "-1" after it (as GitHub numbers
 * them), the third "-2". Taken are the headings' anchors so far, the
 * summary's charts' files' slug ("summary": their names are made of the
 * same slugs) and "" (a title of no word: "-1"). A set of them, and per
 * anchor the last number it was given: a guide of many sections whose
 * titles make one anchor is numbered in linear time (issue 40). -1 when
 * out of memory. */
static int unique_anchor(struct pg_walk *w, const char *title, char *buf, size_t len)
{
	char base[180], a[200];
	int *last, *n;
	if (!w->taken.cap && (!pg_strmap_put(&w->taken, CHARTS_SUMMARY) || !pg_strmap_put(&w->taken, "")))
		return -1;
	pg_anchor(title, base, sizeof(base));
	pg_text_copy(a, sizeof(a), base);
	if ((last = pg_strmap_get(&w->taken, a))) {
		/* base-1 .. base-last were taken when base-last was given, and still are */
		int k = *last;
		do
			snprintf(a, sizeof(a), "%s-%d", base, ++k);
		while (pg_strmap_get(&w->taken, a));
		/* the map may move as it grows: base's value found again */
		if (!pg_strmap_put(&w->taken, a) || !(n = pg_strmap_get(&w->taken, base)))
			return -1;
		*n = k;
	} else if (!pg_strmap_put(&w->taken, a)) {
		return -1;
	}
	pg_text_copy(buf, len, a);
	return 0;
}

static int toc_add(struct pg_walk *w, const char *title, int s)
{
	struct pg_toc_entry *e = &w->toc[w->ntoc];
	pg_text_copy(e->title, sizeof(e->title), title);
	if (s >= 0)
		pg_text_copy(e->anchor, sizeof(e->anchor), w->slugs[s]);
	else if (unique_anchor(w, title, e->anchor, sizeof(e->anchor)) < 0)
		return -1;
	w->ntoc++;
	return 0;
}

const char *pg_walk_anchor(const struct pg_walk *w, const char *title)
{
	for (int i = 0; i < w->ntoc; i++)
		if (strcmp(w->toc[i].title, title) == 0)
			return w->toc[i].anchor;
	return "";
}

/* The releases the columns are of ("09.01, 09.02"), from their labels. */
static void releases(const struct pg_guide *g, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int c = 0; c < g->ncols; c++)
		for (int k = 0; k < g->cols[c].nruns; k++) {
			char one[200];
			if (!pg_labels_get(g->cols[c].runs[k]->labels, "release", one, sizeof(one)) || strstr(buf, one))
				continue;
			int n = snprintf(buf + at, len - at, "%s%s", at ? ", " : "", one);
			if (n < 0 || (size_t)n >= len - at)
				break;
			at += (size_t)n;
		}
}

static int head(struct pg_walk *w, const struct pg_doubts *d, int nunfilled)
{
	const struct pg_guide *g = w->g;
	char date[32] = "", rel[300];
	if (g->opts.date) {
		struct tm tm;
		time_t t = g->opts.date;
		strftime(date, sizeof(date), "%Y-%m-%d", gmtime_r(&t, &tm));
	}
	releases(g, rel, sizeof(rel));
	w->title = g->opts.title && g->opts.title[0] ? g->opts.title : TITLE;
	snprintf(w->about, sizeof(w->about), "Made%s%s by perfguide %s from %d board column%s%s%s%s.",
		 date[0] ? " on " : "", date, PG_VERSION, g->ncols, g->ncols == 1 ? "" : "s",
		 rel[0] ? "; release" : "", rel[0] && strchr(rel, ',') ? "s " : rel[0] ? " " : "", rel);
	int cpu = 0;
	for (int s = 0; s < g->nsections; s++)
		cpu |= pg_section_has_cpu(g, s);
	size_t at = strlen(w->about);
	/* which load the CPU columns are */
	if (cpu && g->opts.cpu_load == PG_CPU_LOAD_PROCESS)
		snprintf(w->about + at, sizeof(w->about) - at, " CPU load columns are perfguide's own share of all "
			 "the CPUs (its user and system time), not the system's.");
	else if (cpu)
		snprintf(w->about + at, sizeof(w->about) - at, " CPU load columns are the system's busy share of all "
			 "the CPUs, other processes' included: marked " PG_DOUBT_MARK " where they used %.0f%% or more.",
			 100 * PG_ENV_SHARE);
	pg_utf8_trim(w->about);
	int rc = toc_add(w, "Machines", -1);
	if (rc == 0 && d->doubtful)
		rc = toc_add(w, DOUBTS, -1);
	if (rc == 0 && g->baseline >= 0) {
		char t[300];
		snprintf(t, sizeof(t), "Against %s", g->cols[g->baseline].name);
		rc = toc_add(w, t, -1);
	}
	/* each section's anchor, also the name of its charts' files */
	for (int s = 0; rc == 0 && s < g->nsections; s++)
		rc = unique_anchor(w, g->sections[s].title, w->slugs[s], sizeof(w->slugs[s]));
	for (int s = 0; rc == 0 && s < g->nsections; s++)
		if (!collapsed(g, s))
			rc = toc_add(w, g->sections[s].title, s);
	if (rc == 0 && nunfilled)
		rc = toc_add(w, NOT_MEASURED, -1);
	return rc;
}

/* What each kind of doubt is, and what to do about it: the commands are
 * between backticks, printed as typed in every format; each is one that
 * perfguide takes (SELECTOR: the benchmark's id; e2e.report_commands runs
 * every command the guide prints through the binary). */
static const char *const advice[PG_DOUBT_KINDS] = {
	"noisy: the samples' CV is above 5%; run again on a quiet machine (nothing else running, the "
	"CPU frequency fixed) with more samples (`perfguide run SELECTOR --min-time 1 --runs 10`)",
	"disturbed: the machine did something else while it was measured (its note says what); run "
	"again when it is idle (`perfguide run SELECTOR --wait-quiet 60` waits up to a minute for it)",
	"capped: sampling stopped at its time limit before the median was known to its target; give "
	"it more time: the full suite's 30 s per result (`perfguide run SELECTOR --suite full`), no "
	"limit on the run's time (`perfguide run SELECTOR --budget none`), or a fixed number of samples "
	"(`perfguide run SELECTOR --runs 10`)",
	"few samples: fewer than 3; run with more (`perfguide run SELECTOR --runs 5` or more)",
	"bimodal: the samples fall in two groups (two CPU clusters, a frequency step), or the processes "
	"it was measured in disagree beyond their noise (its note gives their medians): the figure depends "
	"on which process measured it; pin it to one CPU (`perfguide run SELECTOR --cpu 0`), measure it in "
	"more processes (`perfguide run SELECTOR --processes 10`) and look at the samples",
	"emulated: measured under an emulator (qemu), or on a virtual machine that may be one (its CPU "
	"cannot tell): the timings are perhaps not the hardware's; run on the board (`perfguide info` says "
	"whether a CPU is emulated: its virt and emulated fields)",
	"wide interval: the figure's 95% interval is wider than +/-10% (a figure made of others, whose "
	"spread adds up); run more samples of what it is made of (`perfguide run SELECTOR --runs 10`)",
};

static void doubts(struct pg_walk *w, const struct pg_writer *wr, const struct pg_doubts *d)
{
	char intro[400], items[PG_DOUBT_KINDS][400], *list[PG_DOUBT_KINDS];
	int n = 0;
	snprintf(intro, sizeof(intro),
		 "%d of the %d figures in the tables are marked " PG_DOUBT_MARK
		 ", their notes saying why. Before publishing them:", d->doubtful, d->figures);
	for (int i = 0; i < PG_DOUBT_KINDS; i++)
		if (d->kind[i]) {
			snprintf(items[n], sizeof(items[n]), "%d %s", d->kind[i], advice[i]);
			list[n] = items[n];
			n++;
		}
	struct pg_notice no = { .title = DOUBTS, .intro = intro, .items = list, .nitems = n };
	if (wr->notice)
		wr->notice(w, &no);
}

/* The summary against the baseline when no board shares a row with it
 * (a quick suite's run beside a published guide's tables): words, not a
 * table of no rows (which Sphinx refuses). */
static void no_ratios(struct pg_walk *w, const struct pg_writer *wr, const char *title)
{
	struct pg_notice no = {
		.title = title,
		.intro = "No board has a figure in a row the baseline has: their results were measured with other "
			 "parameters, so there is no ratio to show. A published guide's tables hold the standard "
			 "suite's parameters: `perfguide run --suite standard` measures those.",
	};
	if (wr->notice)
		wr->notice(w, &no);
}

static void not_measured(struct pg_walk *w, const struct pg_writer *wr, char **items, int n)
{
	struct pg_notice no = {
		.title = NOT_MEASURED,
		.intro = "The sections of the seed guide (TI's Processor SDK Linux 09.02 performance guide) and of "
			 "perfguide's benchmarks that these runs did not fill: why, and the command that fills each, "
			 "or that perfguide has no such benchmark.",
		.items = items, .nitems = n,
	};
	if (n && wr->notice)
		wr->notice(w, &no);
}

/* A table of section s written, split where it is too wide (its notes
 * that differ only in numbers merged in each part); t is freed. */
static int write_table(struct pg_walk *w, const struct pg_writer *wr, int s, struct pg_table *t)
{
	struct pg_table *parts;
	int n, rc = 0;
	if (!(wr->table_opts & PG_TABLE_SPLIT)) {
		wr->section(w, s, t);
		pg_table_free(t);
		return 0;
	}
	int last = t->last;
	int width = wr->width_pct ? w->g->opts.width * wr->width_pct / 100 : w->g->opts.width;
	rc = pg_table_split(t, width, w->g->baseline, &parts, &n);
	if (n)
		parts[n - 1].last = last;
	for (int i = 0; i < n; i++) {
		if (rc == 0)
			rc = pg_table_merge_notes(&parts[i]);
		if (rc == 0)
			wr->section(w, s, &parts[i]);
		pg_table_free(&parts[i]);
	}
	free(parts);
	return rc;
}

/* Whether section s is written as several tables (parts.c). */
static int in_parts(const struct pg_guide *g, int s, unsigned opts)
{
	const struct pg_section *sec = &g->sections[s];
	return !(opts & (PG_TABLE_FLAT | PG_TABLE_OTHER)) && sec->rows_by && (sec->tables || sec->rows_of);
}

/* Whether a table of its parts has a figure the section shows. */
static int has_parts(const struct pg_guide *g, int s)
{
	for (int r = pg_section_first(g, s); r < pg_section_end(g, s); r++)
		if (pg_row_main(g, &g->rows[r]))
			return 1;
	return 0;
}

/* Its tables: the rows its pivot leaves out first, then one per value of
 * its tables template, each under a heading of its own. */
static int section_parts(struct pg_walk *w, const struct pg_writer *wr, int s, unsigned opts)
{
	const struct pg_guide *g = w->g;
	struct pg_parts p;
	int rc = pg_section_parts(g, s, &p), first = 1;
	for (int i = p.flat ? -1 : 0; rc == 0 && i < p.n; i++) {
		struct pg_table t;
		rc = pg_table_section_part(g, s, opts, &p, i, &t);
		t.heading = first ? 1 : 3;
		t.last = i == p.n - 1;
		if (rc == 0 && first)
			rc = pg_table_intro(g, s, &t);
		if (rc == 0)
			rc = write_table(w, wr, s, &t);
		else
			pg_table_free(&t);
		first = 0;
	}
	pg_parts_free(&p);
	return rc;
}

/* One table of section s (its main one, or with PG_TABLE_OTHER its other
 * metrics), split where it is too wide. */
static int section_tables(struct pg_walk *w, const struct pg_writer *wr, int s, unsigned opts, int heading)
{
	struct pg_table t;
	if (in_parts(w->g, s, opts) && has_parts(w->g, s))
		return section_parts(w, wr, s, opts);
	int rc = pg_table_section(w->g, s, opts, &t);
	t.heading = heading;
	t.last = 1;
	if (rc < 0) {
		pg_table_free(&t);
		return rc;
	}
	/* figures once per benchmark: a table of their own after it (apart.c) */
	struct pg_table apart;
	int more = opts & (PG_TABLE_FLAT | PG_TABLE_OTHER) ? 1 : pg_table_apart(w->g, s, &apart);
	if (more < 0) {
		pg_table_free(&t);
		pg_table_free(&apart);
		return -1;
	}
	t.last = more;
	rc = write_table(w, wr, s, &t);
	if (more == 0) {
		apart.heading = 3;
		apart.last = 1;
		rc = rc ? (pg_table_free(&apart), rc) : write_table(w, wr, s, &apart);
	}
	return rc;
}

static int sections(struct pg_walk *w, const struct pg_writer *wr, const int *gone)
{
	const struct pg_guide *g = w->g;
	int rc = 0;
	for (int s = 0; rc == 0 && s < g->nsections; s++) {
		if (gone[s])
			continue;
		rc = section_tables(w, wr, s, wr->table_opts, 1);
		if (rc == 0 && g->opts.all_metrics && !(wr->table_opts & PG_TABLE_FLAT) && pg_section_has_other(g, s))
			rc = section_tables(w, wr, s, wr->table_opts | PG_TABLE_OTHER, 2);
	}
	return rc;
}

int pg_guide_write(const struct pg_guide *g, const struct pg_writer *wr, FILE *out)
{
	struct pg_walk w = { .g = g, .out = out };
	struct pg_doubts d;
	struct pg_table t = { 0 };
	int *gone = calloc((size_t)g->nsections + 1, sizeof(int));
	w.toc = calloc((size_t)g->nsections + 4, sizeof(*w.toc));
	char (*slugs)[200] = calloc((size_t)g->nsections + 1, sizeof(*slugs));
	if (!gone || !w.toc || !slugs) {
		free(gone);
		free(w.toc);
		free(slugs);
		return -1;
	}
	/* csv and json keep every row: nothing collapses there, and they have
	 * no notice of what was not measured */
	for (int s = 0; !(wr->table_opts & PG_TABLE_FLAT) && s < g->nsections; s++)
		gone[s] = collapsed(g, s);
	pg_guide_doubts(g, &d);
	char **unfilled = NULL;
	int nunfilled = 0;
	int rc = !(wr->table_opts & PG_TABLE_FLAT) ? pg_unfilled(g, gone, &unfilled, &nunfilled) : 0;
	w.slugs = slugs;
	rc = rc || head(&w, &d, nunfilled) < 0 || (wr->begin && wr->begin(&w) < 0) ? -1 : pg_table_machines(g, &t);
	if (rc == 0 && wr->machines)
		wr->machines(&w, &t);
	pg_table_free(&t);
	if (rc == 0 && d.doubtful)
		doubts(&w, wr, &d);
	if (rc == 0 && g->baseline >= 0) {
		rc = pg_table_summary(g, &t);
		if (rc == 0 && t.nrows == 0)
			no_ratios(&w, wr, t.title);
		else if (rc == 0 && wr->summary)
			wr->summary(&w, &t);
		pg_table_free(&t);
	}
	rc = rc ? rc : sections(&w, wr, gone);
	if (rc == 0)
		not_measured(&w, wr, unfilled, nunfilled);
	int end = wr->end ? wr->end(&w) : 0;
	pg_charts_done(&w);
	pg_unfilled_free(unfilled, nunfilled);
	pg_strmap_free(&w.taken);
	free(gone);
	free(w.toc);
	free(slugs);
	if (rc < 0 || end < 0 || ferror(out))
		return -1;
	return w.failed ? PG_GUIDE_CHART_FAILED : 0;
}
