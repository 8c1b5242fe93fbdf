/* SPDX-License-Identifier: MIT */
/* ab's table and JSON, in compare's shape (gate/compare_out.c's parts). */
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "ab.h"
#include "run.h"
#include "core/record_json.h"
#include "core/escape.h"

void ab_side_words(const struct ab_side *s, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s%s%s run", s->prefix ? s->prefix : "", s->prefix ? " " : "", s->bin);
	if (s->setup && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "; setup: %s", s->setup);
	if (s->teardown && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; teardown: %s", s->teardown);
}

static int orders(const struct ab_rows *x, int b_first)
{
	int k = 0;
	for (int i = 0; i < x->nrounds; i++)
		k += x->rounds[i].counted && x->rounds[i].b_first == b_first;
	return k;
}

/* "-2.1% to +3.4%", or "-" with too few pairs */
static void interval_text(const struct ab_rows *x, int i, char *buf, size_t len)
{
	const struct pg_ab_row *e = &x->ab.rows[i];
	if (e->used < 2 || !x->ab.looks || e->lost)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%% to %+.1f%%", e->d.lo_pct, e->d.hi_pct);
}

static void write_side(FILE *out, const struct ab_report *r, int s)
{
	char words[1400];
	ab_side_words(&r->o->side[s], words, sizeof(words));
	fprintf(out, "%c: ", r->o->side[s].name);
	pg_md_text(out, words, 0);
	fputs("  \n", out);
}

static void write_head(FILE *out, const struct ab_report *r)
{
	const struct ab_rows *x = r->x;
	char t[40];
	write_side(out, r, 0);
	write_side(out, r, 1);
	run_format_seconds(r->seconds, t, sizeof(t));
	fprintf(out, "%d rounds (%d A first, %d B first) in %s; results in ", orders(x, 0) + orders(x, 1), orders(x, 0),
		orders(x, 1), t);
	pg_md_text(out, r->o->out, 0);
	fputs("  \nlooks after", out);
	for (int i = 0; i < x->ab.looks; i++)
		fprintf(out, "%s %d", i ? "," : "", x->look_at[i]);
	fprintf(out, "%s rounds (planned: 6, 12, 24, 48); threshold %g%%, false discovery rate %g%% across the rows "
		"and looks\n\n", x->ab.looks ? "" : " no", x->ab.threshold_pct, 100 * PG_AB_Q);
	if (r->stopped) {
		fputs("Stopped early: ", out);
		pg_md_text(out, r->stopped, 0);
		fputs("\n\n", out);
	}
}

void ab_write_md(FILE *out, const struct ab_report *r)
{
	const struct ab_rows *x = r->x;
	const struct pg_comparison *c = &x->c;
	write_head(out, r);
	pg_compare_write_list(out, "What differs between the sides' machines (ab judges it: both ran here):",
		   (const char (*)[PG_CMP_NOTE_LEN])c->unlike, c->nunlike);
	pg_compare_write_list(out, "Notes:", (const char (*)[PG_CMP_NOTE_LEN])c->notes, c->nnotes);
	fputs("| Benchmark | A | B | Change | p | Interval | Rounds | Verdict |\n|---|---|---|---|---|---|---|---|\n", out);
	for (int i = 0; i < c->n; i++) {
		char iv[80];
		interval_text(x, i, iv, sizeof(iv));
		fputs("| ", out);
		pg_compare_write_name(out, c->rows[i].base);
		pg_compare_write_figures(out, &c->rows[i]);
		fprintf(out, " | %s | %d | ", iv, x->ab.rows[i].used);
		pg_compare_write_verdict(out, &c->rows[i]);
		fputs(" |\n", out);
	}
	struct pg_comparison lost = { .lost = x->lost, .nlost = x->nlost };
	pg_compare_write_lost(out, &lost, 0);
	int und = 0;
	for (int i = 0; i < c->n; i++)
		und += c->rows[i].verdict == PG_UNDECIDED;
	fprintf(out, "\n%d compared: %d regressed, %d improved, %d within noise, %d undecided, %d inconclusive, %d not "
		"gated", c->n, c->nreg, c->nimp, c->nsame, und, c->ninc - und, c->ninfo);
	if (x->nlost)
		fprintf(out, "; %d lost in B", x->nlost);
	fputc('\n', out);
}

static json_t *side_json(const struct ab_report *r, int s)
{
	const struct ab_side *d = &r->o->side[s];
	json_t *j = json_object(), *ids = json_array();
	json_object_set_new(j, "bin", json_string(d->bin));
	if (d->prefix)
		json_object_set_new(j, "prefix", json_string(d->prefix));
	if (d->setup)
		json_object_set_new(j, "setup", json_string(d->setup));
	if (d->teardown)
		json_object_set_new(j, "teardown", json_string(d->teardown));
	json_object_set_new(j, "results", json_string(d->path));
	for (int i = 0; i < r->x->nruns; i++)
		json_array_append_new(ids, json_string(r->x->runs[s][i]->id));
	json_object_set_new(j, "runs", ids);
	return j;
}

static json_t *rounds_json(const struct ab_rows *x)
{
	json_t *a = json_array();
	for (int i = 0; i < x->nrounds; i++) {
		const struct ab_round *d = &x->rounds[i];
		json_t *j = json_object();
		json_object_set_new(j, "first", json_string(d->b_first ? "B" : "A"));
		json_object_set_new(j, "benchmarks", json_integer(d->benches));
		json_object_set_new(j, "seconds", json_real(d->seconds));
		json_object_set_new(j, "a", json_string(d->a_id));
		json_object_set_new(j, "b", json_string(d->b_id));
		json_object_set_new(j, "pairs_left_out", json_integer(d->disturbed));
		json_array_append_new(a, j);
	}
	return a;
}

static json_t *row_json(const struct ab_rows *x, int i)
{
	const struct pg_ab_row *e = &x->ab.rows[i];
	json_t *j = pg_compare_row_json(&x->c.rows[i]);
	json_object_set_new(j, "test", json_string(e->t.kept < e->t.n ? "paired Yuen (10% trimmed mean) on the rounds' log ratios" :
								 "paired t on the rounds' log ratios"));
	json_object_set_new(j, "rounds", json_integer(e->used));
	if (e->used >= 2 && x->ab.looks && !e->lost) {
		json_object_set_new(j, "interval_lo_pct", isfinite(e->d.lo_pct) ? json_real(e->d.lo_pct) : json_null());
		json_object_set_new(j, "interval_hi_pct", isfinite(e->d.hi_pct) ? json_real(e->d.hi_pct) : json_null());
	}
	if (e->decided)
		json_object_set_new(j, "decided_after_rounds", json_integer(x->look_at[e->decided_look]));
	if (x->c.rows[i].verdict == PG_UNDECIDED && e->d.more != 0)
		json_object_set_new(j, "more_rounds", e->d.more > 0 ? json_integer(e->d.more) : json_null());
	return j;
}

static json_t *texts(const char (*t)[PG_CMP_NOTE_LEN], int n)
{
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_string(t[i]));
	return a;
}

