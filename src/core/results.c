/* SPDX-License-Identifier: MIT */
#include "results.h"

#include "hist.h"
#include "procs.h"
#include "record_json.h"
#include "timer.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "pg_build.h"
#include "core/libs.h"

#define SCHEMA "perfguide/1"
#define DUMP_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(12))

static void emit(struct pg_results *w, json_t *rec)
{
	for (int i = 0; i < w->nsinks; i++) {
		FILE *f = w->sink[i];
		if (pg_json_dumpf_safe(rec, f, DUMP_FLAGS) < 0 || fputc('\n', f) == EOF || fflush(f) == EOF) {
			if (!w->failed && i == 0)
				fprintf(stderr, "perfguide: writing %s: %s\n",
					w->path ? w->path : "results", strerror(errno));
			w->failed = 1;
		}
	}
	json_decref(rec);
}

static void set_str(json_t *o, const char *k, const char *v)
{
	if (v && v[0])
		json_object_set_new(o, k, json_string(v));
}

static void set_int(json_t *o, const char *k, long long v)
{
	if (v)
		json_object_set_new(o, k, json_integer(v));
}

/* Virtual or emulated, and the thermal zones at the start (virt.c). */
static void identity_json(json_t *o, const struct pg_machine *m)
{
	set_str(o, "virt", m->virt);
	if (m->virt[0])
		json_object_set_new(o, "emulated", json_boolean(m->emulated));
	set_str(o, "container", m->container);
	set_str(o, "binary_arch", m->binary_arch);
	set_str(o, "kernel_arch", m->kernel_arch);
	if (!m->nthermal)
		return;
	json_t *a = json_array();
	for (int i = 0; i < m->nthermal; i++) {
		json_t *z = json_object();
		json_object_set_new(z, "zone", json_integer(m->thermal[i].zone));
		set_str(z, "type", m->thermal[i].type);
		json_object_set_new(z, "temp_mc", json_integer(m->thermal[i].temp_mc));
		json_array_append_new(a, z);
	}
	json_object_set_new(o, "thermal", a);
}

static json_t *machine_json(const struct pg_machine *m)
{
	json_t *o = json_object();
	set_str(o, "board", m->board);
	set_str(o, "board_source", m->board_source);
	set_str(o, "dt_model", m->dt_model);
	set_str(o, "dt_compatible", m->dt_compatible);
	set_str(o, "dmi_vendor", m->dmi_vendor);
	set_str(o, "dmi_product", m->dmi_product);
	set_str(o, "hostname", m->hostname);
	set_str(o, "arch", m->arch);
	set_int(o, "cpus_online", m->cpus_online);
	set_int(o, "cpus_configured", m->cpus_configured);

	json_t *cpus = json_array();
	for (int i = 0; i < m->ncpu; i++) {
		const struct pg_cpu_info *c = &m->cpu[i];
		json_t *j = json_object();
		json_object_set_new(j, "id", json_integer(c->id));
		set_str(j, "model", c->model);
		set_str(j, "implementer", c->implementer);
		set_str(j, "part", c->part);
		set_str(j, "variant", c->variant);
		set_str(j, "revision", c->revision);
		set_str(j, "core", c->core);
		if (c->cluster >= 0)
			json_object_set_new(j, "cluster", json_integer(c->cluster));
		if (c->mhz > 0 && c->mhz < 1e6)
			json_object_set_new(j, "mhz", json_real(c->mhz));
		json_array_append_new(cpus, j);
	}
	json_object_set_new(o, "cpus", cpus);

	json_t *pol = json_array();
	for (int i = 0; i < m->npolicy; i++) {
		const struct pg_freq_policy *p = &m->policy[i];
		json_t *j = json_object();
		set_str(j, "policy", p->name);
		set_str(j, "cpus", p->cpus);
		set_str(j, "governor", p->governor);
		set_int(j, "min_khz", p->min_khz);
		set_int(j, "max_khz", p->max_khz);
		set_int(j, "cur_khz", p->cur_khz);
		set_int(j, "cpuinfo_min_khz", p->cpuinfo_min_khz);
		set_int(j, "cpuinfo_max_khz", p->cpuinfo_max_khz);
		json_array_append_new(pol, j);
	}
	json_object_set_new(o, "cpufreq", pol);

	json_t *caches = json_array();
	for (int i = 0; i < m->ncache; i++) {
		const struct pg_cache_info *c = &m->cache[i];
		json_t *j = json_object();
		json_object_set_new(j, "level", json_integer(c->level));
		set_str(j, "type", c->type);
		json_object_set_new(j, "size", json_integer(c->size));
		json_object_set_new(j, "count", json_integer(c->count));
		set_int(j, "line", c->line);
		set_str(j, "shared_cpus", c->shared_cpus);
		json_array_append_new(caches, j);
	}
	json_object_set_new(o, "caches", caches);

	set_int(o, "mem_total", m->mem_total);
	set_int(o, "mem_available", m->mem_available);
	set_str(o, "kernel_release", m->kernel_release);
	set_str(o, "kernel_version", m->kernel_version);
	set_str(o, "cmdline", m->cmdline);
	set_str(o, "libc", m->libc);
	identity_json(o, m);
	return o;
}

