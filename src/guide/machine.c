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
	const struct pg_guide *g;
	const struct pg_gcol *col;
	const struct pg_rrun *run;	/* the latest of the column */
	json_t *m, *b, *cfg;		/* its machine, build and config objects */
};

static void board(const struct mcol *x, char *buf, size_t len)
{
	const char *model = json_string_value(json_object_get(x->m, "dt_model"));
	if (!model)
		model = json_string_value(json_object_get(x->m, "dmi_product"));
	if (model && strcmp(model, x->col->board) != 0 && strcmp(model, x->col->name) != 0)
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

static void arch(const struct mcol *x, char *buf, size_t len)
{
	const char *a = json_string_value(json_object_get(x->m, "arch"));
	const char *k = json_string_value(json_object_get(x->m, "kernel_arch"));
	if (a && k && strcmp(a, k) != 0)
		snprintf(buf, len, "%s (kernel %s)", a, k);
	else
		snprintf(buf, len, "%s", a ? a : "");
}

/* The policies' highest frequency: the hardware's (cpuinfo_max_khz) where
 * recorded, else what the policy allows. */
static void frequency(const struct mcol *x, char *buf, size_t len)
{
	json_t *pol = json_object_get(x->m, "cpufreq"), *p;
	size_t i;
	json_int_t lo = 0, hi = 0;
	json_array_foreach(pol, i, p) {
		json_int_t k = json_integer_value(json_object_get(p, "cpuinfo_max_khz"));
		if (!k)
			k = json_integer_value(json_object_get(p, "max_khz"));
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

static void governor(const struct mcol *x, char *buf, size_t len)
{
	json_t *pol = json_object_get(x->m, "cpufreq"), *p;
	size_t i, at = 0;
	buf[0] = '\0';
	json_array_foreach(pol, i, p) {
		const char *gov = json_string_value(json_object_get(p, "governor"));
		if (!gov || strstr(buf, gov))
			continue;
		int w = snprintf(buf + at, len - at, "%s%s", at ? ", " : "", gov);
		if (w < 0 || (size_t)w >= len - at)
			break;
		at += (size_t)w;
	}
}

/* Whether the CPU was emulated (qemu: the figures are not the
 * hardware's), and the virtual machine or container it ran in. */
static void emulation(const struct mcol *x, char *buf, size_t len)
{
	const char *virt = json_string_value(json_object_get(x->m, "virt"));
	json_t *e = json_object_get(x->m, "emulated");
	if (json_is_true(e))
		snprintf(buf, len, "yes (%s): not the hardware's speed", virt && virt[0] ? virt : "an emulator");
	else if (virt && strcmp(virt, "qemu") == 0)	/* an ARM guest cannot tell KVM from TCG */
		snprintf(buf, len, "perhaps (qemu, with KVM or emulated: the guest cannot tell)");
	else if (virt && virt[0] && strcmp(virt, "none") != 0)
		snprintf(buf, len, "no (%s)", virt);
	else if (json_is_false(e) || virt)
		snprintf(buf, len, "no");
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

static void labels(const struct mcol *x, char *buf, size_t len)
{
	pg_labels_text(x->col->labels, buf, len);
}

/* When the column's latest run started (its date). */
static void date(const struct mcol *x, char *buf, size_t len)
{
	const char *t = x->run->started;
	snprintf(buf, len, "%.10s", t ? t : "");
}

/* The runs the column's figures are from: merged, or the latest result of
 * each benchmark and the runs they came from, newest first. */
static void runs(const struct mcol *x, char *buf, size_t len)
{
	const struct pg_gcol *c = x->col;
	int used = 0;
	for (int k = 0; k < c->nruns; k++)
		used += c->used[k] > 0;
	if (c->nruns > 1 && x->g->opts.merge == PG_MERGE_ALL) {
		snprintf(buf, len, "%d runs merged, latest %s", c->nruns, x->run->id);
		return;
	}
	if (used <= 1) {
		snprintf(buf, len, "%s", x->run->id);
		for (int k = 0; k < c->nruns; k++)
			if (c->used[k])
				snprintf(buf, len, "%s", c->runs[k]->id);
		return;
	}
	size_t at = (size_t)snprintf(buf, len, "latest of each benchmark, from ");
	for (int k = c->nruns - 1; k >= 0 && at < len; k--)
		if (c->used[k])
			at += (size_t)snprintf(buf + at, len - at, "%s (%d results)%s", c->runs[k]->id, c->used[k],
					       --used ? ", " : "");
	if (at >= len)
		pg_utf8_trim(buf);
}

/* How each result was sampled: the run's settings. */
static void sampling(const struct mcol *x, char *buf, size_t len)
{
	json_int_t runs = json_integer_value(json_object_get(x->cfg, "runs"));
	json_int_t lo = json_integer_value(json_object_get(x->cfg, "min_runs"));
	json_int_t hi = json_integer_value(json_object_get(x->cfg, "max_runs"));
	json_int_t iters = json_integer_value(json_object_get(x->cfg, "iterations"));
	double ci = json_number_value(json_object_get(x->cfg, "ci_target"));
	int at = 0;
	buf[0] = '\0';
	if (runs > 0)
		at = snprintf(buf, len, "%lld samples per result", (long long)runs);
	else if (hi > 0)
		at = snprintf(buf, len, "%lld to %lld samples per result, until the median is known to +/-%.0f%%",
			      (long long)lo, (long long)hi, ci * 100);
	if (iters > 0 && at >= 0 && (size_t)at < len)
		snprintf(buf + at, len - (size_t)at, "%s%lld iterations per sample", at ? "; " : "", (long long)iters);
}

static void pinning(const struct mcol *x, char *buf, size_t len)
{
	json_t *cpus = json_object_get(x->cfg, "cpus"), *c;
	size_t i, at = 0;
	buf[0] = '\0';
	json_array_foreach(cpus, i, c) {
		int w = snprintf(buf + at, len - at, "%s%lld", at ? "," : "CPU ", (long long)json_integer_value(c));
		if (w < 0 || (size_t)w >= len - at)
			break;
		at += (size_t)w;
	}
}

static const struct {
	const char *name;
	void (*value)(const struct mcol *x, char *buf, size_t len);
} fields[] = {
	{ "Board", board }, { "Architecture", arch }, { "CPU", cpu_models }, { "Cores", cores },
	{ "Frequency", frequency }, { "Governor", governor }, { "Memory", memory }, { "Kernel", kernel },
	{ "Emulated CPU", emulation }, { "Compiler", compiler }, { "perfguide", version },
	{ "Labels", labels }, { "Date", date }, { "Runs", runs }, { "Sampling", sampling },
	{ "Pinned to", pinning },
};
#define NFIELDS ((int)(sizeof(fields) / sizeof(fields[0])))

/* The facts as text, NFIELDS per column. */
static int machine_values(const struct pg_guide *g, char (*v)[512])
{
	for (int c = 0; c < g->ncols; c++) {
		struct mcol x = { .g = g, .col = &g->cols[c], .run = g->cols[c].runs[g->cols[c].nruns - 1] };
		x.m = json_loads(x.run->machine ? x.run->machine : "{}", 0, NULL);
		x.b = json_loads(x.run->build ? x.run->build : "{}", 0, NULL);
		x.cfg = json_loads(x.run->config ? x.run->config : "{}", 0, NULL);
		for (int f = 0; f < NFIELDS; f++) {
			char *buf = v[c * NFIELDS + f];
			buf[0] = '\0';
			fields[f].value(&x, buf, sizeof(v[0]));
			pg_utf8_trim(buf);	/* a long name cut where a character ends */
		}
		json_decref(x.m);
		json_decref(x.b);
		json_decref(x.cfg);
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
		rc |= pg_table_set(&t->head[c + 1], PG_T_TEXT, c, "%s", g->cols[c].name);
	for (int r = 0; r < n && rc == 0; r++) {
		rc |= pg_table_set(pg_table_cell(t, r, 0), PG_T_NAME, -1, "%s", fields[keep[r]].name);
		for (int c = 0; c < g->ncols; c++)
			rc |= pg_table_set(pg_table_cell(t, r, c + 1), PG_T_TEXT, c, "%s", v[c * NFIELDS + keep[r]]);
	}
	free(v);
	return rc ? -1 : 0;
}
