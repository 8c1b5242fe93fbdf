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

#include "core/text.h"
#include "pg_build.h"

#define TITLE "Performance guide"
#define NOT_MEASURED "Not measured"
#define DOUBTS "Figures to doubt"

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
	for (int r = 0; r < g->nrows; r++)
		for (int c = 0; g->rows[r].section == s && c < g->ncols; c++) {
			const struct pg_gcell *cell = &g->rows[r].cells[c];
			if (cell->present && cell->status != PG_SKIP)
				return 0;
		}
	return 1;
}

static void toc_add(struct pg_walk *w, const char *title)
{
	struct pg_toc_entry *e = &w->toc[w->ntoc++];
	pg_text_copy(e->title, sizeof(e->title), title);
	pg_anchor(title, e->anchor, sizeof(e->anchor));
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

static void head(struct pg_walk *w, const struct pg_doubts *d, int ncollapsed)
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
	pg_utf8_trim(w->about);
	toc_add(w, "Machines");
	if (d->doubtful)
		toc_add(w, DOUBTS);
	if (g->baseline >= 0) {
		char t[300];
		snprintf(t, sizeof(t), "Against %s", g->cols[g->baseline].name);
		toc_add(w, t);
	}
	for (int s = 0; s < g->nsections; s++)
		if (!collapsed(g, s))
			toc_add(w, g->sections[s].title);
	if (ncollapsed)
		toc_add(w, NOT_MEASURED);
}

/* What each kind of doubt is, and what to do about it. */
static const char *const advice[PG_DOUBT_KINDS] = {
	"noisy: the samples' CV is above 5%; run again on a quiet machine (nothing else running, the "
	"CPU frequency fixed) with more samples (run --min-time 1 --runs 10)",
	"disturbed: the machine did something else while it was measured (its note says what); run "
	"again when it is idle",
	"capped: sampling stopped at its time limit before the median was known to its target; give "
	"it more time (run --max-time, --budget, or --runs)",
	"few samples: fewer than 3; run with more (run --runs 5 or more)",
	"bimodal: the samples fall in two groups (two CPU clusters, a frequency step), or the processes "
	"it was measured in disagree beyond their noise (its note gives their medians): the figure depends "
	"on which process measured it; pin it to one CPU (run --cpu), measure it in more processes (run "
	"--processes 10) and look at the samples",
	"emulated: measured under an emulator (qemu): the timings are not the hardware's; run on the board",
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

/* "Messaging: no /dev/rpmsg* device: load the remote firmware" for a
 * section whose every result was skipped: its reasons, each once. */
static char *why_not(const struct pg_guide *g, int s)
{
	char buf[1500];
	size_t at = (size_t)snprintf(buf, sizeof(buf), "%s:", g->sections[s].title);
	int n = 0, more = 0;
	for (int r = 0; r < g->nrows; r++)
		for (int c = 0; g->rows[r].section == s && c < g->ncols; c++) {
			const char *why = g->rows[r].cells[c].reason;
			if (!why || strstr(buf, why))
				continue;
			if (n == 3) {
				more++;
				continue;
			}
			int k = snprintf(buf + at, sizeof(buf) - at, "%s %s", n++ ? ";" : "", why);
			at = k < 0 || (size_t)k >= sizeof(buf) - at ? sizeof(buf) - 1 : at + (size_t)k;
		}
	if (more && at + 1 < sizeof(buf))
		snprintf(buf + at, sizeof(buf) - at, "; and %d more reason%s", more, more > 1 ? "s" : "");
	if (!n && at + 1 < sizeof(buf))
		snprintf(buf + at, sizeof(buf) - at, " no result");
	pg_utf8_trim(buf);
	return strdup(buf);
}

static int not_measured(struct pg_walk *w, const struct pg_writer *wr, const int *gone)
{
	const struct pg_guide *g = w->g;
	char **items = calloc((size_t)g->nsections + 1, sizeof(char *));
	int n = 0, rc = items ? 0 : -1;
	for (int s = 0; rc == 0 && s < g->nsections; s++)
		if (gone[s] && !(items[n++] = why_not(g, s)))
			rc = -1;
	struct pg_notice no = { .title = NOT_MEASURED,
				.intro = "Sections in which every result was skipped, and why.",
				.items = items, .nitems = n };
	if (rc == 0 && n && wr->notice)
		wr->notice(w, &no);
	for (int i = 0; i < n; i++)
		free(items[i]);
	free(items);
	return rc;
}

/* One table of section s (its main one, or with PG_TABLE_OTHER its other
 * metrics), split where it is too wide. */
static int section_tables(struct pg_walk *w, const struct pg_writer *wr, int s, unsigned opts, int heading)
{
	const struct pg_guide *g = w->g;
	struct pg_table t, *parts;
	int n, rc = pg_table_section(g, s, opts, &t);
	t.heading = heading;
	t.last = 1;
	if (rc < 0 || !(wr->table_opts & PG_TABLE_SPLIT)) {
		if (rc == 0)
			wr->section(w, s, &t);
		pg_table_free(&t);
		return rc;
	}
	rc = pg_table_split(&t, g->opts.width, g->baseline, &parts, &n);
	if (n)
		parts[n - 1].last = 1;
	for (int i = 0; i < n; i++) {
		if (rc == 0)
			wr->section(w, s, &parts[i]);
		pg_table_free(&parts[i]);
	}
	free(parts);
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
	int *gone = calloc((size_t)g->nsections + 1, sizeof(int)), ngone = 0;
	w.toc = calloc((size_t)g->nsections + 4, sizeof(*w.toc));
	if (!gone || !w.toc) {
		free(gone);
		free(w.toc);
		return -1;
	}
	/* csv and json keep every row: nothing collapses there */
	for (int s = 0; !(wr->table_opts & PG_TABLE_FLAT) && s < g->nsections; s++)
		ngone += gone[s] = collapsed(g, s);
	pg_guide_doubts(g, &d);
	head(&w, &d, ngone);
	int rc = wr->begin && wr->begin(&w) < 0 ? -1 : pg_table_machines(g, &t);
	if (rc == 0 && wr->machines)
		wr->machines(&w, &t);
	pg_table_free(&t);
	if (rc == 0 && d.doubtful)
		doubts(&w, wr, &d);
	if (rc == 0 && g->baseline >= 0) {
		rc = pg_table_summary(g, &t);
		if (rc == 0 && wr->summary)
			wr->summary(&w, &t);
		pg_table_free(&t);
	}
	rc = rc ? rc : sections(&w, wr, gone);
	rc = rc ? rc : not_measured(&w, wr, gone);
	int end = wr->end ? wr->end(&w) : 0;
	free(gone);
	free(w.toc);
	return rc < 0 || end < 0 || w.failed || ferror(out) ? -1 : 0;
}