/* libs: each library's version as built (its headers'), libs_running: as
 * it says at run time, libs_packages: the Debian package it came from. */
static void libs_json(json_t *build)
{
	struct pg_lib l[PG_LIBS_MAX];
	int n = pg_libs_read(l);
	json_t *built = json_object(), *running = json_object(), *pkgs = json_object();
	for (int i = 0; i < n; i++) {
		set_str(built, l[i].key, l[i].built);
		set_str(running, l[i].key, l[i].running);
		set_str(pkgs, l[i].key, l[i].package);
	}
	json_object_set_new(build, "libs", built);
	json_object_set_new(build, "libs_running", running);
	json_object_set_new(build, "libs_packages", pkgs);
}

static json_t *build_json(void)
{
	json_t *o = json_object();
	set_str(o, "version", PG_VERSION);
	if (PG_COMMIT[0])
		set_str(o, "commit", PG_COMMIT);
	set_str(o, "compiler", PG_COMPILER);
	set_str(o, "cflags", PG_CFLAGS);
	set_str(o, "build_type", PG_BUILD_TYPE);
	set_str(o, "target", PG_TARGET);
	set_str(o, "backends", PG_BACKENDS);
	set_str(o, "backends_missing", PG_BACKENDS_MISSING);
	libs_json(o);
	return o;
}

static json_t *params_json(const struct pg_args *a)
{
	json_t *o = json_object();
	for (int i = 0; i < a->n; i++) {
		const struct pg_value *v = &a->v[i];
		if (v->param->not_recorded)
			continue;
		json_object_set_new(o, v->param->name, v->param->type == PG_P_STR || pg_value_is_named(v)
					? json_string(v->text) : json_integer(v->num));
	}
	return o;
}

char *pg_params_json_text(const struct pg_args *a)
{
	json_t *o = params_json(a);
	char *t = pg_json_text(o);
	json_decref(o);
	return t;
}

/* "release=09.02" -> {"release":"09.02"} (run_options.c checked them). */
static json_t *labels_json(const char *const *labels, int n)
{
	json_t *o = json_object();
	for (int i = 0; i < n; i++) {
		char key[128];
		const char *eq = strchr(labels[i], '=');
		if (eq && (size_t)(eq - labels[i]) < sizeof(key)) {
			snprintf(key, sizeof(key), "%.*s", (int)(eq - labels[i]), labels[i]);
			json_object_set_new(o, key, json_string(eq + 1));
		}
	}
	return o;
}

