/*
 * The machine table at the head of the guide: one row per fact of the
 * recorded identity, one column per board (its latest run). A fact no board
 * recorded (a container has no cpufreq) is left out.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "core/text.h"

struct mcol {
	const struct pg_gcol *col;
	const struct pg_rrun *run;	/* the latest of the column */
	json_t *m, *b;			/* its machine and build objects */
};

static void board(const struct mcol *x, char *buf, size_t len)
{
	const char *model = json_string_value(json_object_get(x->m, "dt_model"));
	if (!model)
		model = json_string_value(json_object_get(x->m, "dmi_product"));
	if (model && strcmp(model, x->col->board) != 0)
		snprintf(buf, len, "%s (%s)", x->col->board, model);
	else
		snprintf(buf, len, "%s", x->col->board);
}

/* big.LITTLE: each distinct model once, with how many cores have it. */
static void cpu_models(const struct mcol *x, char *buf, size_t len)
{
	json_t *cpus = json_object_get(x->m, "cpus"), *c;
	size_t i, at = 0;
	const char *seen[16];
	int count[16], nseen = 0;
	buf[0] = '\0';
	json_array_foreach(cpus, i, c) {
		const char *model = json_string_value(json_object_get(c, "model"));
		if (!model)
			continue;
		int k = 0;
		while (k < nseen && strcmp(seen[k], model) != 0)
			k++;
		if (k == nseen && nseen < 16) {
			seen[nseen] = model;
			count[nseen++] = 0;
		}
		if (k < nseen)
			count[k]++;
	}
	for (int k = 0; k < nseen && at < len; k++) {
		int w = nseen > 1 ? snprintf(buf + at, len - at, "%s%d x %s", k ? " + " : "", count[k], seen[k])
				  : snprintf(buf + at, len - at, "%s", seen[k]);
		if (w < 0)
			break;
		at += (size_t)w;
	}
	if (!buf[0]) {
		const char *arch = json_string_value(json_object_get(x->m, "arch"));
		snprintf(buf, len, "%s", arch ? arch : "");
	}
}

static void cores(const struct mcol *x, char *buf, size_t len)
{
	json_int_t n = json_integer_value(json_object_get(x->m, "cpus_online"));
	if (n)
		snprintf(buf, len, "%lld", (long long)n);
}

static void frequency(const struct mcol *x, char *buf, size_t len)
{
	json_t *pol = json_object_get(x->m, "cpufreq"), *p;
	size_t i;
	json_int_t lo = 0, hi = 0;
	json_array_foreach(pol, i, p) {
		json_int_t k = json_integer_value(json_object_get(p, "max_khz"));
		if (k && (!lo || k < lo))
			lo = k;
		if (k > hi)
			hi = k;
	}
	if (hi && lo != hi)
		snprintf(buf, len, "%lld-%lld MHz", (long long)lo / 1000, (long long)hi / 1000);
	else if (hi)
		snprintf(buf, len, "%lld MHz", (long long)hi / 1000);
}

static void memory(const struct mcol *x, char *buf, size_t len)
{
	json_int_t mem = json_integer_value(json_object_get(x->m, "mem_total"));
	if (mem)
		snprintf(buf, len, "%.0f MiB", (double)mem / 1048576.0);
}

static void kernel(const struct mcol *x, char *buf, size_t len)
{
	const char *k = json_string_value(json_object_get(x->m, "kernel_release"));
	snprintf(buf, len, "%s", k ? k : "");
}

static void compiler(const struct mcol *x, char *buf, size_t len)
{
	const char *k = json_string_value(json_object_get(x->b, "compiler"));
	snprintf(buf, len, "%s", k ? k : "");
}

static void version(const struct mcol *x, char *buf, size_t len)
{
	snprintf(buf, len, "%s", x->run->version ? x->run->version : "");
}

static void runs(const struct mcol *x, char *buf, size_t len)
{
	if (x->col->nruns > 1)
		snprintf(buf, len, "%d runs merged, latest %s", x->col->nruns, x->run->id);
	else
		snprintf(buf, len, "%s", x->run->id);
}

static const struct {
	const char *name;
	void (*value)(const struct mcol *x, char *buf, size_t len);
} fields[] = {
	{ "Board", board }, { "CPU", cpu_models }, { "Cores", cores }, { "Frequency", frequency },
	{ "Memory", memory }, { "Kernel", kernel }, { "Compiler", compiler }, { "perfguide", version },
	{ "Runs", runs },
};
#define NFIELDS ((int)(sizeof(fields) / sizeof(fields[0])))

/* The facts as text, NFIELDS per column. */
static int machine_values(const struct pg_guide *g, char (*v)[512])
{
	for (int c = 0; c < g->ncols; c++) {
		struct mcol x = { .col = &g->cols[c], .run = g->cols[c].runs[g->cols[c].nruns - 1] };
		x.m = json_loads(x.run->machine ? x.run->machine : "{}", 0, NULL);
		x.b = json_loads(x.run->build ? x.run->build : "{}", 0, NULL);
		for (int f = 0; f < NFIELDS; f++) {
			char *buf = v[c * NFIELDS + f];
			buf[0] = '\0';
			fields[f].value(&x, buf, sizeof(v[0]));
			pg_utf8_trim(buf);	/* a long name cut where a character ends */
		}
		json_decref(x.m);
		json_decref(x.b);
	}
	return 0;
}

int pg_table_machines(const struct pg_guide *g, struct pg_table *t)
{
	memset(t, 0, sizeof(*t));
	t->title = t->caption = "Machines";
	char (*v)[512] = calloc((size_t)g->ncols * NFIELDS + 1, sizeof(*v));
	if (!v)
		return -1;
	machine_values(g, v);
	int keep[NFIELDS], n = 0;
	for (int f = 0; f < NFIELDS; f++) {
		int any = 0;
		for (int c = 0; c < g->ncols; c++)
			any |= v[c * NFIELDS + f][0] != '\0';
		if (any)
			keep[n++] = f;
	}
	int rc = pg_table_alloc(t, n, g->ncols + 1) | pg_table_set(&t->head[0], PG_T_NAME, -1, "%s", "");
	for (int c = 0; c < g->ncols; c++)
		rc |= pg_table_set(&t->head[c + 1], PG_T_TEXT, c, "%s", g->cols[c].board);
	for (int r = 0; r < n && rc == 0; r++) {
		rc |= pg_table_set(pg_table_cell(t, r, 0), PG_T_NAME, -1, "%s", fields[keep[r]].name);
		for (int c = 0; c < g->ncols; c++)
			rc |= pg_table_set(pg_table_cell(t, r, c + 1), PG_T_TEXT, c, "%s", v[c * NFIELDS + keep[r]]);
	}
	free(v);
	return rc ? -1 : 0;
}
