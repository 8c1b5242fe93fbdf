/* SPDX-License-Identifier: MIT */
/* The test kinds (kinds.h): a line each, { id, wire name, ... }, in the
 * order of WELCOME's tests=. */
#include "net/kinds.h"

#include <string.h>

#include "net/serve_int.h"

const struct pg_net_kind pg_net_kinds[PG_NET_KINDS] = {
	[PG_NET_TCP_STREAM] = { PG_NET_TCP_STREAM, "tcp_stream", .v1 = 1, .plane = &pg_dp_tcp },
	[PG_NET_TCP_MAERTS] = { PG_NET_TCP_MAERTS, "tcp_maerts", .v1 = 1, .plane = &pg_dp_tcp },
	[PG_NET_TCP_BIDIR] = { PG_NET_TCP_BIDIR, "tcp_bidir", .v1 = 1, .plane = &pg_dp_tcp },
	[PG_NET_TCP_RR] = { PG_NET_TCP_RR, "tcp_rr", .rr = 1, .v1 = 1, .plane = &pg_dp_tcp },
	[PG_NET_TCP_CRR] = { PG_NET_TCP_CRR, "tcp_crr", .rr = 1, .v1 = 1, .plane = &pg_dp_tcp_crr },
	[PG_NET_UDP_RR] = { PG_NET_UDP_RR, "udp_rr", .udp = 1, .rr = 1, .v1 = 1, .plane = &pg_dp_udp_echo },
	[PG_NET_UDP_STREAM] = { PG_NET_UDP_STREAM, "udp_stream", .udp = 1, .v1 = 1, .plane = &pg_dp_udp_count },
	[PG_NET_UDP_SOURCE] = { PG_NET_UDP_SOURCE, "udp_source", .udp = 1, .source = 1,
	  .plane = &pg_dp_udp_source },
};

const struct pg_net_kind *pg_net_kind_find(const char *name)
{
	for (int i = 0; name && i < PG_NET_KINDS; i++)
		if (strcmp(name, pg_net_kinds[i].name) == 0)
			return &pg_net_kinds[i];
	return NULL;
}