void ab_write_json(FILE *out, const struct ab_report *r)
{
	const struct ab_rows *x = r->x;
	const struct pg_comparison *c = &x->c;
	json_t *o = json_object(), *rows = json_array(), *lost = json_array(), *looks = json_array();
	int und = 0;
	json_object_set_new(o, "base", json_string(x->nruns ? x->runs[0][0]->id : ""));
	json_object_set_new(o, "new", json_string(x->nruns ? x->runs[1][0]->id : ""));
	json_object_set_new(o, "a", side_json(r, 0));
	json_object_set_new(o, "b", side_json(r, 1));
	json_object_set_new(o, "threshold_pct", json_real(x->ab.threshold_pct));
	json_object_set_new(o, "fdr", json_real(PG_AB_Q));
	for (int i = 0; i < x->ab.looks; i++)
		json_array_append_new(looks, json_integer(x->look_at[i]));
	json_object_set_new(o, "looks_after_rounds", looks);
	json_object_set_new(o, "rounds", rounds_json(x));
	json_object_set_new(o, "seconds", json_real(r->seconds));
	if (r->stopped)
		json_object_set_new(o, "stopped", json_string(r->stopped));
	json_object_set_new(o, "unlike", texts((const char (*)[PG_CMP_NOTE_LEN])c->unlike, c->nunlike));
	json_object_set_new(o, "notes", texts((const char (*)[PG_CMP_NOTE_LEN])c->notes, c->nnotes));
	for (int i = 0; i < c->n; i++) {
		json_array_append_new(rows, row_json(x, i));
		und += c->rows[i].verdict == PG_UNDECIDED;
	}
	json_object_set_new(o, "results", rows);
	for (int i = 0; i < x->nlost; i++)
		json_array_append_new(lost, pg_compare_lost_json(&x->lost[i]));
	json_object_set_new(o, "lost", lost);
	json_object_set_new(o, "regressed", json_integer(c->nreg));
	json_object_set_new(o, "improved", json_integer(c->nimp));
	json_object_set_new(o, "within_noise", json_integer(c->nsame));
	json_object_set_new(o, "undecided", json_integer(und));
	json_object_set_new(o, "inconclusive", json_integer(c->ninc - und));
	json_object_set_new(o, "not_gated", json_integer(c->ninfo));
	json_object_set_new(o, "exit", json_integer(r->interrupted ? 130 : ab_rows_exit(x)));
	pg_json_dumpf_safe(o, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', out);
	json_decref(o);
}
