/* SPDX-License-Identifier: MIT */
/*
 * The client (pg_peer_*) against a real `perfguide serve` loop run in a
 * child process on 127.0.0.1: known workloads give exact counts, limits are
 * refused with the reason, a busy peer says so, a killed peer is an error
 * and a killed client frees its slot.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "net/auth.h"
#include "net/peer.h"
#include "net/serve.h"

static char addr[64];

/* Runs pg_serve in a child; its "listening on" line gives the address. */
static pid_t start_peer(struct pg_serve_opts *o)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	fflush(stdout);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char err[256];
		close(p[0]);
		dup2(p[1], STDOUT_FILENO);
		if (!o->bind || strcmp(o->bind, "::1") != 0)
			o->bind = "127.0.0.1";
		o->port = 0;
		o->exit_with_parent = 1;	/* a failed test leaves no peer behind */
		if (pg_serve(o, err, sizeof(err)) < 0)
			fprintf(stderr, "serve: %s\n", err);
		_exit(0);
	}
	close(p[1]);
	char line[128];
	size_t got = 0;
	while (got < sizeof(line) - 1) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		assert_int_equal(poll(&pf, 1, 10000), 1);
		ssize_t r = read(p[0], line + got, 1);
		assert_int_equal(r, 1);
		if (line[got++] == '\n')
			break;
	}
	close(p[0]);
	line[got] = '\0';
	assert_int_equal(sscanf(line, "listening on %63s", addr), 1);
	return pid;
}

static pid_t default_peer(void)
{
	struct pg_serve_opts o;
	pg_serve_defaults(&o);
	o.idle_timeout = 2;
	o.read_timeout = 1;
	return start_peer(&o);
}

static int data_socket(struct pg_peer *p, int port, int type)
{
	socklen_t len;
	struct sockaddr_in a;
	memcpy(&a, pg_peer_addr(p, &len), sizeof(a));
	a.sin_port = htons((uint16_t)port);
	int fd = socket(AF_INET, type, 0);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	return fd;
}

static void send_all(int fd, const void *b, size_t n)
{
	const char *c = b;
	while (n) {
		ssize_t r = send(fd, c, n, MSG_NOSIGNAL);
		assert_true(r > 0);
		c += r;
		n -= (size_t)r;
	}
}

static void recv_all(int fd, void *b, size_t n)
{
	char *c = b;
	while (n) {
		ssize_t r = recv(fd, c, n, 0);
		assert_true(r > 0);
		c += r;
		n -= (size_t)r;
	}
}

static struct pg_peer *open_ok(void)
{
	struct pg_peer *p = NULL;
	char err[256] = "";
	if (pg_peer_open(addr, NULL, 5, &p, err, sizeof(err)) < 0)
		fail_msg("open %s: %s", addr, err);
	return p;
}

static int start_ok(struct pg_peer *p, const char *kind, uint64_t size, double time)
{
	struct pg_net_test t = { .time = time, .size = size, .streams = 1 };
	snprintf(t.kind, sizeof(t.kind), "%s", kind);
	int port = 0;
	char err[256] = "";
	if (pg_peer_start(p, &t, &port, err, sizeof(err)) < 0)
		fail_msg("start %s: %s", kind, err);
	return port;
}

static void stop_ok(struct pg_peer *p, struct pg_net_report *r)
{
	char err[256] = "";
	if (pg_peer_stop(p, r, err, sizeof(err)) < 0)
		fail_msg("stop: %s", err);
}

