/* SPDX-License-Identifier: MIT */
/* The network group's table: one line per benchmark, in the guide's order. */
#include "net.h"

/* The seed's network tables give throughput (and packets per second) with
 * the CPU load, the zero-loss table its no-drop rate (ndr, ndr_kpps);
 * service demand, what was offered, the datagram counts and the
 * partial-drop rate stay in the csv and json (report --all-metrics shows
 * them). */
const struct pg_section pg_net_sec_ethernet = {
	.title = "Ethernet", .order = 100, .cpu_load = 1,
	.metrics = "throughput,tx,rx,kpps,ndr,ndr_kpps,loss,transactions,p50,p99",
	/* each benchmark's time said with it where they differ (intro.c) */
	.intro = "Network throughput, with the CPU load it costs. Against the peer {peer} (local: a "
		 "perfguide serve of its own on loopback), {time} s per trial.",
	/* The seed's UDP tables: a row per frame size (the datagram plus UDP,
	 * IPv4 and Ethernet headers and FCS: net_frame_size), per board the
	 * Mbit/s, the kpps and the CPU load; a table per test and direction.
	 * The TCP and request/response rows stay a row per result. */
	.rows_by = "size", .rows_of = "net.udp.zeroloss,net.udp.stream",
	.rows_title = "Frame size (bytes)|UDP datagram size (bytes)", .rows_shown = "{size+" NET_STR(NET_FRAME_OVERHEAD) "}|{#size}",
	.tables = "{title}; {dir=in?ingress (the peer sends)|egress (this side sends)}",
	.metric_titles = "ndr=Throughput,ndr_kpps=Packets per second,throughput=Throughput,"
			 "kpps=Packets per second,loss=Packet loss,transactions=Transactions,"
			 "p50=Latency p50,p99=Latency p99,tx=Sent,rx=Received",
};

const struct pg_bench *const pg_group_net[] = {
	&pg_net_tcp_bidir,
	&pg_net_tcp_stream,
	&pg_net_tcp_maerts,
	&pg_net_udp_zeroloss,
	&pg_net_udp_stream,
	&pg_net_tcp_rr,
	&pg_net_tcp_crr,
	&pg_net_udp_rr,
	NULL,
};
