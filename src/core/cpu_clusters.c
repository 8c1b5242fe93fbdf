/* SPDX-License-Identifier: MIT */
/*
 * Clusters: the groups of identical cores that share a frequency domain,
 * which is what a guide's "4x Cortex-A53 @ 1.4 GHz + 2x Cortex-A72 @ 1.8 GHz"
 * and a per-cluster benchmark (--cpu) mean. Each source the kernel offers
 * splits the CPUs a little, and boards differ in which they have:
 *
 * - topology/physical_package_id and topology/cluster_id (the device
 *   tree's cpu-map clusters, kernels from 5.16; before that, arm64 showed
 *   the cluster as the package),
 * - the cpufreq policy (related_cpus): one per clock domain,
 * - the core itself (big.LITTLE cores differ in "CPU part").
 *
 * CPUs are in one cluster when they agree on all that the machine shows;
 * clusters are numbered from 0 in the order of their first CPU, so the same
 * board gives the same numbers on any kernel that exposes the same split.
 */
#include "cpu_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo.h"

struct cpu_key {
	long package, cluster;	/* -1: not shown */
	int policy;		/* index into m->policy, -1 none */
	const char *core;	/* the core name or part, "" unknown */
};

/* Does the kernel's CPU list ("0 1 2 3", "0-3,6") name cpu? */
static int list_has(const char *list, int cpu)
{
	const char *p = list;
	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		if (end == p) {
			p++;
			continue;
		}
		if (*end == '-') {
			const char *q = end + 1;
			hi = strtol(q, &end, 10);
			if (end == q)
				hi = lo;
		}
		if (cpu >= lo && cpu <= hi)
			return 1;
		p = end;
	}
	return 0;
}

static long topology_value(int cpu, const char *file)
{
	char path[128], buf[32];
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, file);
	if (pg_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	char *end;
	long v = strtol(buf, &end, 10);
	/* -1 (and 65535 from some firmware) mean the kernel does not know. */
	return end == buf || v < 0 || v == 65535 ? -1 : v;
}

static void cpu_key(const struct pg_machine *m, const struct pg_cpu_info *c, struct cpu_key *k)
{
	k->package = topology_value(c->id, "physical_package_id");
	k->cluster = topology_value(c->id, "cluster_id");
	k->policy = -1;
	for (int i = 0; i < m->npolicy && k->policy < 0; i++)
		if (list_has(m->policy[i].cpus, c->id))
			k->policy = i;
	k->core = c->core[0] ? c->core : c->part;
}

static int same_key(const struct cpu_key *a, const struct cpu_key *b)
{
	return a->package == b->package && a->cluster == b->cluster && a->policy == b->policy &&
	       strcmp(a->core, b->core) == 0;
}

void pg_machine_clusters(struct pg_machine *m)
{
	m->ncluster = 0;
	if (m->ncpu <= 0)
		return;
	struct cpu_key *keys = calloc((size_t)m->ncpu, sizeof(*keys));
	if (!keys)
		return;
	int known = 0;
	for (int i = 0; i < m->ncpu; i++) {
		cpu_key(m, &m->cpu[i], &keys[i]);
		m->cpu[i].cluster = -1;
		known |= keys[i].package >= 0 || keys[i].cluster >= 0 || keys[i].policy >= 0 || keys[i].core[0];
	}
	/* Nothing to tell the CPUs apart by (a container hiding sysfs, an
	 * x86 /proc/cpuinfo without topology): no clusters, not one made up. */
	for (int i = 0; known && i < m->ncpu; i++) {
		if (m->cpu[i].cluster >= 0)
			continue;
		m->cpu[i].cluster = m->ncluster;
		for (int j = i + 1; j < m->ncpu; j++)
			if (m->cpu[j].cluster < 0 && same_key(&keys[i], &keys[j]))
				m->cpu[j].cluster = m->ncluster;
		m->ncluster++;
	}
	free(keys);
}
