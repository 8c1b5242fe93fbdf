/* SPDX-License-Identifier: MIT */
/*
 * Whether the machine is virtual or emulated, and its thermal state at the
 * start: figures from a KVM guest, from qemu-system without KVM or from
 * qemu-user are not a board's, and compare refuses to set an emulated run
 * against a native one. Read as systemd-detect-virt does: the x86 CPUID
 * hypervisor leaf, /sys/hypervisor, DMI and the device tree; qemu-user
 * shows as a process named qemu-* or a /proc/cpuinfo of another
 * architecture than the binary's.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "sysinfo.h"

/* The architecture this binary was built for, as uname -m names it. */
const char *pg_binary_arch(void)
{
#if defined(__x86_64__)
	return "x86_64";
#elif defined(__i386__)
	return "i686";
#elif defined(__aarch64__)
	return "aarch64";
#elif defined(__arm__)
	return "arm";
#elif defined(__riscv) && __riscv_xlen == 64
	return "riscv64";
#elif defined(__powerpc64__)
	return "ppc64";
#else
	return "unknown";
#endif
}

/* uname -m names by family: a 32-bit binary on its 64-bit kernel (i686 on
 * x86_64, armv7l on aarch64) runs natively. */
static const char *family(const char *arch)
{
	if (strcmp(arch, "x86_64") == 0 || (arch[0] == 'i' && strstr(arch, "86")))
		return "x86";
	if (strcmp(arch, "aarch64") == 0 || strcmp(arch, "arm64") == 0 || strncmp(arch, "arm", 3) == 0)
		return "arm";
	if (strncmp(arch, "riscv", 5) == 0)
		return "riscv";
	if (strncmp(arch, "ppc", 3) == 0)
		return "ppc";
	return arch;
}

/* The family /proc/cpuinfo describes: x86 lists vendor_id and flags, ARM
 * its implementer or Features; NULL when it says neither. */
static const char *cpuinfo_family(char *host_arch, size_t len)
{
	char buf[4096];
	if (pg_read_file("/proc/cpuinfo", buf, sizeof(buf)) <= 0)
		return NULL;
	if (strstr(buf, "vendor_id") && strstr(buf, "\nflags")) {
		snprintf(host_arch, len, "%s", strstr(buf, " lm ") ? "x86_64" : "i686");
		return "x86";
	}
	if (strstr(buf, "CPU implementer") || strstr(buf, "\nFeatures")) {
		snprintf(host_arch, len, "%s", strstr(buf, "CPU architecture: 8") && strstr(buf, "asimd") ? "aarch64" : "arm");
		return "arm";
	}
	return NULL;
}

/* qemu-user: the emulator's own name on the process, or a cpuinfo of
 * another family (qemu 7 passes the host's through). */
static int qemu_user(struct pg_machine *m)
{
	char comm[64] = "", host[32] = "";
	if (!pg_sysinfo_root()[0])
		pg_read_file("/proc/self/comm", comm, sizeof(comm));
	const char *fam = cpuinfo_family(host, sizeof(host));
	int other = fam && strcmp(fam, family(pg_binary_arch())) != 0;
	if (strncmp(comm, "qemu-", 5) != 0 && !other)
		return 0;
	snprintf(m->virt, sizeof(m->virt), "qemu-user");
	m->emulated = 1;
	if (other)
		snprintf(m->kernel_arch, sizeof(m->kernel_arch), "%s", host);
	return 1;
}

#if defined(__x86_64__) || defined(__i386__)
static const struct {
	const char *sig, *name;
} hv_signatures[] = {
	{ "KVMKVMKVM", "kvm" }, { "TCGTCGTCGTCG", "qemu-tcg" }, { "Microsoft Hv", "hyperv" },
	{ "VMwareVMware", "vmware" }, { "XenVMMXenVMM", "xen" }, { "VBoxVBoxVBox", "virtualbox" },
	{ "ACRNACRNACRN", "acrn" }, { "bhyve bhyve ", "bhyve" }, { "QNXQVMBSQG", "qnx" },
	{ " lrpepyh  vr", "parallels" }, { "SRESRESRESRE", "sre" }, { "Apple VZ", "apple" },
};
#endif

/* x86: CPUID's hypervisor bit and the hypervisor's signature (leaf
 * 0x40000000); on the real machine only, not a test's fake tree. */
static int x86_hypervisor(struct pg_machine *m)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	if (pg_sysinfo_root()[0] || !__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return 0;
	char sig[13] = "";
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	for (size_t i = 0; i < sizeof(hv_signatures) / sizeof(hv_signatures[0]); i++)
		if (strncmp(sig, hv_signatures[i].sig, strlen(hv_signatures[i].sig)) == 0) {
			snprintf(m->virt, sizeof(m->virt), "%s", hv_signatures[i].name);
			return 1;
		}
	snprintf(m->virt, sizeof(m->virt), "vm");	/* a hypervisor that does not say which */
	return 1;
#else
	(void)m;
	return 0;
#endif
}

static const struct {
	const char *vendor, *name;
} dmi_vendors[] = {
	{ "KVM", "kvm" }, { "QEMU", "qemu" }, { "VMware", "vmware" }, { "innotek GmbH", "virtualbox" },
	{ "VirtualBox", "virtualbox" }, { "Xen", "xen" }, { "Parallels", "parallels" }, { "Bochs", "bochs" },
	{ "Amazon EC2", "amazon" }, { "Google Compute Engine", "google" }, { "Apple Virtualization", "apple" },
};

