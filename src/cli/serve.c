/* SPDX-License-Identifier: MIT */
/* perfguide serve: the network peer the net.* benchmarks talk to. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help.h"
#include "core/params.h"
#include "net/peer.h"
#include "net/serve.h"

static int num(const char *opt, const char *s, double min, double max, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (!*s || *end || !isfinite(v) || v < min || v > max) {
		pg_usage_error("serve: %s '%s': expected a number from %g to %g", opt, s, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

enum { O_BIND = 256, O_PORT, O_PSK, O_TIME, O_MSG, O_STREAMS, O_RATE, O_TESTS, O_CONNS,
       O_PER_ADDR, O_IDLE, O_SESSION, O_READ, O_PARENT };

static const struct pg_opt serve_opts[] = {
	{ "bind", 0, O_BIND, "ADDR",
	  "numeric address to listen on (default 0.0.0.0; a non-loopback address without --psk-file warns)" },
	{ "port", 0, O_PORT, "N", "control port (default 12867; 0: a free port)" },
	{ "psk-file", 0, O_PSK, "FILE",
	  "clients must prove they know the key on FILE's first line (HMAC-SHA256 challenge and response)" },
	{ "max-time", 0, O_TIME, "S", "longest test in seconds (default 60; 300 with --psk-file)" },
	{ "max-msg", 0, O_MSG, "SIZE", "largest send and request size (default 1m)" },
	{ "max-streams", 0, O_STREAMS, "N", "data connections per role and test (default 16)" },
	{ "max-rate", 0, O_RATE, "MBIT",
	  "what the peer sends, Mbit/s in all tests together; 0: no cap (default 1000; no cap with --psk-file)" },
	{ "max-tests", 0, O_TESTS, "N",
	  "sessions at once, counted once a client has proved the key; more are answered busy (default 4)" },
	{ "max-conns", 0, O_CONNS, "N", "control connections at once; more are refused (default 64)" },
	{ "max-conns-per-addr", 0, O_PER_ADDR, "N", "of them from one source address (default 8)" },
	{ "idle-timeout", 0, O_IDLE, "S",
	  "from connecting to a session (HELLO, and the key with --psk-file) in all; then it is dropped "
	  "(default 3)" },
	{ "session-timeout", 0, O_SESSION, "S", "drop a session that starts no test this long (default 120)" },
	{ "read-timeout", 0, O_READ, "S", "drop one that sends half a message (default 5)" },
	{ "exit-with-parent", 0, O_PARENT, NULL, "end when the process that started it ends" },
	{ "verbose", 'v', 'v', NULL, "one line on stderr per session event" },
	PG_OPT_END,
};

const struct pg_cmd_doc pg_doc_serve = {
	.name = "serve",
	.summary = "the network peer the net.* benchmarks talk to",
	.usage = "[--bind ADDR] [--port N] [--psk-file FILE] [limits]",
	.intro = "The far end of the net.* benchmarks, as netserver is for netperf. It answers only the "
		 "client that asked, sends traffic to no other address, runs nothing and writes no files. "
		 "'perfguide run net.*' starts its own peer on loopback when --peer is not given.",
	.opts = serve_opts,
	.after = "It prints \"listening on ADDR:PORT\" once it accepts connections, and stops on SIGTERM or "
		 "SIGINT. Its limits and running it on a lab network with a key: docs/security.md.",
	.exit_status = "0 stopped by a signal, 2 bad input or the port cannot be had.",
	.examples = "  perfguide serve --psk-file key",
};

/* A whole number in [min, max] into *out; -1 to go on, else the exit status. */
static int whole(const char *opt, const char *s, double min, double max, int *out)
{
	double v;
	if (num(opt, s, min, max, &v) < 0)
		return PG_EXIT_USAGE;
	if (v != floor(v))
		return pg_usage_error("serve: %s '%s' is not a whole number", opt, s);
	*out = (int)v;
	return -1;
}

static int real(const char *opt, const char *s, double min, double max, double *out)
{
	return num(opt, s, min, max, out) < 0 ? PG_EXIT_USAGE : -1;
}

/* One option into o; -1 to go on, else the exit status. */
static int one_option(int c, const char *arg, struct pg_serve_opts *o)
{
	int64_t sz;
	char err[256];
	switch (c) {
	case O_BIND: o->bind = arg; return -1;
	case O_PORT: return whole("--port", arg, 0, 65535, &o->port);
	case O_PSK: o->psk_file = arg; return -1;
	case O_TIME: return real("--max-time", arg, 0.001, 86400, &o->max_time);
	case O_MSG:
		if (pg_parse_size(arg, &sz, err, sizeof(err)) < 0 || sz < 1 || sz > (1 << 30))
			return pg_usage_error("serve: --max-msg '%s': expected a size from 1 to 1g", arg);
		o->max_msg = (uint64_t)sz;
		return -1;
	case O_STREAMS: return whole("--max-streams", arg, 1, 128, &o->max_streams);
	case O_RATE: return real("--max-rate", arg, 0, 1e7, &o->max_rate);
	case O_TESTS: return whole("--max-tests", arg, 1, 1024, &o->max_tests);
	case O_CONNS: return whole("--max-conns", arg, 1, 4096, &o->max_conns);
	case O_PER_ADDR: return whole("--max-conns-per-addr", arg, 1, 4096, &o->max_conns_per_addr);
	case O_IDLE: return real("--idle-timeout", arg, 0.01, 3600, &o->idle_timeout);
	case O_SESSION: return real("--session-timeout", arg, 0.01, 86400, &o->session_timeout);
	case O_READ: return real("--read-timeout", arg, 0.01, 3600, &o->read_timeout);
	case O_PARENT: o->exit_with_parent = 1; return -1;
	case 'v': o->verbose = 1; return -1;
	case 'h': pg_help_print(stdout, &pg_doc_serve); return PG_EXIT_OK;
	}
	return PG_EXIT_USAGE;
}

int pg_cmd_serve(int argc, char **argv)
{
	static struct pg_serve_opts o;
	struct pg_getopt g;
	char err[256];
	int c, rc;
	pg_serve_defaults(&o);
	pg_getopt_tables(&pg_doc_serve, &g);
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		if (c == '?')
			return pg_usage_error("serve: unknown option '%s'", argv[optind - 1]);
		if ((rc = one_option(c, optarg, &o)) >= 0)
			return rc;
	}
	if (optind < argc)
		return pg_usage_error("serve: unexpected argument '%s'", argv[optind]);
	if (o.max_conns < o.max_tests)
		o.max_conns = o.max_tests;
	if (pg_serve(&o, err, sizeof(err)) < 0)
		return pg_usage_error("serve: %s", err);
	return PG_EXIT_OK;
}
