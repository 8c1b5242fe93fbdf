/* SPDX-License-Identifier: MIT */
/*
 * The machine's identity: what makes a number reproducible. Every file read
 * here may be absent (small boards, containers); what is missing stays empty.
 */
#ifndef PG_SYSINFO_H
#define PG_SYSINFO_H

#include <stdint.h>

struct pg_cpu_info {
	int id;
	char model[128];	/* "model name", or ARM implementer/part decoded */
	char implementer[16], part[16], variant[16], revision[16];	/* ARM */
	char core[32];		/* ARM: "Cortex-A53" from implementer and part; "" unknown */
	int cluster;		/* cpu_clusters.c; -1 unknown */
	double mhz;		/* /proc/cpuinfo's "cpu MHz" (x86: the clock now); 0 not given */
};

struct pg_freq_policy {
	char name[16];		/* policy0 */
	char cpus[64];		/* related_cpus */
	char governor[32];
	long min_khz, max_khz, cur_khz;	/* 0 when unknown */
	long cpuinfo_min_khz, cpuinfo_max_khz;	/* what the hardware allows; 0 unknown */
};

#define PG_MAX_THERMAL 16

struct pg_thermal_zone {
	int zone;		/* thermal_zoneN */
	char type[32];		/* "cpu-thermal", "x86_pkg_temp" */
	long temp_mc;		/* millidegrees Celsius */
};

struct pg_cache_info {
	int level;
	char type[16];		/* Data, Instruction, Unified */
	int64_t size;		/* bytes */
	int line;		/* coherency_line_size */
	char shared_cpus[64];	/* of the first instance */
	int count;		/* identical instances (one per core for L1) */
};

struct pg_machine {
	char board[128];
	const char *board_source;	/* "device-tree", "dmi", "hostname" */
	char dt_model[128], dt_compatible[256];
	char dmi_vendor[128], dmi_product[128];
	char hostname[128];
	char arch[80];
	int cpus_online, cpus_configured;
	int ncpu;
	struct pg_cpu_info *cpu;
	int npolicy;
	struct pg_freq_policy *policy;
	int ncluster;		/* the CPUs' cluster numbers are 0..ncluster-1 */
	int ncache;
	struct pg_cache_info *cache;
	int64_t mem_total, mem_available;	/* bytes; 0 unknown */
	char kernel_release[128], kernel_version[256];
	char cmdline[1024];
	char libc[64];
	char compiler[128], cflags[256];
	char version[32];
	/* Virtual or emulated (virt.c): what the figures come from. */
	char virt[32];		/* none, kvm, qemu-tcg, qemu-user, xen, vmware, hyperv, container, ... */
	int emulated;		/* the CPU is emulated: qemu-user or qemu-tcg */
	char container[32];	/* docker, lxc, ...; "" none seen */
	char binary_arch[32];	/* what this binary was built for */
	char kernel_arch[80];	/* the kernel's, where it is not the binary's family */
	int nthermal;		/* thermal zones at the start */
	struct pg_thermal_zone thermal[PG_MAX_THERMAL];
};

void pg_machine_read(struct pg_machine *m);
void pg_machine_free(struct pg_machine *m);

/* virt.c: virt, emulated, kernel_arch (after uname is read), and the
 * thermal zones now. */
void pg_machine_virt(struct pg_machine *m);
void pg_machine_thermal(struct pg_machine *m);
const char *pg_binary_arch(void);

/* Largest cache (the last level) in bytes, 0 when sysfs does not say. */
int64_t pg_machine_llc(const struct pg_machine *m);
/* The largest data or unified cache of a level below the last (a core's
 * own, or its cluster's); 0 when there is none or sysfs does not say. */
int64_t pg_machine_inner_cache(const struct pg_machine *m);
/* Whether the last-level cache is shared with work this system cannot see:
 * a virtual machine's (the host's other tenants) or an emulated CPU's. */
int pg_machine_llc_shared(const struct pg_machine *m);
int64_t pg_mem_available(void);

/* Root for sysfs/procfs reads; tests point it at a fake tree. */
void pg_sysinfo_set_root(const char *root);
/* That root: "" for the real /sys and /proc. */
const char *pg_sysinfo_root(void);

/* Read a small file, strip trailing white space; -1 when absent. */
int pg_read_file(const char *path, char *buf, int len);

#endif