void pg_results_run(struct pg_results *w, const struct pg_run_info *ri)
{
	char started[40];
	pg_iso_time(ri->started, started, sizeof(started));
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("run"));
	json_object_set_new(o, "schema", json_string(SCHEMA));
	json_object_set_new(o, "id", json_string(ri->id));
	json_object_set_new(o, "board", json_string(ri->board));
	json_object_set_new(o, "started", json_string(started));
	json_object_set_new(o, "machine", machine_json(ri->machine));
	json_object_set_new(o, "build", build_json());

	json_t *cfg = json_object();
	json_object_set_new(cfg, "suite", json_string(pg_suite_name(ri->suite)));
	json_object_set_new(cfg, "runs", json_integer(ri->runs));
	if (ri->runs == 0) {
		/* the noise-aware runner's settings */
		json_object_set_new(cfg, "min_runs", json_integer(ri->min_runs));
		json_object_set_new(cfg, "max_runs", json_integer(ri->max_runs));
		json_object_set_new(cfg, "ci_target", json_real(ri->ci_target));
		json_object_set_new(cfg, "max_time", json_real(ri->max_time));
	}
	if (ri->budget > 0)
		json_object_set_new(cfg, "budget_s", json_real(ri->budget));
	json_object_set_new(cfg, "min_time", json_real(ri->min_time));
	if (ri->iters)
		json_object_set_new(cfg, "iterations", json_integer((json_int_t)ri->iters));
	if (ri->processes)
		json_object_set_new(cfg, "processes", json_integer(ri->processes));
	if (ri->runs == 0 && ri->max_processes > ri->processes)
		json_object_set_new(cfg, "max_processes", json_integer(ri->max_processes));
	json_t *sel = json_array();
	for (int i = 0; i < ri->nselectors; i++)
		json_array_append_new(sel, json_string(ri->selectors[i]));
	json_object_set_new(cfg, "selectors", sel);
	json_t *ov = json_object();
	for (int i = 0; i < ri->noverrides; i++)
		if (!ri->overrides[i].not_recorded)
			json_object_set_new(ov, ri->overrides[i].name, json_string(ri->overrides[i].values));
	json_object_set_new(cfg, "params", ov);
	if (ri->ncpus) {
		json_t *c = json_array();
		for (int i = 0; i < ri->ncpus; i++)
			json_array_append_new(c, json_integer(ri->cpus[i]));
		json_object_set_new(cfg, "cpus", c);
	}
	json_object_set_new(o, "config", cfg);
	json_t *secs = json_array();
	for (int i = 0; i < ri->nsections; i++)
		json_array_append_new(secs, pg_section_to_json(ri->sections[i]));
	json_object_set_new(o, "sections", secs);
	if (ri->nlabels)
		json_object_set_new(o, "labels", labels_json(ri->labels, ri->nlabels));
	emit(w, o);
}

/* Sparse: [lowest ns of the bucket, values in it] for each bucket in use,
 * with the exact count, min, max and sum. */
static json_t *hist_json(const struct pg_hist *h)
{
	json_t *o = json_object(), *b = json_array();
	json_object_set_new(o, "unit", json_string("ns"));
	json_object_set_new(o, "count", json_integer((json_int_t)h->count));
	json_object_set_new(o, "min", json_integer((json_int_t)h->min));
	json_object_set_new(o, "max", json_integer((json_int_t)h->max));
	json_object_set_new(o, "sum", json_real(h->sum));
	for (int i = 0; i < PG_HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		uint64_t lo, width;
		pg_hist_bucket_range(i, &lo, &width);
		json_t *pair = json_array();
		json_array_append_new(pair, json_integer((json_int_t)lo));
		json_array_append_new(pair, json_integer((json_int_t)h->bucket[i]));
		json_array_append_new(b, pair);
	}
	json_object_set_new(o, "buckets", b);
	return o;
}

static int is_hist_metric(const struct pg_metric *m)
{
	return m->kind == PG_HIST_MEAN || m->kind == PG_HIST_Q;
}

/* JSON text in the order it was built (the writer's output keeps it). */
static char *dump_ordered(json_t *o)
{
	char *t = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
	json_decref(o);
	return t;
}

/* Each process's median of metric m and its sample count, and whether
 * they disagree (core/procs.h): a result measured in several processes. */
static void processes_json(const struct pg_result *r, int m, struct pg_record *x)
{
	if (r->nprocs < 2)
		return;
	json_t *a = json_array();
	for (int k = 0, at = 0; k < r->nprocs; at += r->proc_n[k++]) {
		struct pg_stats st;
		pg_stats_compute(r->values[m] + at, (size_t)r->proc_n[k], &st);
		json_t *p = json_object();
		json_object_set_new(p, "median", json_real(st.median));
		json_object_set_new(p, "n", json_integer(r->proc_n[k]));
		json_array_append_new(a, p);
	}
	x->processes = dump_ordered(a);
	x->processes_bimodal = r->proc_bimodal[m];
	if (x->processes_bimodal) {
		char why[PG_MSG_LEN];
		pg_procs_bimodal(r->values[m], r->proc_n, r->nprocs, why, sizeof(why));
		x->bimodal_why = strdup(why);
	}
}

