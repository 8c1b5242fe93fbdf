/* SPDX-License-Identifier: MIT */
/* The messaging group's table: one line per benchmark, in the guide's order. */
#include "msg.h"

const struct pg_bench *const pg_group_msg[] = {
	&pg_msg_rpmsg_rr,
	&pg_msg_rpmsg_stream,
	NULL,
};