static void tcp_counts_are_exact(void **state)
{
	(void)state;
	pid_t pid = default_peer();
	struct pg_peer *p = open_ok();
	struct pg_net_report r;
	static char buf[1 << 20];
	memset(buf, 'x', sizeof(buf));

	/* tcp_stream: 3 MiB + 1 sent on two connections, all counted */
	int port = start_ok(p, "tcp_stream", 0, 5);
	int a = data_socket(p, port, SOCK_STREAM), b = data_socket(p, port, SOCK_STREAM);
	send_all(a, "S", 1);
	send_all(b, "S", 1);
	for (int i = 0; i < 3; i++)
		send_all(i % 2 ? a : b, buf, sizeof(buf));
	send_all(a, "z", 1);
	close(a);
	close(b);
	stop_ok(p, &r);
	assert_true(r.bytes_rx == 3 * sizeof(buf) + 1);
	assert_true(r.bytes_tx == 0);
	/* (the window may be empty here: the client's send buffer can hold it
	 * all, and the peer accept the connections only after STOP) */

	/* tcp_maerts: the peer sends for 0.2 s then closes; we read it all */
	port = start_ok(p, "tcp_maerts", 0, 0.2);
	a = data_socket(p, port, SOCK_STREAM);
	send_all(a, "M", 1);
	uint64_t got = 0;
	ssize_t n;
	while ((n = recv(a, buf, sizeof(buf), 0)) > 0)
		got += (uint64_t)n;
	assert_int_equal(n, 0);
	close(a);
	stop_ok(p, &r);
	assert_true(got > 0);
	assert_true(r.bytes_tx == got);
	assert_true(r.seconds > 0);

	/* tcp_rr: 50 transactions of 100 bytes each way */
	port = start_ok(p, "tcp_rr", 100, 5);
	a = data_socket(p, port, SOCK_STREAM);
	send_all(a, "E", 1);
	for (int i = 0; i < 50; i++) {
		char q[100], resp[100];
		memset(q, 'a' + i % 26, sizeof(q));
		send_all(a, q, sizeof(q));
		recv_all(a, resp, sizeof(resp));
		assert_memory_equal(q, resp, sizeof(q));
	}
	close(a);
	stop_ok(p, &r);
	assert_true(r.packets_rx == 50 && r.bytes_rx == 5000 && r.bytes_tx == 5000);

	/* tcp_crr: one transaction per connection, then the peer closes */
	port = start_ok(p, "tcp_crr", 10, 5);
	for (int i = 0; i < 20; i++) {
		char resp[10];
		a = data_socket(p, port, SOCK_STREAM);
		send_all(a, "E0123456789", 11);
		recv_all(a, resp, sizeof(resp));
		assert_memory_equal(resp, "0123456789", 10);
		assert_int_equal(recv(a, resp, 1, 0), 0);
		close(a);
	}
	stop_ok(p, &r);
	assert_true(r.packets_rx == 20);

	pg_peer_close(p);
	pg_peer_stop_local(pid);
}

static void udp_counts(void **state)
{
	(void)state;
	pid_t pid = default_peer();
	struct pg_peer *p = open_ok();
	struct pg_net_report r;
	char d[200];
	memset(d, 'u', sizeof(d));
	int port = start_ok(p, "udp_stream", 200, 5);
	int u = data_socket(p, port, SOCK_DGRAM);
	for (int i = 0; i < 100; i++)
		assert_int_equal(send(u, d, sizeof(d), 0), (ssize_t)sizeof(d));
	stop_ok(p, &r);
	close(u);
	assert_true(r.packets_rx == 100 && r.bytes_rx == 100 * sizeof(d));

	port = start_ok(p, "udp_rr", 64, 5);
	u = data_socket(p, port, SOCK_DGRAM);
	for (int i = 0; i < 10; i++) {
		char back[200];
		assert_int_equal(send(u, d, 64, 0), 64);
		assert_int_equal(recv(u, back, sizeof(back), 0), 64);
	}
	stop_ok(p, &r);
	close(u);
	assert_true(r.packets_rx == 10 && r.packets_tx == 10 && r.bytes_tx == 640);
	pg_peer_close(p);
	pg_peer_stop_local(pid);
}

/* udp_source: WELCOME lists it; the peer sends exactly rate x time
 * datagrams numbered from 0 to where the first datagram came from. */
static void udp_source_counts(void **state)
{
	(void)state;
	pid_t pid = default_peer();
	struct pg_peer *p = open_ok();
	assert_true(pg_peer_has_test(p, "udp_source"));
	assert_true(pg_peer_has_test(p, "tcp_stream"));
	assert_false(pg_peer_has_test(p, "udp"));
	assert_false(pg_peer_has_test(p, "udp_sourcex"));
	assert_true(pg_peer_version(p)[0] != '\0');

	/* 800 kbit/s of 100-byte datagrams for 0.25 s: 250 of them */
	struct pg_net_test t = { .time = 0.25, .size = 100, .streams = 1, .rate = 800000 };
	snprintf(t.kind, sizeof(t.kind), "udp_source");
	int port = 0;
	char err[256] = "";
	if (pg_peer_start(p, &t, &port, err, sizeof(err)) < 0)
		fail_msg("start udp_source: %s", err);
	int u = data_socket(p, port, SOCK_DGRAM);
	assert_int_equal(send(u, "hello!!!", 8, 0), 8);
	uint8_t d[200];
	int n = 0;
	for (;;) {
		struct pollfd pf = { .fd = u, .events = POLLIN };
		if (poll(&pf, 1, 500) != 1)
			break;
		assert_int_equal(recv(u, d, sizeof(d), 0), 100);
		uint64_t seq = 0;
		for (int i = 0; i < 8; i++)
			seq = seq << 8 | d[i];
		assert_int_equal(seq, (uint64_t)n);	/* loopback keeps the order */
		n++;
	}
	struct pg_net_report r;
	stop_ok(p, &r);
	close(u);
	assert_int_equal(n, 250);
	assert_true(r.packets_tx == 250 && r.bytes_tx == 25000);
	assert_true(r.send_s > 0.2 && r.send_s < 1);
	pg_peer_close(p);
	pg_peer_stop_local(pid);
}

