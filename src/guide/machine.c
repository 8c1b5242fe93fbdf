/* SPDX-License-Identifier: MIT */
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
#include "core/params.h"
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

/* A run imported from a published table (import --table): its column
 * shows what the table says, and where it came from. */
static int from_table(const struct pg_rrun *r)
{
	return r->version && strcmp(r->version, "published table") == 0;
}

/* /proc/cpuinfo's MHz per CPU ("cpu MHz", x86: the clock when it was
 * read): the range over the CPUs; 0 when none says. */
static void cpuinfo_mhz(const struct mcol *x, double *lo, double *hi)
{
	json_t *cpus = json_object_get(x->m, "cpus"), *c;
	size_t i;
	*lo = *hi = 0;
	json_array_foreach(cpus, i, c) {
		double mhz = json_number_value(json_object_get(c, "mhz"));
		if (mhz > 0 && (!*lo || mhz < *lo))
			*lo = mhz;
		if (mhz > *hi)
			*hi = mhz;
	}
}

/* The policies' highest frequency: the hardware's (cpuinfo_max_khz) where
 * recorded, else what the policy allows; without cpufreq, /proc/cpuinfo's
 * MHz, the source said. */
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
	double mlo, mhi;
	cpuinfo_mhz(x, &mlo, &mhi);
	if (hi && lo != hi)
		snprintf(buf, len, "%lld-%lld MHz", (long long)lo / 1000, (long long)hi / 1000);
	else if (hi)
		snprintf(buf, len, "%lld MHz", (long long)hi / 1000);
	else if (mhi > 0 && (int)mlo != (int)mhi)
		snprintf(buf, len, "%.0f-%.0f MHz (/proc/cpuinfo when the run started: no cpufreq)", mlo, mhi);
	else if (mhi > 0)
		snprintf(buf, len, "%.0f MHz (/proc/cpuinfo when the run started: no cpufreq)", mhi);
	else if (pol)
		snprintf(buf, len, "not known (no cpufreq, and /proc/cpuinfo gives no MHz)");
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
	if (!buf[0] && json_is_array(pol) && json_array_size(pol) == 0)
		snprintf(buf, len, "none (no cpufreq)");
}

/* "L1d 32k x2, L1i 32k x2, L2 1m x2, L3 32m": each level and type, its
 * size and how many there are. */
static void caches(const struct mcol *x, char *buf, size_t len)
{
	json_t *all = json_object_get(x->m, "caches"), *c;
	size_t i, at = 0;
	buf[0] = '\0';
	json_array_foreach(all, i, c) {
		const char *type = json_string_value(json_object_get(c, "type"));
		json_int_t size = json_integer_value(json_object_get(c, "size"));
		json_int_t count = json_integer_value(json_object_get(c, "count"));
		char sz[32], n[32] = "";
		if (!size)
			continue;
		pg_format_size(size, sz, sizeof(sz));
		if (count > 1)
			snprintf(n, sizeof(n), " x%lld", (long long)count);
		int w = snprintf(buf + at, len - at, "%sL%lld%s %s%s", at ? ", " : "",
				 (long long)json_integer_value(json_object_get(c, "level")),
				 type && strcmp(type, "Data") == 0 ? "d" : type && strcmp(type, "Instruction") == 0 ? "i" : "",
				 sz, n);
		if (w < 0 || (size_t)w >= len - at)
			break;
		at += (size_t)w;
	}
}

/* The container the run was in (it shares the kernel: no effect on the
 * CPU's speed, but on what else shares the machine). */
static void container(const struct mcol *x, char *buf, size_t len)
{
	const char *c = json_string_value(json_object_get(x->m, "container"));
	if (c && c[0])
		snprintf(buf, len, "%s", c);
	else if (json_object_get(x->m, "virt"))
		snprintf(buf, len, "none");
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
		snprintf(buf, len, "perhaps (qemu, with KVM or emulated: the guest cannot tell): perhaps not the "
			 "hardware's speed");
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
	snprintf(buf, len, "%s", x->run->version && !from_table(x->run) ? x->run->version : "");
}

/* One library, "OpenSSL 3.0.19", after the others in buf. */
static void library(char *buf, size_t len, size_t *at, const char *key, json_t *v)
{
	const char *ver = json_string_value(v);
	const char *name = strcmp(key, "openssl") == 0 ? "OpenSSL" : strcmp(key, "sqlite") == 0 ? "SQLite" : key;
	int w = ver && *at < len ? snprintf(buf + *at, len - *at, "%s%s %s", *at ? ", " : "", name, ver) : 0;
	if (w > 0 && (size_t)w < len - *at)
		*at += (size_t)w;
	else if (*at < len)
		buf[*at] = '\0';
}

/* "OpenSSL 3.0.19, SQLite 3.40.1, jansson 2.14": the libraries the run's
 * binary had, at the versions it ran with (build.libs_running; a results
 * file older than those has only jansson's, in build.libs), in the order
 * info lists them whatever order the store kept. */