/* The record of metric m of r; the caller frees it. */
static void to_record(const struct pg_result *r, int m, struct pg_record *x)
{
	const struct pg_bench *b = r->bench;
	memset(x, 0, sizeof(*x));
	json_t *params = params_json(r->args);
	x->bench = strdup(b->id);
	x->params = pg_json_text(params);
	json_decref(params);
	x->metric = strdup(b->metrics[m].name);
	x->unit = strdup(b->metrics[m].unit);
	x->higher = b->metrics[m].higher_is_better;
	x->status = r->status;
	x->section = b->section ? pg_strdup0(b->section->title) : NULL;
	/* what names the row in the guide, whatever the status */
	if (b->label) {
		char label[128] = "";
		b->label(b, r->args, b->metrics[m].name, label, sizeof(label));
		x->label = label[0] ? strdup(label) : NULL;
	}
	x->title = pg_strdup0(b->title);
	if (r->status != PG_OK) {
		x->reason = strdup(r->reason);
		return;
	}
	const struct pg_stats *st = &r->stats[m];
	x->samples = r->values[m];
	x->nsamples = r->nsamples;
	x->median = st->median;
	x->min = st->min;
	x->max = st->max;
	x->mean = st->mean;
	x->stddev = st->stddev;
	x->cv = st->cv;
	x->noisy = st->cv > PG_NOISY_CV;
	/* The median's 95% interval (core/stats.h), why the samples stopped
	 * there and the time the result had (0: no cap). */
	x->ci_lo = st->ci_lo;
	x->ci_hi = st->ci_hi;
	x->ci_level = st->ci_level;
	x->ci_rel = st->ci_rel;
	x->stop = strdup(pg_stop_name(r->stop));
	x->cap_s = r->cap;
	if (st->bimodal) {
		x->bimodal = malloc(2 * sizeof(double));
		if (x->bimodal) {
			x->bimodal[0] = st->mode_lo;
			x->bimodal[1] = st->mode_hi;
			x->nbimodal = 2;
			x->bimodal_low_n = st->n_lo;
		}
	}
	processes_json(r, m, x);
	x->iterations = (int64_t)r->iters;
	x->copies = r->copies;
	x->sample_s = r->elapsed;
	x->nsample_s = r->nsamples;
	json_t *cpu = json_object();
	if (r->cpu.have_busy)
		json_object_set_new(cpu, "busy_pct", json_real(r->cpu.busy_pct));
	json_object_set_new(cpu, "self_user_s", json_real(r->cpu.self_user_s));
	json_object_set_new(cpu, "self_sys_s", json_real(r->cpu.self_sys_s));
	if (r->cpu.have_busy)
		json_object_set_new(cpu, "self_pct", json_real(r->cpu.self_pct));
	if (r->cpu.have_remote)
		json_object_set_new(cpu, "remote_busy_pct", json_real(r->cpu.remote_busy_pct));
	x->cpu = dump_ordered(cpu);
	x->note = r->note[0] ? strdup(r->note) : NULL;
	if (r->have_env) {
		char env[1024], why[1024];
		pg_env_json(&r->env, env, sizeof(env));
		pg_env_why(&r->env, why, sizeof(why));
		x->env = strdup(env);
		x->disturbed = r->disturbed;
		x->disturbed_why = why[0] ? strdup(why) : NULL;
	}
}

void pg_results_result(struct pg_results *w, const struct pg_result *r)
{
	/* A skipped or failed benchmark is one record, under its primary metric. */
	int n = r->status == PG_OK ? r->nmetrics : 1, hist_done = 0;
	for (int m = 0; m < n; m++) {
		struct pg_record x;
		to_record(r, m, &x);
		/* The histogram once per benchmark, on its first latency metric. */
		if (r->status == PG_OK && r->hist && !hist_done && is_hist_metric(&r->bench->metrics[m])) {
			x.hist = dump_ordered(hist_json(r->hist));
			hist_done = 1;
		}
		emit(w, pg_record_to_json(&x));
		/* the samples are the runner's */
		x.samples = x.sample_s = NULL;
		pg_record_free(&x);
	}
}

void pg_results_end(struct pg_results *w, int interrupted)
{
	char t[40];
	pg_iso_time(pg_wall_time(), t, sizeof(t));
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("end"));
	json_object_set_new(o, "finished", json_string(t));
	json_object_set_new(o, "status", json_string(interrupted ? "interrupted" : "complete"));
	emit(w, o);
}

char *pg_machine_json_text(const struct pg_machine *m)
{
	json_t *o = machine_json(m);
	json_object_set_new(o, "build", build_json());
	char *s = json_dumps(o, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
	json_decref(o);
	return s;
}
