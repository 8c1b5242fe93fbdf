/* What compare found, as a Markdown table or JSON. */
#include <jansson.h>
#include <math.h>

#include "compare.h"
#include "core/record_json.h"
#include "core/text.h"
#include "writer.h"

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
	json_object_set_new(j, "base_median", real_or_null(r->base->median));
	json_object_set_new(j, "new_median", real_or_null(r->new->median));
	json_object_set_new(j, "change_pct", real_or_null(r->change_pct));
	json_object_set_new(j, "p", real_or_null(r->p));
	json_object_set_new(j, "verdict", json_string(pg_verdict_name(r->verdict)));
	return j;
}

void pg_compare_write_json(FILE *out, const struct pg_verdicts *v)
{
	json_t *o = json_object(), *a = json_array();
	json_object_set_new(o, "base", json_string(v->base->id));
	json_object_set_new(o, "new", json_string(v->new->id));
	json_object_set_new(o, "threshold_pct", json_real(v->threshold));
	json_object_set_new(o, "alpha", json_real(PG_CMP_ALPHA));
	for (int i = 0; i < v->n; i++)
		json_array_append_new(a, pg_compare_row_json(&v->rows[i]));
	json_object_set_new(o, "results", a);
	json_object_set_new(o, "regressed", json_integer(v->nreg));
	json_object_set_new(o, "improved", json_integer(v->nimp));
	pg_json_dumpf_safe(o, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', out);
	json_decref(o);
}

static void run_name(FILE *out, const char *what, const struct pg_rrun *r)
{
	fprintf(out, "%s ", what);
	pg_md_text(out, r->id, 0);
	fputs(" (", out);
	pg_md_text(out, r->board, 0);
	fputs(")  ", out);
}

void pg_compare_write_name(FILE *out, const struct pg_record *x)
{
	char params[200], name[400];
	pg_params_display(x->bench, x->params, params, sizeof(params));
	if (x->label && x->label[0])
		pg_text_copy(name, sizeof(name), x->label);
	else if ((size_t)snprintf(name, sizeof(name), "%s %s %s", x->bench, params, x->metric) >= sizeof(name))
		pg_utf8_trim(name);
	pg_md_text(out, name, 0);
	fputs(" (", out);
	pg_md_text(out, x->unit, 0);
	fputc(')', out);
}

void pg_compare_write_figures(FILE *out, const struct pg_cmp_row *r)
{
	fprintf(out, fabs(r->base->median) < 1e15 ? " | %.2f" : " | %.6g", r->base->median);
	fprintf(out, fabs(r->new->median) < 1e15 ? " | %.2f" : " | %.6g", r->new->median);
	fprintf(out, fabs(r->change_pct) < 1e15 ? " | %+.1f%%" : " | %+.6g%%", r->change_pct);
	fprintf(out, " | %.3f", r->p);
}

void pg_compare_write_md(FILE *out, const struct pg_verdicts *v)
{
	run_name(out, "BASE", v->base);
	run_name(out, "NEW", v->new);
	fprintf(out, "threshold %g%%, Mann-Whitney p < %g\n\n", v->threshold, PG_CMP_ALPHA);
	fputs("| Benchmark | Base | New | Change | p | Verdict |\n|---|---|---|---|---|---|\n", out);
	for (int i = 0; i < v->n; i++) {
		const struct pg_cmp_row *r = &v->rows[i];
		fputs("| ", out);
		pg_compare_write_name(out, r->base);
		pg_compare_write_figures(out, r);
		fprintf(out, " | %s |\n", pg_verdict_name(r->verdict));
	}
	fprintf(out, "\n%d compared: %d regressed, %d improved, %d within noise\n", v->n, v->nreg, v->nimp,
		v->n - v->nreg - v->nimp);
}