static void limits_are_refused_with_the_reason(void **state)
{
	(void)state;
	struct pg_serve_opts o;
	pg_serve_defaults(&o);
	o.max_msg = 4096;
	o.max_time = 10;
	o.max_tests = 1;
	pid_t pid = start_peer(&o);
	struct pg_peer *p = open_ok(), *q = NULL;
	char err[256];
	int port;
	struct pg_net_test t = { .kind = "tcp_stream", .msg = 8192, .streams = 1 };
	assert_int_equal(pg_peer_start(p, &t, &port, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "msg=8192"));
	t.msg = 0;
	t.time = 11;
	assert_int_equal(pg_peer_start(p, &t, &port, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--max-time"));
	t.time = 1;
	t.streams = 1000;
	assert_int_equal(pg_peer_start(p, &t, &port, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "streams"));
	t.streams = 1;
	snprintf(t.cc, sizeof(t.cc), "no_such_cc");
	assert_int_equal(pg_peer_start(p, &t, &port, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "congestion control 'no_such_cc'"));
	snprintf(t.kind, sizeof(t.kind), "tcp_nope");
	assert_int_equal(pg_peer_start(p, &t, &port, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown test"));
	/* the session is still usable, and it holds the only slot */
	start_ok(p, "tcp_stream", 0, 1);
	assert_int_equal(pg_peer_open(addr, NULL, 5, &q, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "busy"));
	pg_peer_close(p);
	/* the slot is free again once the peer saw the BYE */
	int ok = -1;
	for (int i = 0; i < 100 && ok < 0; i++) {
		ok = pg_peer_open(addr, NULL, 5, &q, err, sizeof(err));
		if (ok < 0)
			usleep(20000);
	}
	assert_int_equal(ok, 0);
	pg_peer_close(q);
	pg_peer_stop_local(pid);
}

/* --max-rate: what the peer sends is paced, so it can never be more than
 * the rate times the test's time, plus the budget a peer idle until then
 * has kept (50 ms of the rate) and one send. */
static void rate_cap(void **state)
{
	(void)state;
	struct pg_serve_opts o;
	pg_serve_defaults(&o);
	o.max_rate = 8;	/* Mbit/s: 1 MB/s */
	pid_t pid = start_peer(&o);
	struct pg_peer *p = open_ok();
	struct pg_net_report r;
	struct pg_net_test t = { .kind = "tcp_maerts", .time = 0.2, .msg = 10000, .streams = 1 };
	int port;
	char err[256] = "";
	if (pg_peer_start(p, &t, &port, err, sizeof(err)) < 0)
		fail_msg("start: %s", err);
	int a = data_socket(p, port, SOCK_STREAM);
	send_all(a, "M", 1);
	static char buf[65536];
	uint64_t got = 0;
	ssize_t n;
	while ((n = recv(a, buf, sizeof(buf), 0)) > 0)
		got += (uint64_t)n;
	close(a);
	stop_ok(p, &r);
	assert_true(got > 0 && r.bytes_tx == got);
	if (got > 200000 + 50000 + 10000)
		fail_msg("%llu bytes in 0.2 s at 1 MB/s", (unsigned long long)got);
	pg_peer_close(p);
	pg_peer_stop_local(pid);
}

static void killed_peer_is_an_error(void **state)
{
	(void)state;
	pid_t pid = default_peer();
	struct pg_peer *p = open_ok();
	struct pg_net_report r;
	char err[256] = "";
	int port = start_ok(p, "tcp_stream", 0, 5);
	int a = data_socket(p, port, SOCK_STREAM);
	send_all(a, "S", 1);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	/* sending into the dead peer fails, it does not kill us (SIGPIPE) */
	char buf[4096] = { 0 };
	ssize_t n = 0;
	for (int i = 0; i < 1000 && n >= 0; i++)
		n = send(a, buf, sizeof(buf), MSG_NOSIGNAL);
	assert_true(n < 0);
	close(a);
	assert_int_equal(pg_peer_stop(p, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, addr));
	pg_peer_close(p);
	/* and a peer that is not there at all */
	assert_int_equal(pg_peer_open(addr, NULL, 2, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot reach"));
}

/* "[::1]:PORT": the data port is on the same IPv6 address. */
static void ipv6(void **state)
{
	(void)state;
	int t6 = socket(AF_INET6, SOCK_STREAM, 0);
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	int ok = t6 >= 0 && bind(t6, (struct sockaddr *)&a6, sizeof(a6)) == 0;
	if (t6 >= 0)
		close(t6);
	if (!ok)
		skip();
	struct pg_serve_opts o;
	pg_serve_defaults(&o);
	o.bind = "::1";
	pid_t pid = start_peer(&o);
	assert_int_equal(addr[0], '[');
	struct pg_peer *p = open_ok();
	int port = start_ok(p, "tcp_stream", 0, 5);
	socklen_t len;
	struct sockaddr_in6 d;
	memcpy(&d, pg_peer_addr(p, &len), sizeof(d));
	assert_int_equal(d.sin6_family, AF_INET6);
	d.sin6_port = htons((uint16_t)port);
	int fd = socket(AF_INET6, SOCK_STREAM, 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&d, sizeof(d)), 0);
	send_all(fd, "S0123456789", 11);
	close(fd);
	struct pg_net_report r;
	stop_ok(p, &r);
	assert_true(r.bytes_rx == 10);
	pg_peer_close(p);
	pg_peer_stop_local(pid);
}

/* Something else on the port: an error naming the peer, not a hang. */
static void not_a_peer(void **state)
{
	(void)state;
	int l = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t al = sizeof(a);
	assert_int_equal(bind(l, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(l, 1), 0);
	getsockname(l, (struct sockaddr *)&a, &al);
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		int s = accept(l, NULL, NULL);
		const char *http = "HTTP/1.0 400 Bad Request\r\n\r\n";
		if (s >= 0 && write(s, http, strlen(http)) > 0)
			sleep(2);
		_exit(0);
	}
	close(l);
	snprintf(addr, sizeof(addr), "127.0.0.1:%d", ntohs(a.sin_port));
	struct pg_peer *p = NULL;
	char err[256] = "";
	assert_int_equal(pg_peer_open(addr, NULL, 5, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, addr));
	assert_non_null(strstr(err, "perfguide serve"));
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
}

static void killed_client_frees_its_slot(void **state)
{
	(void)state;
	struct pg_serve_opts o;
	pg_serve_defaults(&o);
	o.max_tests = 1;
	pid_t pid = start_peer(&o);
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		struct pg_peer *p = NULL;
		char err[256];
		struct pg_net_test t = { .kind = "tcp_stream", .time = 30, .streams = 1 };
		int port;
		if (pg_peer_open(addr, NULL, 5, &p, err, sizeof(err)) < 0 ||
		    pg_peer_start(p, &t, &port, err, sizeof(err)) < 0)
			_exit(1);
		int a = data_socket(p, port, SOCK_STREAM);
		send_all(a, "Sdata", 5);
		kill(getpid(), SIGKILL);
	}
	int st;
	waitpid(c, &st, 0);
	assert_true(WIFSIGNALED(st));
	struct pg_peer *q = NULL;
	char err[256] = "";
	int ok = -1;
	for (int i = 0; i < 100 && ok < 0; i++) {
		ok = pg_peer_open(addr, NULL, 5, &q, err, sizeof(err));
		if (ok < 0)
			usleep(20000);
	}
	if (ok < 0)
		fail_msg("the killed client's slot was not freed: %s", err);
	struct pg_net_report r;
	start_ok(q, "tcp_stream", 0, 1);
	stop_ok(q, &r);
	pg_peer_close(q);
	pg_peer_stop_local(pid);
}

static void psk(void **state)
{
	(void)state;
	char err[256] = "";
	if (pg_net_auth_available(err, sizeof(err)) < 0)
		skip();
	char dir[] = "/tmp/pg-net-test.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char good[96], bad[96];
	snprintf(good, sizeof(good), "%s/good", dir);
	snprintf(bad, sizeof(bad), "%s/bad", dir);
	FILE *f = fopen(good, "w");
	fputs("s3cret key\nsecond line ignored\n", f);
	fclose(f);
	chmod(good, 0600);
	f = fopen(bad, "w");
	fputs("s3cret kez\n", f);
	fclose(f);
	chmod(bad, 0600);
	struct pg_serve_opts o;
	pg_serve_defaults(&o);
	o.psk_file = good;
	pid_t pid = start_peer(&o);
	struct pg_peer *p = NULL;
	assert_int_equal(pg_peer_open(addr, NULL, 5, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "requires a key"));
	assert_int_equal(pg_peer_open(addr, bad, 5, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "wrong key"));
	assert_int_equal(pg_peer_open(addr, good, 5, &p, err, sizeof(err)), 0);
	struct pg_net_report r;
	start_ok(p, "tcp_stream", 0, 1);
	stop_ok(p, &r);
	pg_peer_close(p);
	pg_peer_stop_local(pid);
	unlink(good);
	unlink(bad);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tcp_counts_are_exact),
		cmocka_unit_test(udp_counts),
		cmocka_unit_test(udp_source_counts),
		cmocka_unit_test(limits_are_refused_with_the_reason),
		cmocka_unit_test(rate_cap),
		cmocka_unit_test(killed_peer_is_an_error),
		cmocka_unit_test(ipv6),
		cmocka_unit_test(not_a_peer),
		cmocka_unit_test(killed_client_frees_its_slot),
		cmocka_unit_test(psk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
