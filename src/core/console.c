/* SPDX-License-Identifier: MIT */
#include "console.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "params.h"
#include "procs.h"
#include "record.h"
#include "text.h"

void pg_console_init(struct pg_console *c, int json_on_stdout)
{
	memset(c, 0, sizeof(*c));
	c->table = json_on_stdout ? stderr : stdout;
	c->progress = isatty(STDERR_FILENO);
}

void pg_format_value(double v, char *buf, size_t len)
{
	double a = fabs(v);
	if (a >= 1 || a == 0)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

void pg_console_clear(struct pg_console *c)
{
	if (c->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		c->shown = 0;
	}
}

void pg_console_progress(struct pg_console *c, int done, int total, const char *what,
			 double left)
{
	if (!c->progress)
		return;
	char eta[32] = "";
	if (left >= 0) {
		int s = (int)(left + 0.5);
		if (s >= 60)
			snprintf(eta, sizeof(eta), ", ~%dm%02ds left", s / 60, s % 60);
		else
			snprintf(eta, sizeof(eta), ", ~%ds left", s);
	}
	fprintf(stderr, "\r\033[K[%d/%d%s] ", done, total, eta);
	pg_term_puts(stderr, what);
	fflush(stderr);
	c->shown = 1;
}

/* Metric m's processes disagree (core/procs.h): the range of their medians. */
static void procs_mark(const struct pg_result *r, int m, char *buf, size_t len)
{
	buf[0] = '\0';
	if (r->nprocs < 2 || !r->proc_bimodal[m])
		return;
	double lo, hi;
	char a[32], b[32];
	pg_procs_range(r, m, &lo, &hi);
	pg_format_value(lo, a, sizeof(a));
	pg_format_value(hi, b, sizeof(b));
	snprintf(buf, len, "  BIMODAL (%d processes, %s to %s)", r->nprocs, a, b);
}

void pg_console_result(struct pg_console *c, const struct pg_result *r)
{
	/* Parameters (-p bin=...) and reasons (a peer's, another program's)
	 * are text from elsewhere: escaped, so that no line is a LAVA signal
	 * or a terminal's control sequence. */
	char raw[160], args[4 * sizeof(raw)];
	pg_args_format(r->args, raw, sizeof(raw));
	pg_term_text(raw, args, sizeof(args));
	pg_console_clear(c);
	if (r->status != PG_OK) {
		fprintf(c->table, "%-16s %-28s %s: ", r->bench->id, args, pg_status_name(r->status));
		pg_term_puts(c->table, r->reason);
		fputc('\n', c->table);
		fflush(c->table);
		return;
	}
	for (int m = 0; m < r->nmetrics; m++) {
		const struct pg_stats *s = &r->stats[m];
		char med[32], lo[32], hi[32], load[32] = "";
		pg_format_value(s->median, med, sizeof(med));
		pg_format_value(s->min, lo, sizeof(lo));
		pg_format_value(s->max, hi, sizeof(hi));
		if (r->cpu.have_busy)
			snprintf(load, sizeof(load), "  cpu %.0f%%", r->cpu.busy_pct);
		/* The samples' spread, where there are samples to spread; the
		 * median's 95% interval, where the samples give one or the
		 * benchmark stated one for its one figure, and why sampling
		 * stopped short of it. */
		char cv[32] = "", ci[48] = "";
		if (r->nsamples > 1)
			snprintf(cv, sizeof(cv), "  cv %.1f%%", s->cv * 100);
		if (s->ci_level >= PG_CI_LEVEL)
			snprintf(ci, sizeof(ci), "  +/-%.1f%%%s", s->ci_rel * 100, r->nsamples > 1 ? "" : " (from its parts)");
		if (m == 0 && (r->stop == PG_STOP_TIME || r->stop == PG_STOP_BUDGET ||
			       r->stop == PG_STOP_MAX_RUNS))
			snprintf(ci + strlen(ci), sizeof(ci) - strlen(ci), " (%d samples, %s)",
				 r->nsamples, pg_stop_name(r->stop));
		/* What disturbed the result, on its first line. */
		char dist[80] = "";
		if (m == 0 && r->disturbed) {
			char why[64];
			pg_env_short(&r->env, why, sizeof(why));
			snprintf(dist, sizeof(dist), "  DISTURBED (%s)", why);
		}
		char procs[96];
		procs_mark(r, m, procs, sizeof(procs));
		fprintf(c->table, "%-16s %-28s %-10s %12s %-6s (min %s, max %s)%s%s%s%s%s%s%s\n",
			m ? "" : r->bench->id, m ? "" : args, r->bench->metrics[m].name, med,
			r->bench->metrics[m].unit, lo, hi, cv, ci, load,
			s->cv > PG_NOISY_CV ? "  NOISY" : "", s->bimodal && !procs[0] ? "  BIMODAL" : "", procs, dist);
	}
	fflush(c->table);
}
