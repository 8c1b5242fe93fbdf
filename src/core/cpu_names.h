/* SPDX-License-Identifier: MIT */
/*
 * What the CPUs are and how they are grouped: ARM core names decoded from
 * the MIDR fields /proc/cpuinfo shows (cpu_names.c), and the clusters of
 * identical cores sharing a frequency domain (cpu_clusters.c).
 */
#ifndef PG_CPU_NAMES_H
#define PG_CPU_NAMES_H

struct pg_machine;

/* "ARM", "Qualcomm"... for cpuinfo's "CPU implementer"; NULL unknown. */
const char *pg_arm_implementer(unsigned implementer);
/* "Cortex-A53", "Neoverse-N1"... for an implementer and "CPU part"; NULL
 * when the part is not in the table. */
const char *pg_arm_core(unsigned implementer, unsigned part);

/* Sets every CPU's cluster (and m->ncluster) from the topology in sysfs,
 * the cpufreq policies and the core names read before: CPUs are in one
 * cluster when they share the package, the topology's cluster, the cpufreq
 * policy and the core. Left at -1 (unknown) when the machine exposes none
 * of these. */
void pg_machine_clusters(struct pg_machine *m);

#endif
