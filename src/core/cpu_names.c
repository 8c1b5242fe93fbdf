/* SPDX-License-Identifier: MIT */
/*
 * ARM core names from the Main ID Register (MIDR_EL1), which the kernel
 * shows per CPU in /proc/cpuinfo as "CPU implementer" (bits 31:24) and
 * "CPU part" (bits 15:4). The part numbers are those of ARM's Technical
 * Reference Manuals and the kernel's arch/arm64/include/asm/cputype.h; a
 * board's guide names its cores ("4x Cortex-A53"), and big.LITTLE boards
 * are told apart by them. Unknown numbers stay numbers: never a guess.
 */
#include "cpu_names.h"

#include <stddef.h>

struct part_name {
	unsigned part;
	const char *name;
};

/* Implementer 0x41, Arm Ltd: the A-profile cores Linux runs on, and the
 * R-profile ones that can (R82). */
static const struct part_name arm_parts[] = {
	{ 0xb02, "ARM11-MPCore" }, { 0xb36, "ARM1136" }, { 0xb56, "ARM1156" }, { 0xb76, "ARM1176" },
	{ 0xc05, "Cortex-A5" }, { 0xc07, "Cortex-A7" }, { 0xc08, "Cortex-A8" }, { 0xc09, "Cortex-A9" },
	{ 0xc0d, "Cortex-A12" }, { 0xc0e, "Cortex-A17" }, { 0xc0f, "Cortex-A15" },
	{ 0xc14, "Cortex-R4" }, { 0xc15, "Cortex-R5" }, { 0xc17, "Cortex-R7" }, { 0xc18, "Cortex-R8" },
	{ 0xd01, "Cortex-A32" }, { 0xd02, "Cortex-A34" }, { 0xd03, "Cortex-A53" }, { 0xd04, "Cortex-A35" },
	{ 0xd05, "Cortex-A55" }, { 0xd06, "Cortex-A65" }, { 0xd07, "Cortex-A57" }, { 0xd08, "Cortex-A72" },
	{ 0xd09, "Cortex-A73" }, { 0xd0a, "Cortex-A75" }, { 0xd0b, "Cortex-A76" }, { 0xd0c, "Neoverse-N1" },
	{ 0xd0d, "Cortex-A77" }, { 0xd0e, "Cortex-A76AE" }, { 0xd13, "Cortex-R52" }, { 0xd15, "Cortex-R82" },
	{ 0xd16, "Cortex-R52+" }, { 0xd40, "Neoverse-V1" }, { 0xd41, "Cortex-A78" }, { 0xd42, "Cortex-A78AE" },
	{ 0xd43, "Cortex-A65AE" }, { 0xd44, "Cortex-X1" }, { 0xd46, "Cortex-A510" }, { 0xd47, "Cortex-A710" },
	{ 0xd48, "Cortex-X2" }, { 0xd49, "Neoverse-N2" }, { 0xd4a, "Neoverse-E1" }, { 0xd4b, "Cortex-A78C" },
	{ 0xd4c, "Cortex-X1C" }, { 0xd4d, "Cortex-A715" }, { 0xd4e, "Cortex-X3" }, { 0xd4f, "Neoverse-V2" },
	{ 0xd80, "Cortex-A520" }, { 0xd81, "Cortex-A720" }, { 0xd82, "Cortex-X4" }, { 0xd83, "Neoverse-V3AE" },
	{ 0xd84, "Neoverse-V3" }, { 0xd85, "Cortex-X925" }, { 0xd87, "Cortex-A725" }, { 0xd88, "Cortex-A520AE" },
	{ 0xd89, "Cortex-A720AE" }, { 0xd8e, "Neoverse-N3" }, { 0xd8f, "Cortex-A320" },
	{ 0, NULL },
};

static const struct part_name broadcom_parts[] = {
	{ 0x00f, "Brahma-B15" }, { 0x100, "Brahma-B53" }, { 0x516, "ThunderX2" }, { 0, NULL },
};

static const struct part_name cavium_parts[] = {
	{ 0x0a1, "ThunderX" }, { 0x0a2, "ThunderX-81XX" }, { 0x0a3, "ThunderX-83XX" },
	{ 0x0af, "ThunderX2" }, { 0x0b2, "OcteonTX2-96XX" }, { 0, NULL },
};

static const struct part_name fujitsu_parts[] = { { 0x001, "A64FX" }, { 0, NULL } };

static const struct part_name hisilicon_parts[] = { { 0xd01, "TaiShan-v110" }, { 0, NULL } };

static const struct part_name nvidia_parts[] = { { 0x003, "Denver" }, { 0x004, "Carmel" }, { 0, NULL } };

/* Qualcomm's Kryo 2xx-4xx are Arm cores with Qualcomm's part numbers. */
static const struct part_name qualcomm_parts[] = {
	{ 0x00f, "Scorpion" }, { 0x02d, "Scorpion" }, { 0x04d, "Krait" }, { 0x06f, "Krait" },
	{ 0x201, "Kryo" }, { 0x205, "Kryo" }, { 0x211, "Kryo" },
	{ 0x800, "Kryo-2XX-Gold" }, { 0x801, "Kryo-2XX-Silver" }, { 0x802, "Kryo-3XX-Gold" },
	{ 0x803, "Kryo-3XX-Silver" }, { 0x804, "Kryo-4XX-Gold" }, { 0x805, "Kryo-4XX-Silver" },
	{ 0xc00, "Falkor" }, { 0xc01, "Saphira" }, { 0, NULL },
};

static const struct part_name apple_parts[] = {
	{ 0x022, "Icestorm-M1" }, { 0x023, "Firestorm-M1" }, { 0x024, "Icestorm-M1-Pro" },
	{ 0x025, "Firestorm-M1-Pro" }, { 0x028, "Icestorm-M1-Max" }, { 0x029, "Firestorm-M1-Max" },
	{ 0x032, "Blizzard-M2" }, { 0x033, "Avalanche-M2" }, { 0, NULL },
};

static const struct part_name ampere_parts[] = { { 0xac3, "Ampere-1" }, { 0xac4, "Ampere-1a" }, { 0, NULL } };

static const struct {
	unsigned id;
	const char *name;
	const struct part_name *parts;
} implementers[] = {
	{ 0x41, "ARM", arm_parts }, { 0x42, "Broadcom", broadcom_parts }, { 0x43, "Cavium", cavium_parts },
	{ 0x46, "Fujitsu", fujitsu_parts }, { 0x48, "HiSilicon", hisilicon_parts },
	{ 0x4e, "NVIDIA", nvidia_parts }, { 0x50, "APM", NULL }, { 0x51, "Qualcomm", qualcomm_parts },
	{ 0x53, "Samsung", NULL }, { 0x56, "Marvell", NULL }, { 0x61, "Apple", apple_parts },
	{ 0x69, "Intel", NULL }, { 0x6d, "Microsoft", NULL }, { 0x70, "Phytium", NULL },
	{ 0xc0, "Ampere", ampere_parts },
};

const char *pg_arm_implementer(unsigned implementer)
{
	for (size_t i = 0; i < sizeof(implementers) / sizeof(implementers[0]); i++)
		if (implementers[i].id == implementer)
			return implementers[i].name;
	return NULL;
}

const char *pg_arm_core(unsigned implementer, unsigned part)
{
	for (size_t i = 0; i < sizeof(implementers) / sizeof(implementers[0]); i++) {
		if (implementers[i].id != implementer)
			continue;
		for (const struct part_name *p = implementers[i].parts; p && p->name; p++)
			if (p->part == part)
				return p->name;
		return NULL;
	}
	return NULL;
}
