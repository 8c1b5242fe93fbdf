/* SPDX-License-Identifier: MIT */
/*
 * How far a figure of the guide can be trusted, from what its result
 * records: the samples' spread (noisy), too few of them, sampling cut short
 * by a time cap or the run's budget before the median's interval reached
 * its target, two groups of samples or processes that disagree (bimodal), a machine that did something
 * else meanwhile (disturbed, from the result's env), a CPU that was
 * emulated (the run's machine). The tables mark such a cell and its note
 * says why (table.c); the guide counts them at its head.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/runner.h"
#include "core/stats.h"
#include "core/text.h"
#include "guide.h"

static const char *const names[PG_DOUBT_KINDS] = {
	"noisy", "disturbed", "capped", "few samples", "bimodal", "emulated", "wide interval",
};

const char *pg_doubt_name(unsigned kind)
{
	for (int i = 0; i < PG_DOUBT_KINDS; i++)
		if (kind == 1u << i)
			return names[i];
	return "";
}

/* Sampling stopped before the interval reached its target: at the result's
 * time cap or its share of the run's budget. */
static int capped(const char *stop)
{
	return stop && (strcmp(stop, pg_stop_name(PG_STOP_TIME)) == 0 ||
			strcmp(stop, pg_stop_name(PG_STOP_BUDGET)) == 0);
}

/* Fewer samples than the runner's floor. A result that says nothing of how
 * it stopped was not sampled by this runner (a figure imported from a
 * published table): its sample count says nothing either. */
static int few(const struct pg_record *x)
{
	return x->stop && x->stop[0] && strcmp(x->stop, pg_stop_name(PG_STOP_ONCE)) != 0 &&
	       x->nsamples < PG_FLOOR_RUNS;
}

void pg_doubt_add(struct pg_gcell *c, const struct pg_record *x, const struct pg_gcol *col, int k)
{
	unsigned d = 0;
	if (x->noisy || x->cv > PG_NOISY_CV)
		d |= PG_DOUBT_NOISY;
	if (x->disturbed)
		d |= PG_DOUBT_DISTURBED;
	if (capped(x->stop))
		d |= PG_DOUBT_CAPPED;
	if (few(x))
		d |= PG_DOUBT_FEW;
	if (x->nbimodal >= 2 || x->processes_bimodal)
		d |= PG_DOUBT_BIMODAL;
	if (x->processes_bimodal && !c->bimodal_why && x->bimodal_why && x->bimodal_why[0])
		c->bimodal_why = x->bimodal_why;
	/* A figure whose stated interval is wide though nothing else says
	 * why (a ratio of two results, cpu.scaling's speedup at +/-19.6%). */
	if (!d && x->ci_level >= PG_CI_LEVEL && x->ci_rel > PG_DOUBT_WIDE_REL) {
		d |= PG_DOUBT_WIDE;
		c->wide = fmax(c->wide, x->ci_rel);
	}
	if (col->emulator && col->emulator[k]) {
		d |= PG_DOUBT_EMULATED;
		c->virt = col->emulator[k];
	}
	if (d & PG_DOUBT_DISTURBED && !c->why && x->disturbed_why && x->disturbed_why[0])
		c->why = x->disturbed_why;
	if (isfinite(x->cv) && x->cv > c->cv)
		c->cv = x->cv;
	if (!c->doubt || x->nsamples < c->fewest)
		c->fewest = x->nsamples;
	c->doubt |= d;
}

/* Appends "; " (unless first) and the formatted text to buf at *at. */
static void add(char *buf, size_t len, size_t *at, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void add(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	if (*at + 2 >= len)
		return;
	if (*at) {
		memcpy(buf + *at, "; ", 3);
		*at += 2;
	}
	va_start(ap, fmt);
	int w = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (w > 0)
		*at += (size_t)w < len - *at ? (size_t)w : len - *at - 1;
}

int pg_doubt_text(const struct pg_gcell *c, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	if (!pg_cell_ok(c) || !c->doubt)
		return 0;
	if (c->doubt & PG_DOUBT_NOISY)
		add(buf, len, &at, "noisy: CV %.0f%% over %d samples", c->cv * 100, c->fewest);
	if (c->doubt & PG_DOUBT_FEW)
		add(buf, len, &at, "few samples: %d", c->fewest);
	if (c->doubt & PG_DOUBT_CAPPED)
		add(buf, len, &at, "capped: sampling stopped at its time limit before the median was known to its target");
	if (c->doubt & PG_DOUBT_BIMODAL)
		add(buf, len, &at, "bimodal: %s", c->bimodal_why ? c->bimodal_why : "the samples fall in two groups");
	if (c->doubt & PG_DOUBT_DISTURBED)
		add(buf, len, &at, "disturbed: %s", c->why ? c->why : "the machine was busy with something else");
	if (c->doubt & PG_DOUBT_WIDE)
		add(buf, len, &at, "wide interval: +/-%.1f%% (95%%)", c->wide * 100);
	if (c->doubt & PG_DOUBT_EMULATED)
		add(buf, len, &at, "%s", c->virt);
	pg_utf8_trim(buf);
	return 1;
}

void pg_guide_doubts(const struct pg_guide *g, struct pg_doubts *d)
{
	memset(d, 0, sizeof(*d));
	for (int r = 0; r < g->nrows; r++) {
		if (!pg_row_main(g, &g->rows[r]))
			continue;
		for (int c = 0; c < g->ncols; c++) {
			const struct pg_gcell *cell = &g->rows[r].cells[c];
			if (!pg_cell_ok(cell))
				continue;
			d->figures++;
			d->doubtful += cell->doubt != 0;
			for (int i = 0; i < PG_DOUBT_KINDS; i++)
				d->kind[i] += (cell->doubt >> i) & 1;
		}
	}
}
