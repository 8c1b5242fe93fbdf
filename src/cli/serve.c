/* perfguide serve: the network peer the net.* benchmarks talk to. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/params.h"
#include "net/peer.h"
#include "net/serve.h"

static const char help[] =
	"usage: perfguide serve [--bind ADDR] [--port N] [--psk-file F] [limits]\n"
	"\n"
	"The far end of the net.* benchmarks, as netserver is for netperf. It\n"
	"answers only the client that asked, sends traffic to no other address,\n"
	"runs nothing and writes no files. 'perfguide run net.*' starts its own\n"
	"peer on loopback when --peer is not given.\n"
	"\n"
	"  --bind ADDR          numeric address to listen on (default 0.0.0.0; a\n"
	"                       non-loopback address without --psk-file warns)\n"
	"  --port N             control port (default 12867; 0: a free port)\n"
	"  --psk-file F         clients must prove they know the key on F's first\n"
	"                       line (HMAC-SHA256 challenge and response)\n"
	"  --max-time S         longest test in seconds (default 60; 300 with --psk-file)\n"
	"  --max-msg SIZE       largest send and request size (default 1m)\n"
	"  --max-streams N      data connections per role and test (default 16)\n"
	"  --max-rate MBIT      what the peer sends, Mbit/s in all tests together; 0: no\n"
	"                       cap (default 1000; no cap with --psk-file)\n"
	"  --max-tests N        sessions at once, counted once a client has proved the\n"
	"                       key; more are answered busy (default 4)\n"
	"  --max-conns N        control connections at once; more are refused\n"
	"                       (default 64)\n"
	"  --max-conns-per-addr N  of them from one source address (default 8)\n"
	"  --idle-timeout S     from connecting to a session (HELLO, and the key with\n"
	"                       --psk-file) in all; then it is dropped (default 3)\n"
	"  --session-timeout S  drop a session that starts no test this long (default 120)\n"
	"  --read-timeout S     drop one that sends half a message (default 5)\n"
	"  --exit-with-parent   end when the process that started it ends\n"
	"  -v, --verbose        one line on stderr per session event\n"
	"\n"
	"It prints \"listening on ADDR:PORT\" once it accepts connections, and\n"
	"stops on SIGTERM or SIGINT. Its limits and running it on a lab network\n"
	"with a key: docs/security.md.\n";

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
	case 'h': fputs(help, stdout); return PG_EXIT_OK;
	}
	return PG_EXIT_USAGE;
}

int pg_cmd_serve(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "bind", required_argument, NULL, O_BIND }, { "port", required_argument, NULL, O_PORT },
		{ "psk-file", required_argument, NULL, O_PSK }, { "max-time", required_argument, NULL, O_TIME },
		{ "max-msg", required_argument, NULL, O_MSG }, { "max-streams", required_argument, NULL, O_STREAMS },
		{ "max-rate", required_argument, NULL, O_RATE }, { "max-tests", required_argument, NULL, O_TESTS },
		{ "max-conns", required_argument, NULL, O_CONNS },
		{ "max-conns-per-addr", required_argument, NULL, O_PER_ADDR },
		{ "idle-timeout", required_argument, NULL, O_IDLE },
		{ "session-timeout", required_argument, NULL, O_SESSION },
		{ "read-timeout", required_argument, NULL, O_READ },
		{ "exit-with-parent", no_argument, NULL, O_PARENT }, { "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' }, { 0 },
	};
	static struct pg_serve_opts o;
	char err[256];
	int c, rc;
	pg_serve_defaults(&o);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+vh", opts, NULL)) != -1) {
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
