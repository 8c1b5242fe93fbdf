/* SPDX-License-Identifier: MIT */
#include "sysinfo.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "cpu_names.h"
#include "pg_build.h"

static char root[256] = "";

void pg_sysinfo_set_root(const char *r)
{
	snprintf(root, sizeof(root), "%s", r ? r : "");
}

const char *pg_sysinfo_root(void)
{
	return root;
}

static FILE *open_rooted(const char *path)
{
	char full[512];
	snprintf(full, sizeof(full), "%s%s", root, path);
	return fopen(full, "r");
}

int pg_read_file(const char *path, char *buf, int len)
{
	FILE *f = open_rooted(path);
	if (!f) {
		buf[0] = '\0';
		return -1;
	}
	size_t n = fread(buf, 1, (size_t)len - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* Device-tree strings are NUL-separated lists: show them comma-separated. */
	for (size_t i = 0; i + 1 < n; i++)
		if (buf[i] == '\0')
			buf[i] = ',';
	n = strlen(buf);
	while (n && (isspace((unsigned char)buf[n - 1]) || buf[n - 1] == ','))
		buf[--n] = '\0';
	return (int)n;
}

static long read_long(const char *path)
{
	char b[64];
	if (pg_read_file(path, b, sizeof(b)) <= 0)
		return 0;
	return strtol(b, NULL, 10);
}

/* ARM's "model name" is only "ARMv7 Processor rev 3 (v7l)", and arm64
 * shows none: the implementer and part say which core it is. */
static void arm_model(struct pg_cpu_info *c)
{
	unsigned impl = (unsigned)strtoul(c->implementer, NULL, 0);
	unsigned part = (unsigned)strtoul(c->part, NULL, 0);
	const char *vendor = pg_arm_implementer(impl), *core = pg_arm_core(impl, part);
	if (!core) {
		snprintf(c->model, sizeof(c->model), "implementer %s part %s", c->implementer, c->part);
		return;
	}
	snprintf(c->core, sizeof(c->core), "%s", core);
	snprintf(c->model, sizeof(c->model), "%s %s r%sp%s", vendor, core,
		 c->variant[0] ? c->variant + (c->variant[1] == 'x' ? 2 : 0) : "?", c->revision[0] ? c->revision : "?");
}

static void value_of(const char *line, char *dst, size_t len)
{
	const char *colon = strchr(line, ':');
	if (!colon) {
		dst[0] = '\0';
		return;
	}
	colon++;
	while (*colon == ' ' || *colon == '\t')
		colon++;
	snprintf(dst, len, "%s", colon);
	size_t n = strlen(dst);
	while (n && isspace((unsigned char)dst[n - 1]))
		dst[--n] = '\0';
}

static void read_cpuinfo(struct pg_machine *m)
{
	FILE *f = open_rooted("/proc/cpuinfo");
	if (!f)
		return;
	char line[1024], hw_model[128] = "";
	struct pg_cpu_info *cur = NULL;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "processor", 9) == 0 && strchr(line, ':')) {
			char v[32];
			value_of(line, v, sizeof(v));
			if (!isdigit((unsigned char)v[0]))
				continue;	/* old ARM kernels: "Processor : ARMv7 ..." */
			struct pg_cpu_info *n = realloc(m->cpu, (size_t)(m->ncpu + 1) * sizeof(*n));
			if (!n)
				break;
			m->cpu = n;
			cur = &m->cpu[m->ncpu++];
			memset(cur, 0, sizeof(*cur));
			cur->id = atoi(v);
		} else if (!cur) {
			if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Processor", 9) == 0)
				value_of(line, hw_model, sizeof(hw_model));
		} else if (strncmp(line, "model name", 10) == 0) {
			value_of(line, cur->model, sizeof(cur->model));
		} else if (strncmp(line, "CPU implementer", 15) == 0) {
			value_of(line, cur->implementer, sizeof(cur->implementer));
		} else if (strncmp(line, "CPU part", 8) == 0) {
			value_of(line, cur->part, sizeof(cur->part));
		} else if (strncmp(line, "CPU variant", 11) == 0) {
			value_of(line, cur->variant, sizeof(cur->variant));
		} else if (strncmp(line, "CPU revision", 12) == 0) {
			value_of(line, cur->revision, sizeof(cur->revision));
		} else if (strncmp(line, "cpu MHz", 7) == 0) {
			char v[32];
			value_of(line, v, sizeof(v));
			cur->mhz = strtod(v, NULL);
		}
	}
	fclose(f);
	for (int i = 0; i < m->ncpu; i++) {
		struct pg_cpu_info *c = &m->cpu[i];
		if (c->part[0])
			arm_model(c);
		else if (!c->model[0] && hw_model[0])
			snprintf(c->model, sizeof(c->model), "%s", hw_model);
	}
}

