/* SPDX-License-Identifier: MIT */
/* The ext group's table: external suites, in the seed guide's order. */
#include "ext.h"

const struct pg_bench *const pg_group_ext[] = {
	&pg_ext_coremark_pro,
	&pg_ext_coremark_pro_mark,
	&pg_ext_multibench,
	&pg_ext_glmark2,
	NULL,
};
