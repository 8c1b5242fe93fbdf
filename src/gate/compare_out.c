/* SPDX-License-Identifier: MIT */
/* What compare found, as a Markdown table or JSON. */
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "compare.h"
#include "core/record_json.h"
#include "core/text.h"
#include "core/escape.h"

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *pg_compare_row_json(const struct pg_cmp_row *r)
{
	json_t *j = json_object();
	json_object_set_new(j, "bench", json_string(r->base->bench));
	json_object_set_new(j, "params", json_loads(r->base->params, 0, NULL));
	json_object_set_new(j, "metric", json_string(r->base->metric));
	json_object_set_new(j, "unit", json_string(r->base->unit));
	json_object_set_new(j, "better", json_string(pg_better_name(r->base->higher)));
	json_object_set_new(j, "base_median", real_or_null(r->base_median));
	json_object_set_new(j, "new_median", real_or_null(r->new_median));
	json_object_set_new(j, "change_pct", real_or_null(r->change_pct));
	json_object_set_new(j, "base_runs", json_integer(r->nbase));
	json_object_set_new(j, "new_runs", json_integer(r->nnew));
	if (r->reps_base != r->nbase || r->reps_new != r->nnew) {
		/* runs measured in several processes: each process a replicate */
		json_object_set_new(j, "base_replicates", json_integer(r->reps_base));
		json_object_set_new(j, "new_replicates", json_integer(r->reps_new));
	}
	if (r->bimodal) {
		json_object_set_new(j, "bimodal", json_string(r->bimodal == 1 ? "BASE" : "NEW"));
		if (r->bimodal_why)
			json_object_set_new(j, "bimodal_why", json_string(r->bimodal_why));
	}
	if (r->left_out)
		json_object_set_new(j, "disturbed_runs_left_out", json_integer(r->left_out));
	json_object_set_new(j, "test", json_string(pg_gate_test_name(r->g.test)));
	json_object_set_new(j, "p", r->g.test == PG_TEST_NONE ? json_null() : real_or_null(r->g.p));
	if (r->g.test != PG_TEST_NONE) {
		json_t *iv = json_null();	/* a restating row: its source row's is it */
		if (r->alias < 0) {
			iv = json_array();
			json_array_append_new(iv, real_or_null(r->dec.lo_pct));
			json_array_append_new(iv, real_or_null(r->dec.hi_pct));
		}
		json_object_set_new(j, "interval_pct", iv);
		json_t *sp = json_object();
		json_object_set_new(sp, "from", json_string(pg_gate_spread_name(r->g.spread)));
		if (r->g.spread == PG_SPREAD_ALLOWANCE || r->g.spread == PG_SPREAD_PROFILE)
			json_object_set_new(sp, "run_sd", real_or_null(r->g.spread_sd));
		if (r->g.spread == PG_SPREAD_PROFILE)
			json_object_set_new(sp, "runs", json_integer(r->g.spread_runs));
		json_object_set_new(j, "spread", sp);
	}
	if (r->verdict == PG_UNDECIDED && r->g.test != PG_TEST_NONE && r->more_of) {
		json_object_set_new(j, "more", r->dec.more > 0 ? json_integer(r->dec.more) : json_null());
		json_object_set_new(j, "more_of", json_string(r->more_of));
	}
	json_object_set_new(j, "verdict", json_string(pg_verdict_name(r->verdict)));
	json_object_set_new(j, "gated", json_boolean(r->gated));
	if (r->why[0])
		json_object_set_new(j, "why", json_string(r->why));
	return j;
}

static const char *lost_what(const struct pg_cmp_lost *l)
{
	if (l->metric_only)
		return "metric missing";
	if (l->reparam)
		return "measured with a new parameter";
	if (!l->new)
		return "missing";
	return l->new->status == PG_SKIP ? "newly skipped" : "failed";
}

json_t *pg_compare_lost_json(const struct pg_cmp_lost *l)
{
	json_t *j = json_object();
	json_object_set_new(j, "bench", json_string(l->base->bench));
	json_object_set_new(j, "params", json_loads(l->base->params, 0, NULL));
	if (l->metric_only)
		json_object_set_new(j, "metric", json_string(l->base->metric));
	json_object_set_new(j, "run", json_string(l->run->id));
	json_object_set_new(j, "what", json_string(lost_what(l)));
	if (l->reparam)
		json_object_set_new(j, "new_params", json_loads(l->reparam->params, 0, NULL));
	if (l->new && l->new->reason)
		json_object_set_new(j, "reason", json_string(l->new->reason));
	return j;
}

static json_t *ids(const struct pg_cmp_side *s)
{
	json_t *a = json_array();
	for (int i = 0; i < s->n; i++)
		json_array_append_new(a, json_string(s->runs[i].id));
	return a;
}