static void read_policies(struct pg_machine *m)
{
	char dir[320];
	snprintf(dir, sizeof(dir), "%s/sys/devices/system/cpu/cpufreq", root);
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "policy", 6) != 0 || strlen(e->d_name) >= 16)
			continue;
		struct pg_freq_policy *n = realloc(m->policy, (size_t)(m->npolicy + 1) * sizeof(*n));
		if (!n)
			break;
		m->policy = n;
		struct pg_freq_policy *p = &m->policy[m->npolicy++];
		memset(p, 0, sizeof(*p));
		snprintf(p->name, sizeof(p->name), "%.15s", e->d_name);
		char path[320];
#define POL(file) (snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpufreq/%s/" file, p->name), path)
		pg_read_file(POL("related_cpus"), p->cpus, sizeof(p->cpus));
		pg_read_file(POL("scaling_governor"), p->governor, sizeof(p->governor));
		p->min_khz = read_long(POL("scaling_min_freq"));
		p->max_khz = read_long(POL("scaling_max_freq"));
		p->cur_khz = read_long(POL("scaling_cur_freq"));
		p->cpuinfo_min_khz = read_long(POL("cpuinfo_min_freq"));
		p->cpuinfo_max_khz = read_long(POL("cpuinfo_max_freq"));
#undef POL
	}
	closedir(d);
	/* readdir order is arbitrary; policyN sorts by N. */
	for (int i = 1; i < m->npolicy; i++)
		for (int j = i; j > 0 && atoi(m->policy[j].name + 6) < atoi(m->policy[j - 1].name + 6); j--) {
			struct pg_freq_policy t = m->policy[j];
			m->policy[j] = m->policy[j - 1];
			m->policy[j - 1] = t;
		}
}

static int64_t parse_cache_size(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);
	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	return v;
}

/* Every CPU's caches, each kind listed once with how many instances there
 * are (one L1 per core, an L2 per cluster, one L3). */
static void read_caches(struct pg_machine *m)
{
	int ncpu = m->cpus_configured > 0 ? m->cpus_configured : 1;
	for (int cpu = 0; cpu < ncpu && cpu < 1024; cpu++) {
		for (int idx = 0; idx < 16; idx++) {
			char path[160], buf[128];
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/size", cpu, idx);
			if (pg_read_file(path, buf, sizeof(buf)) <= 0)
				break;
			struct pg_cache_info c;
			memset(&c, 0, sizeof(c));
			c.size = parse_cache_size(buf);
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, idx);
			c.level = (int)read_long(path);
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/type", cpu, idx);
			pg_read_file(path, c.type, sizeof(c.type));
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/coherency_line_size", cpu, idx);
			c.line = (int)read_long(path);
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, idx);
			pg_read_file(path, c.shared_cpus, sizeof(c.shared_cpus));
			/* The same cache seen from another CPU that shares it, or
			 * another core's private twin: count it, do not list it. */
			int dup = 0;
			for (int i = 0; i < m->ncache && !dup; i++) {
				struct pg_cache_info *o = &m->cache[i];
				if (o->level != c.level || strcmp(o->type, c.type) != 0 || o->size != c.size)
					continue;
				dup = 1;
				/* Each instance is counted once, by the first CPU sharing it. */
				if (strcmp(o->shared_cpus, c.shared_cpus) != 0 && atoi(c.shared_cpus) == cpu)
					o->count++;
			}
			if (dup)
				continue;
			c.count = 1;
			struct pg_cache_info *n = realloc(m->cache, (size_t)(m->ncache + 1) * sizeof(*n));
			if (!n)
				return;
			m->cache = n;
			m->cache[m->ncache++] = c;
		}
	}
}

static int64_t meminfo_field(const char *name)
{
	FILE *f = open_rooted("/proc/meminfo");
	if (!f)
		return 0;
	char line[256];
	int64_t v = 0;
	size_t nl = strlen(name);
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, name, nl) == 0 && line[nl] == ':') {
			v = strtoll(line + nl + 1, NULL, 10) * 1024;
			break;
		}
	fclose(f);
	return v;
}

