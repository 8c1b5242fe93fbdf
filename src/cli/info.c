/* SPDX-License-Identifier: MIT */
/* perfguide info: the machine's identity, as recorded with every run. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help.h"
#include "core/params.h"
#include "core/text.h"
#include "core/sysinfo.h"
#include "core/libs.h"
#include "pg_build.h"
#ifdef PG_HAVE_JANSSON
#include "core/results.h"
#endif

enum { O_JSON = 256 };

static const struct pg_opt info_opts[] = {
	{ "json", 0, O_JSON, NULL, "the same as JSON, as it appears in a results file's run record" },
	PG_OPT_END,
};

const struct pg_cmd_doc pg_doc_info = {
	.name = "info",
	.summary = "this machine's identity",
	.usage = "[--json]",
	.intro = "Shows what perfguide records about this machine with every run: board model (device tree, "
		 "DMI or hostname) and the device tree's compatible strings, CPUs (ARM: the core each is, from "
		 "its implementer and part), clusters (identical cores on one clock), cpufreq policies "
		 "(governor, limits, and the hardware's), whether it is virtual or emulated (KVM or another "
		 "hypervisor, qemu-system, qemu-user), thermal zones, caches, memory, kernel, command line, "
		 "libc, the compiler and flags this binary was built with, the optional libraries it has "
		 "(backends) and why it lacks the others, and each library's version: the one it runs with, the "
		 "one it was built with where they differ, and the Debian package it was built from (with the "
		 "distribution's patch level, for checking a board's binary against a security advisory). "
		 "What the machine does not expose is left out.",
	.opts = info_opts,
	.exit_status = "0 shown, 2 bad usage.",
};

static void row(const char *k, const char *v)
{
	if (v && v[0])
		printf("%-16s %s\n", k, v);
}

/* "cluster1  2 x Cortex-A72, cpus 4-5": the CPUs of each cluster as ranges. */
static void print_clusters(const struct pg_machine *m)
{
	for (int k = 0; k < m->ncluster; k++) {
		char b[200] = "", key[32];
		const char *name = NULL;
		int n = 0, at = 0, prev = -2, first = -1;
		for (int i = 0; i <= m->ncpu; i++) {
			int in = i < m->ncpu && m->cpu[i].cluster == k;
			int id = in ? m->cpu[i].id : -2;
			if (in && !name)
				name = m->cpu[i].core[0] ? m->cpu[i].core : m->cpu[i].model;
			n += in;
			/* a range ends where the next CPU of the cluster is not id + 1 */
			if (first >= 0 && id != prev + 1 && at < (int)sizeof(b) - 40) {
				at += snprintf(b + at, sizeof(b) - (size_t)at, prev > first ? "%s%d-%d" : "%s%d",
					       at ? "," : "", first, prev);
				first = -1;
			}
			if (in && first < 0)
				first = id;
			prev = id;
		}
		char line[400];
		snprintf(line, sizeof(line), "%d x %.128s, cpus %s", n, name && name[0] ? name : "?", b);
		snprintf(key, sizeof(key), "cluster%d", k);
		row(key, line);
	}
}

/* cpus 0-3, schedutil, 200-1400 MHz of 200-1800 (capped), now 1400 MHz */
static void print_policy(const struct pg_freq_policy *p)
{
	char b[400], hw[96] = "";
	if (p->cpuinfo_max_khz)
		snprintf(hw, sizeof(hw), " of %ld-%ld%s", p->cpuinfo_min_khz / 1000, p->cpuinfo_max_khz / 1000,
			 p->max_khz && p->max_khz < p->cpuinfo_max_khz ? " (capped below the hardware's maximum)" : "");
	snprintf(b, sizeof(b), "cpus %s, %s, %ld-%ld MHz%s, now %ld MHz", p->cpus, p->governor[0] ? p->governor : "?",
		 p->min_khz / 1000, p->max_khz / 1000, hw, p->cur_khz / 1000);
	row(p->name, b);
}

/* kvm; qemu-user (emulated: an aarch64 binary on an x86_64 kernel); thermal zones. */
static void print_identity(const struct pg_machine *m)
{
	char b[256];
	if (m->virt[0]) {
		int n = snprintf(b, sizeof(b), "%s%s", m->virt, m->emulated ? " (emulated: figures are not the hardware's)" : "");
		if (m->container[0] && strcmp(m->virt, "container") != 0 && n > 0 && (size_t)n < sizeof(b))
			snprintf(b + n, sizeof(b) - (size_t)n, ", in a %s container", m->container);
		row("virtual", b);
	}
	if (m->kernel_arch[0]) {
		snprintf(b, sizeof(b), "%s (this binary is %s)", m->kernel_arch, m->binary_arch);
		row("kernel arch", b);
	}
	for (int i = 0; i < m->nthermal; i++) {
		char k[32];
		snprintf(k, sizeof(k), "thermal%d", m->thermal[i].zone);
		snprintf(b, sizeof(b), "%s, %.1f C", m->thermal[i].type[0] ? m->thermal[i].type : "?",
			 (double)m->thermal[i].temp_mc / 1000);
		row(k, b);
	}
}