/* Firmware's word: /sys/hypervisor, DMI, the device tree. */
static int firmware_hypervisor(struct pg_machine *m)
{
	char b[256];
	if (pg_read_file("/sys/hypervisor/type", b, sizeof(b)) > 0) {
		snprintf(m->virt, sizeof(m->virt), "%.31s", b);
		return 1;
	}
	static const char *const dmi[] = { "/sys/class/dmi/id/sys_vendor", "/sys/class/dmi/id/product_name",
					   "/sys/class/dmi/id/board_vendor", "/sys/class/dmi/id/bios_vendor" };
	for (size_t f = 0; f < sizeof(dmi) / sizeof(dmi[0]); f++) {
		if (pg_read_file(dmi[f], b, sizeof(b)) <= 0)
			continue;
		for (size_t i = 0; i < sizeof(dmi_vendors) / sizeof(dmi_vendors[0]); i++)
			if (strncmp(b, dmi_vendors[i].vendor, strlen(dmi_vendors[i].vendor)) == 0) {
				snprintf(m->virt, sizeof(m->virt), "%s", dmi_vendors[i].name);
				return 1;
			}
		if (strcmp(b, "Virtual Machine") == 0) {	/* Hyper-V's product name */
			snprintf(m->virt, sizeof(m->virt), "hyperv");
			return 1;
		}
	}
	if (pg_read_file("/proc/device-tree/hypervisor/compatible", b, sizeof(b)) > 0 && strstr(b, "xen")) {
		snprintf(m->virt, sizeof(m->virt), "xen");
		return 1;
	}
	/* qemu's virt machine, with KVM or without (which an ARM guest cannot
	 * tell): "qemu" */
	if (pg_read_file("/proc/device-tree/compatible", b, sizeof(b)) > 0 && strstr(b, "linux,dummy-virt")) {
		snprintf(m->virt, sizeof(m->virt), "qemu");
		return 1;
	}
	char ci[4096];
	if (pg_read_file("/proc/cpuinfo", ci, sizeof(ci)) > 0 && strstr(ci, " hypervisor")) {
		snprintf(m->virt, sizeof(m->virt), "vm");
		return 1;
	}
	return 0;
}

/* A container (it shares the kernel: no effect on the CPU's speed, but
 * its cgroup may cap the CPU time). */
static void container(struct pg_machine *m)
{
	char b[512];
	if (pg_read_file("/run/systemd/container", b, sizeof(b)) > 0)
		snprintf(m->container, sizeof(m->container), "%.31s", b);
	else if (pg_read_file("/.dockerenv", b, sizeof(b)) >= 0)
		snprintf(m->container, sizeof(m->container), "docker");
	else if (pg_read_file("/run/.containerenv", b, sizeof(b)) >= 0)
		snprintf(m->container, sizeof(m->container), "podman");
	else if (pg_read_file("/proc/1/cgroup", b, sizeof(b)) > 0 &&
		 (strstr(b, "/docker") || strstr(b, "/lxc") || strstr(b, "/kubepods")))
		snprintf(m->container, sizeof(m->container), "%s",
			 strstr(b, "/docker") ? "docker" : strstr(b, "/lxc") ? "lxc" : "kubernetes");
}

void pg_machine_virt(struct pg_machine *m)
{
	snprintf(m->binary_arch, sizeof(m->binary_arch), "%s", pg_binary_arch());
	if (m->arch[0] && strcmp(family(m->arch), family(m->binary_arch)) != 0)
		snprintf(m->kernel_arch, sizeof(m->kernel_arch), "%s", m->arch);
	container(m);
	if (m->kernel_arch[0]) {
		/* another family's kernel runs this binary: an emulator */
		snprintf(m->virt, sizeof(m->virt), "qemu-user");
		m->emulated = 1;
		return;
	}
	if (qemu_user(m))
		return;
	int cpuid = x86_hypervisor(m);
	if (!cpuid || strcmp(m->virt, "vm") == 0) {
		struct pg_machine fw = { .virt = "" };
		if (firmware_hypervisor(&fw))
			snprintf(m->virt, sizeof(m->virt), "%s", fw.virt);
		/* qemu-system on x86 without KVM: the firmware says QEMU, and
		 * CPUID has no KVM signature (KVM always gives one) */
#if defined(__x86_64__) || defined(__i386__)
		if (strcmp(m->virt, "qemu") == 0 && !pg_sysinfo_root()[0])
			snprintf(m->virt, sizeof(m->virt), "qemu-tcg");
#endif
	}
	if (!m->virt[0])
		snprintf(m->virt, sizeof(m->virt), "%s", m->container[0] ? "container" : "none");
	m->emulated = strcmp(m->virt, "qemu-tcg") == 0;
}

/* Each thermal zone's type and temperature now. */
void pg_machine_thermal(struct pg_machine *m)
{
	for (int z = 0; z < 64 && m->nthermal < PG_MAX_THERMAL; z++) {
		char path[96], b[64], *end;
		snprintf(path, sizeof(path), "/sys/class/thermal/thermal_zone%d/temp", z);
		if (pg_read_file(path, b, sizeof(b)) <= 0)
			continue;
		long t = strtol(b, &end, 10);
		if (end == b)
			continue;
		struct pg_thermal_zone *tz = &m->thermal[m->nthermal++];
		tz->zone = z;
		tz->temp_mc = t;
		snprintf(path, sizeof(path), "/sys/class/thermal/thermal_zone%d/type", z);
		pg_read_file(path, tz->type, sizeof(tz->type));
	}
}