int64_t pg_mem_available(void)
{
	int64_t v = meminfo_field("MemAvailable");
	return v ? v : meminfo_field("MemFree");
}

int64_t pg_machine_llc(const struct pg_machine *m)
{
	int64_t best = 0;
	int lvl = 0;
	for (int i = 0; i < m->ncache; i++) {
		if (strcmp(m->cache[i].type, "Instruction") == 0)
			continue;
		if (m->cache[i].level > lvl || (m->cache[i].level == lvl && m->cache[i].size > best)) {
			lvl = m->cache[i].level;
			best = m->cache[i].size;
		}
	}
	return best;
}

int64_t pg_machine_inner_cache(const struct pg_machine *m)
{
	int top = 0;
	int64_t best = 0;
	for (int i = 0; i < m->ncache; i++)
		if (strcmp(m->cache[i].type, "Instruction") != 0 && m->cache[i].level > top)
			top = m->cache[i].level;
	for (int i = 0; i < m->ncache; i++)
		if (strcmp(m->cache[i].type, "Instruction") != 0 && m->cache[i].level < top &&
		    m->cache[i].size > best)
			best = m->cache[i].size;
	return best;
}

int pg_machine_llc_shared(const struct pg_machine *m)
{
	return m->virt[0] && strcmp(m->virt, "none") != 0 && strcmp(m->virt, "container") != 0;
}

void pg_machine_read(struct pg_machine *m)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->version, sizeof(m->version), "%s", PG_VERSION);
	snprintf(m->compiler, sizeof(m->compiler), "%s", PG_COMPILER);
	snprintf(m->cflags, sizeof(m->cflags), "%s", PG_CFLAGS);

	if (pg_read_file("/proc/device-tree/model", m->dt_model, sizeof(m->dt_model)) < 0)
		pg_read_file("/sys/firmware/devicetree/base/model", m->dt_model, sizeof(m->dt_model));
	if (pg_read_file("/proc/device-tree/compatible", m->dt_compatible, sizeof(m->dt_compatible)) < 0)
		pg_read_file("/sys/firmware/devicetree/base/compatible", m->dt_compatible,
			     sizeof(m->dt_compatible));
	pg_read_file("/sys/class/dmi/id/sys_vendor", m->dmi_vendor, sizeof(m->dmi_vendor));
	pg_read_file("/sys/class/dmi/id/product_name", m->dmi_product, sizeof(m->dmi_product));

	struct utsname u;
	if (uname(&u) == 0) {
		snprintf(m->hostname, sizeof(m->hostname), "%s", u.nodename);
		snprintf(m->kernel_release, sizeof(m->kernel_release), "%s", u.release);
		snprintf(m->kernel_version, sizeof(m->kernel_version), "%s", u.version);
		snprintf(m->arch, sizeof(m->arch), "%s", u.machine);
	}
	if (m->dt_model[0]) {
		snprintf(m->board, sizeof(m->board), "%s", m->dt_model);
		m->board_source = "device-tree";
	} else if (m->dmi_product[0]) {
		snprintf(m->board, sizeof(m->board), "%s", m->dmi_product);
		m->board_source = "dmi";
	} else {
		snprintf(m->board, sizeof(m->board), "%s", m->hostname[0] ? m->hostname : "unknown");
		m->board_source = "hostname";
	}

	m->cpus_online = (int)sysconf(_SC_NPROCESSORS_ONLN);
	m->cpus_configured = (int)sysconf(_SC_NPROCESSORS_CONF);
	read_cpuinfo(m);
	read_policies(m);
	pg_machine_clusters(m);
	read_caches(m);
	m->mem_total = meminfo_field("MemTotal");
	m->mem_available = pg_mem_available();
	pg_read_file("/proc/cmdline", m->cmdline, sizeof(m->cmdline));
#ifdef __GLIBC__
	snprintf(m->libc, sizeof(m->libc), "glibc %s", gnu_get_libc_version());
#else
	snprintf(m->libc, sizeof(m->libc), "not glibc (musl or other)");
#endif
	pg_machine_virt(m);
	pg_machine_thermal(m);
}

void pg_machine_free(struct pg_machine *m)
{
	free(m->cpu);
	free(m->policy);
	free(m->cache);
	m->cpu = NULL;
	m->policy = NULL;
	m->cache = NULL;
}