static json_t *texts(const char (*t)[PG_CMP_NOTE_LEN], int n)
{
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_string(t[i]));
	return a;
}

void pg_compare_write_json(FILE *out, const struct pg_verdicts *v)
{
	const struct pg_comparison *c = v->c;
	json_t *o = json_object(), *a = json_array(), *lost = json_array();
	json_object_set_new(o, "base", json_string(v->base->runs[0].id));
	json_object_set_new(o, "new", json_string(v->new->runs[0].id));
	json_object_set_new(o, "base_runs", ids(v->base));
	json_object_set_new(o, "new_runs", ids(v->new));
	json_object_set_new(o, "threshold_pct", json_real(c->threshold));
	json_object_set_new(o, "fdr", json_real(PG_GATE_Q));
	json_object_set_new(o, "interval_level", json_real(PG_DECIDE_LEVEL));
	json_object_set_new(o, "unlike", texts((const char (*)[PG_CMP_NOTE_LEN])c->unlike, c->nunlike));
	json_object_set_new(o, "notes", texts((const char (*)[PG_CMP_NOTE_LEN])c->notes, c->nnotes));
	for (int i = 0; i < c->n; i++)
		json_array_append_new(a, pg_compare_row_json(&c->rows[i]));
	json_object_set_new(o, "results", a);
	for (int i = 0; i < c->nlost; i++)
		json_array_append_new(lost, pg_compare_lost_json(&c->lost[i]));
	json_object_set_new(o, "lost", lost);
	json_object_set_new(o, "regressed", json_integer(c->nreg));
	json_object_set_new(o, "improved", json_integer(c->nimp));
	json_object_set_new(o, "inconclusive", json_integer(c->ninc));
	json_object_set_new(o, "undecided", json_integer(c->nund));
	json_object_set_new(o, "within_noise", json_integer(c->nsame));
	json_object_set_new(o, "not_gated", json_integer(c->ninfo));
	json_object_set_new(o, "exit", json_integer(pg_compare_exit(c, v->allow_missing)));
	pg_json_dumpf_safe(o, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', out);
	json_decref(o);
}

static void side_name(FILE *out, const char *what, const struct pg_cmp_side *s)
{
	fprintf(out, "%s ", what);
	pg_md_text(out, s->runs[0].id, 0);
	fputs(" (", out);
	pg_md_text(out, s->runs[0].board, 0);
	fputc(')', out);
	if (s->n > 1)
		fprintf(out, " and %d more run%s", s->n - 1, s->n == 2 ? "" : "s");
	fputs("  ", out);
}

void pg_compare_write_name(FILE *out, const struct pg_record *x)
{
	char params[200], name[400];
	int has_unit = 0;
	pg_params_display(x->bench, x->params, params, sizeof(params));
	if (x->label && x->label[0]) {
		pg_text_copy(name, sizeof(name), x->label);
		/* a guide's label carries its unit ("whetstone (MIPS)"): once is enough */
		has_unit = name[0] && name[strlen(name) - 1] == ')';
	} else if ((size_t)snprintf(name, sizeof(name), "%s %s %s", x->bench, params, x->metric) >= sizeof(name))
		pg_utf8_trim(name);
	pg_md_text(out, name, 0);
	if (has_unit)
		return;
	fputs(" (", out);
	pg_md_text(out, x->unit, 0);
	fputc(')', out);
}

void pg_compare_write_figures(FILE *out, const struct pg_cmp_row *r)
{
	fprintf(out, fabs(r->base_median) < 1e15 ? " | %.2f" : " | %.6g", r->base_median);
	fprintf(out, fabs(r->new_median) < 1e15 ? " | %.2f" : " | %.6g", r->new_median);
	fprintf(out, fabs(r->change_pct) < 1e15 ? " | %+.1f%%" : " | %+.6g%%", r->change_pct);
	pg_compare_write_interval(out, r);
	if (r->g.test == PG_TEST_NONE)
		fputs(" | -", out);
	else
		fprintf(out, r->g.p >= 0.001 ? " | %.3f" : " | %.1e", r->g.p);
}

/* A change in percent for the interval: one decimal below 10%. */
static void pct(FILE *out, double v)
{
	if (!isfinite(v))
		fputs(v > 0 ? "+inf%" : "-100%", out);
	else
		fprintf(out, fabs(v) < 10 ? "%+.1f%%" : fabs(v) < 1e6 ? "%+.0f%%" : "%+.3g%%", v);
}

void pg_compare_write_interval(FILE *out, const struct pg_cmp_row *r)
{
	fputs(" | ", out);
	/* a restating row has no interval of its own: its source row's is it */
	if (r->g.test == PG_TEST_NONE || r->alias >= 0) {
		fputc('-', out);
		return;
	}
	pct(out, r->dec.lo_pct);
	fputs(" .. ", out);
	pct(out, r->dec.hi_pct);
}

void pg_compare_write_spread(FILE *out, const struct pg_cmp_row *r)
{
	switch (r->g.spread) {
	case PG_SPREAD_RUNS:
		fputs("runs", out);
		break;
	case PG_SPREAD_ALLOWANCE:
		fprintf(out, "%.1f%% allowed", 100 * r->g.spread_sd);
		break;
	case PG_SPREAD_PROFILE:
		fprintf(out, "%.1f%% (%d runs of the board)", 100 * r->g.spread_sd, r->g.spread_runs);
		break;
	case PG_SPREAD_NONE:
		fputc('-', out);
		break;
	}
}

void pg_compare_write_verdict(FILE *out, const struct pg_cmp_row *r)
{
	fputs(pg_verdict_name(r->verdict), out);
	if (r->why[0]) {
		fputs(": ", out);
		pg_md_text(out, r->why, 0);
	}
	if (r->bimodal) {
		fprintf(out, " (bimodal in %s: ", r->bimodal == 1 ? "BASE" : "NEW");
		pg_md_text(out, r->bimodal_why ? r->bimodal_why : "its processes disagree", 0);
		fputc(')', out);
	}
}

void pg_compare_write_lost(FILE *out, const struct pg_comparison *c, int allow_missing)
{
	if (c->nlost)
		fprintf(out, "\nLost in NEW (%s):\n\n", allow_missing ? "allowed by --allow-missing" :
			"each fails the comparison; --allow-missing to allow");
	for (int i = 0; i < c->nlost; i++) {
		const struct pg_cmp_lost *l = &c->lost[i];
		char params[200];
		pg_params_display(l->base->bench, l->base->params, params, sizeof(params));
		fputs("- ", out);
		pg_md_text(out, l->base->bench, 0);
		if (params[0]) {
			fputc(' ', out);
			pg_md_text(out, params, 0);
		}
		if (l->metric_only) {
			fputs(" metric ", out);
			pg_md_text(out, l->base->metric, 0);
		}
		fprintf(out, ": %s in run ", lost_what(l));
		pg_md_text(out, l->run->id, 0);
		if (l->reparam) {
			pg_params_display(l->reparam->bench, l->reparam->params, params, sizeof(params));
			fputs(" (", out);
			pg_md_text(out, params, 0);
			fputs("): not the same measurement", out);
		}
		if (l->new && l->new->reason) {
			fputs(": ", out);
			pg_md_text(out, l->new->reason, 0);
		}
		fputc('\n', out);
	}
}

void pg_compare_write_list(FILE *out, const char *title, const char (*t)[PG_CMP_NOTE_LEN], int n)
{
	if (!n)
		return;
	fprintf(out, "%s\n\n", title);
	for (int i = 0; i < n; i++) {
		fputs("- ", out);
		pg_md_text(out, t[i], 0);
		fputc('\n', out);
	}
	fputc('\n', out);
}

void pg_compare_write_md(FILE *out, const struct pg_verdicts *v)
{
	const struct pg_comparison *c = v->c;
	side_name(out, "BASE", v->base);
	side_name(out, "NEW", v->new);
	fprintf(out, "threshold %g%%, false discovery rate %g%% across the rows, %g%% intervals\n\n", c->threshold,
		100 * PG_GATE_Q, 100 * PG_DECIDE_LEVEL);
	pg_compare_write_list(out, c->forced ? "Unlike machines (judged anyway: --force):"
		   : "Unlike machines (nothing is judged; --force to judge anyway):",
		   (const char (*)[PG_CMP_NOTE_LEN])c->unlike, c->nunlike);
	pg_compare_write_list(out, "Notes:", (const char (*)[PG_CMP_NOTE_LEN])c->notes, c->nnotes);
	fputs("| Benchmark | Base | New | Change | Interval | p | Spread | Verdict |\n|---|---|---|---|---|---|---|---|\n",
	      out);
	for (int i = 0; i < c->n; i++) {
		const struct pg_cmp_row *r = &c->rows[i];
		fputs("| ", out);
		pg_compare_write_name(out, r->base);
		pg_compare_write_figures(out, r);
		fputs(" | ", out);
		pg_compare_write_spread(out, r);
		fputs(" | ", out);
		pg_compare_write_verdict(out, r);
		fputs(" |\n", out);
	}
	pg_compare_write_lost(out, c, v->allow_missing);
	fprintf(out, "\n%d compared: %d regressed, %d improved, %d within noise, %d undecided, %d inconclusive, %d not "
		"gated", c->n, c->nreg, c->nimp, c->nsame, c->nund, c->ninc, c->ninfo);
	if (c->nlost)
		fprintf(out, "; %d lost in NEW", c->nlost);
	fputc('\n', out);
}