/* "lib openssl      3.0.17, from libssl-dev:arm64 3.0.17-1~deb12u2" */
static void print_libs(void)
{
	struct pg_lib libs[PG_LIBS_MAX];
	int n = pg_libs_read(libs);
	for (int i = 0; i < n; i++) {
		char k[32], b[200];
		snprintf(k, sizeof(k), "lib %s", libs[i].key);
		pg_lib_describe(&libs[i], b, sizeof(b));
		row(k, b);
	}
}

static void print_text(const struct pg_machine *m)
{
	char b[256];
	snprintf(b, sizeof(b), "%s (from %s)", m->board, m->board_source);
	row("board", b);
	row("device tree", m->dt_model);
	row("compatible", m->dt_compatible);
	row("dmi vendor", m->dmi_vendor);
	row("dmi product", m->dmi_product);
	row("hostname", m->hostname);
	row("arch", m->arch);
	print_identity(m);
	snprintf(b, sizeof(b), "%d online, %d configured", m->cpus_online, m->cpus_configured);
	row("cpus", b);
	/* Consecutive CPUs of the same model print as one line. */
	for (int i = 0; i < m->ncpu;) {
		int j = i;
		while (j + 1 < m->ncpu && strcmp(m->cpu[j + 1].model, m->cpu[i].model) == 0)
			j++;
		char k[32];
		if (j > i)
			snprintf(k, sizeof(k), "cpu%d-%d", m->cpu[i].id, m->cpu[j].id);
		else
			snprintf(k, sizeof(k), "cpu%d", m->cpu[i].id);
		row(k, m->cpu[i].model[0] ? m->cpu[i].model : "?");
		i = j + 1;
	}
	print_clusters(m);
	for (int i = 0; i < m->npolicy; i++)
		print_policy(&m->policy[i]);
	if (!m->npolicy)
		row("cpufreq", "none (no /sys/devices/system/cpu/cpufreq)");
	for (int i = 0; i < m->ncache; i++) {
		const struct pg_cache_info *c = &m->cache[i];
		char sz[32], k[32];
		pg_format_size(c->size, sz, sizeof(sz));
		snprintf(k, sizeof(k), "L%d %s", c->level, c->type);
		snprintf(b, sizeof(b), "%s x %d, %d-byte lines, first shared by cpus %s", sz, c->count,
			 c->line, c->shared_cpus[0] ? c->shared_cpus : "?");
		row(k, b);
	}
	if (m->mem_total) {
		snprintf(b, sizeof(b), "%.1f MiB total, %.1f MiB available",
			 (double)m->mem_total / 1048576, (double)m->mem_available / 1048576);
		row("memory", b);
	}
	row("kernel", m->kernel_release);
	row("kernel version", m->kernel_version);
	row("cmdline", m->cmdline);
	row("libc", m->libc);
	row("compiler", m->compiler);
	row("cflags", m->cflags);
	row("perfguide", m->version);
	row("commit", PG_COMMIT);
	row("backends", PG_BACKENDS);
	row("without", PG_BACKENDS_MISSING);
	print_libs();
}

#ifdef PG_HAVE_JANSSON
static int info_print_json(const struct pg_machine *m)
{
	char *s = pg_machine_json_text(m);
	if (s && pg_json_write_safe(stdout, s) == 0)
		putchar('\n');
	free(s);
	return PG_EXIT_OK;
}
#else
static int info_print_json(const struct pg_machine *m)
{
	(void)m;
	return pg_usage_error("info: --json needs a build with jansson (install libjansson-dev" PG_DEB_ARCH_SUFFIX
			      " and rebuild)");
}
#endif

int pg_cmd_info(int argc, char **argv)
{
	struct pg_getopt g;
	int json = 0, c;
	pg_getopt_tables(&pg_doc_info, &g);
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		switch (c) {
		case O_JSON: json = 1; break;
		case 'h': pg_help_print(stdout, &pg_doc_info); return PG_EXIT_OK;
		default: return pg_usage_error("info: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return pg_usage_error("info: unexpected argument '%s'", argv[optind]);
	struct pg_machine m;
	int rc = PG_EXIT_OK;
	pg_machine_read(&m);
	if (json)
		rc = info_print_json(&m);
	else
		print_text(&m);
	pg_machine_free(&m);
	return rc;
}