static void libraries(const struct mcol *x, char *buf, size_t len)
{
	static const char *const order[] = { "openssl", "sqlite", "jansson", "liburing", "libaio", "alsa" };
	json_t *libs = json_object_get(x->b, "libs_running"), *v;
	const char *k;
	size_t at = 0, n = sizeof(order) / sizeof(order[0]), i;
	if (!json_is_object(libs))
		libs = json_object_get(x->b, "libs");
	buf[0] = '\0';
	for (i = 0; i < n; i++)
		library(buf, len, &at, order[i], json_object_get(libs, order[i]));
	json_object_foreach(libs, k, v) {
		for (i = 0; i < n && strcmp(k, order[i]) != 0; i++)
			;
		if (i == n)
			library(buf, len, &at, k, v);
	}
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

/* "published tables: lmbench.csv, linpack.csv" for the column's runs
 * imported from tables (machine.table: the file; older imports say none). */
static size_t tables(const struct pg_gcol *c, char *buf, size_t len)
{
	size_t at = 0;
	int n = 0;
	buf[0] = '\0';
	for (int k = 0; k < c->nruns; k++) {
		json_t *m = from_table(c->runs[k]) && c->runs[k]->machine ? json_loads(c->runs[k]->machine, 0, NULL) : NULL;
		const char *file = json_string_value(json_object_get(m, "table"));
		n += from_table(c->runs[k]);
		if (file && !strstr(buf, file) && at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "", file);
		json_decref(m);
	}
	if (!n)
		return 0;
	char files[400];
	pg_text_copy(files, sizeof(files), buf);
	int w = snprintf(buf, len, "published table%s%s%s", n > 1 ? "s" : "", files[0] ? ": " : "", files);
	if (w < 0 || (size_t)w >= len)
		pg_utf8_trim(buf);
	return strlen(buf);
}

/* The measured runs of the column (used: how many gave figures). */
static void runs_measured(const struct mcol *x, int used, char *buf, size_t len)
{
	const struct pg_gcol *c = x->col;
	int measured = 0;
	for (int k = 0; k < c->nruns; k++)
		measured += !from_table(c->runs[k]);
	if (measured > 1 && x->g->opts.merge == PG_MERGE_ALL) {
		snprintf(buf, len, "%d runs merged, latest %s", measured, x->run->id);
		return;
	}
	if (used <= 1) {
		buf[0] = '\0';
		for (int k = 0; k < c->nruns; k++)
			if (!from_table(c->runs[k]) && (c->used[k] || !buf[0]))
				snprintf(buf, len, "%s", c->runs[k]->id);
		return;
	}
	size_t at = (size_t)snprintf(buf, len, "latest of each benchmark, from ");
	for (int k = c->nruns - 1; k >= 0 && at < len; k--)
		if (c->used[k] && !from_table(c->runs[k]))
			at += (size_t)snprintf(buf + at, len - at, "%s (%d results)%s", c->runs[k]->id, c->used[k],
					       --used ? ", " : "");
	if (at >= len)
		pg_utf8_trim(buf);
}

/* The runs the column's figures are from: merged, or the latest result of
 * each benchmark and the runs they came from, newest first; a published
 * table's one line, not its runs' ids. */
static void runs(const struct mcol *x, char *buf, size_t len)
{
	const struct pg_gcol *c = x->col;
	int used = 0, measured = 0;
	for (int k = 0; k < c->nruns; k++) {
		used += c->used[k] > 0 && !from_table(c->runs[k]);
		measured += !from_table(c->runs[k]);
	}
	size_t at = tables(c, buf, len);
	if (!measured)
		return;
	if (at) {
		char t[512];
		pg_text_copy(t, sizeof(t), buf);
		runs_measured(x, used, buf, len);
		at = strlen(buf);
		snprintf(buf + at, len - at, "; %s", t);
		pg_utf8_trim(buf);
		return;
	}
	runs_measured(x, used, buf, len);
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
	{ "Frequency", frequency }, { "Governor", governor }, { "Caches", caches }, { "Memory", memory },
	{ "Kernel", kernel }, { "Container", container }, { "Emulated CPU", emulation }, { "Compiler", compiler },
	{ "perfguide", version }, { "Libraries", libraries },
	{ "Labels", labels }, { "Date", date }, { "Runs", runs }, { "Sampling", sampling },
	{ "Pinned to", pinning },
};
#define NFIELDS ((int)(sizeof(fields) / sizeof(fields[0])))

/* The facts as text, NFIELDS per column. */
static int machine_values(const struct pg_guide *g, char (*v)[512])
{
	for (int c = 0; c < g->ncols; c++) {
		/* the latest measured run: a published table records no machine */
		struct mcol x = { .g = g, .col = &g->cols[c], .run = g->cols[c].runs[g->cols[c].nruns - 1] };
		for (int k = g->cols[c].nruns - 1; k >= 0 && from_table(x.run); k--)
			x.run = g->cols[c].runs[k];
		if (from_table(x.run))
			x.run = g->cols[c].runs[g->cols[c].nruns - 1];
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
