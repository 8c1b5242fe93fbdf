/* SPDX-License-Identifier: MIT */
/* The client side of the control connection: what the net.* benchmarks call. */
#include "net/peer.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/text.h"
#include "core/timer.h"
#include "net/auth.h"
#include "net/kinds.h"
#include "net/proto.h"
#include "core/err.h"

/* How long STOP may take beyond the timeout: the peer drains what is still
 * in flight on the data sockets before it reports (test.c, at most 1 s). */
#define STOP_SLACK 3.0

struct pg_peer {
	int fd;
	double timeout;
	struct sockaddr_storage addr;
	socklen_t addrlen;
	char name[280];
	char version[64];	/* WELCOME's version, "" from an older peer */
	double max_rate;	/* WELCOME's max_rate, Mbit/s; 0: no cap (or not said) */
	int have_tests;		/* WELCOME listed its tests (an older peer does not) */
	char tests[256];	/* WELCOME's tests */
};

/* "HOST[:PORT]", "[V6]:PORT" or a bare IPv6 address. */
static int split_addr(const char *addr, char *host, size_t hlen, char *port, size_t plen)
{
	const char *colon = strrchr(addr, ':');
	snprintf(port, plen, "%d", PG_NET_PORT);
	if (addr[0] == '[') {
		const char *close = strchr(addr, ']');
		if (!close || (close[1] && close[1] != ':') || (size_t)(close - addr - 1) >= hlen)
			return -1;
		memcpy(host, addr + 1, (size_t)(close - addr - 1));
		host[close - addr - 1] = '\0';
		if (close[1] == ':')
			snprintf(port, plen, "%s", close + 2);
	} else if (colon && strchr(addr, ':') == colon) {
		if ((size_t)(colon - addr) >= hlen)
			return -1;
		memcpy(host, addr, (size_t)(colon - addr));
		host[colon - addr] = '\0';
		snprintf(port, plen, "%s", colon + 1);
	} else {
		if (strlen(addr) >= hlen)
			return -1;
		snprintf(host, hlen, "%s", addr);
	}
	char *end;
	long p = strtol(port, &end, 10);
	return host[0] && port[0] && !*end && p > 0 && p <= 65535 ? 0 : -1;
}

static int connect_by(int fd, const struct sockaddr *sa, socklen_t salen, double timeout,
		      char *err, size_t errlen)
{
	int fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	int r = connect(fd, sa, salen);
	if (r < 0 && errno == EINPROGRESS) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		r = poll(&p, 1, (int)(timeout * 1000.0) + 1);
		if (r == 0)
			return pg_err(err, errlen, "no answer within %.0f s", timeout);
		int soerr = 0;
		socklen_t sl = sizeof(soerr);
		getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl);
		errno = soerr;
		r = soerr ? -1 : 0;
	}
	if (r < 0)
		return pg_err(err, errlen, "%s", strerror(errno));
	fcntl(fd, F_SETFL, fl);
	return 0;
}

/* Sends o and waits for the answer; -1 with "peer NAME: ..." in err. */
static int ask(struct pg_peer *p, struct pg_net_out *o, struct pg_net_frame *f, double wait,
	       char *err, size_t errlen)
{
	char e[200];
	int bad = 0;
	if (pg_net_out_end(o) < 0)
		return pg_err(err, errlen, "peer %s: %s message too long", p->name, pg_net_msg_name(o->buf[5]));
	if (pg_net_send(p->fd, o, p->timeout, e, sizeof(e)) < 0 ||
	    pg_net_recv(p->fd, f, wait, p->timeout, &bad, e, sizeof(e)) < 0) {
		return pg_err(err, errlen, "peer %s: %s%s", p->name, e,
			      bad ? " (is it `perfguide serve` of this version?)" : "");
	}
	if (f->type == PG_NET_ERROR || f->type == PG_NET_BUSY) {
		/* the peer's words, escaped: '<' could start a LAVA signal */
		const char *why = pg_net_get(f, "reason");
		char shown[512];
		pg_term_text(why ? why : "", shown, sizeof(shown));
		return pg_err(err, errlen, "peer %s %s%s%s", p->name,
			      f->type == PG_NET_BUSY ? "is busy" : "refused", why ? ": " : "", shown);
	}
	return 0;
}

static int unhex(const char *s, uint8_t *out, size_t n)
{
	if (strlen(s) != 2 * n)
		return -1;
	for (size_t i = 0; i < 2 * n; i++) {
		char c = s[i];
		int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (v < 0)
			return -1;
		out[i / 2] = (uint8_t)(i % 2 ? out[i / 2] | v : v << 4);
	}
	return 0;
}

static int authenticate(struct pg_peer *p, const struct pg_net_frame *w, const char *psk_file,
			char *err, size_t errlen)
{
	char e[200], mac[PG_NET_MAC_HEX];
	const char *auth = pg_net_get(w, "auth");
	if (!auth || strcmp(auth, "none") == 0)
		return 0;
	if (strcmp(auth, "hmac-sha256") != 0)
		return pg_err(err, errlen, "peer %s asks for authentication '%.32s' this client does not know",
			      p->name, auth);
	if (!psk_file)
		return pg_err(err, errlen, "peer %s requires a key: give its key file (--psk-file)", p->name);
	uint8_t nonce[PG_NET_NONCE];
	const char *nh = pg_net_get(w, "nonce");
	if (!nh || unhex(nh, nonce, sizeof(nonce)) < 0)
		return pg_err(err, errlen, "peer %s sent no valid nonce", p->name);
	struct pg_net_key *k = malloc(sizeof(*k));
	int loose;
	if (!k || pg_net_load_key(psk_file, k, &loose, e, sizeof(e)) < 0 ||
	    pg_net_mac(k, nonce, sizeof(nonce), mac, e, sizeof(e)) < 0) {
		if (!k)
			snprintf(e, sizeof(e), "out of memory");
		pg_err(err, errlen, "%s", e);
		free(k);
		return -1;
	}
	memset(k, 0, sizeof(*k));
	free(k);
	struct pg_net_out o;
	struct pg_net_frame f;
	pg_net_out_begin(&o, PG_NET_AUTH);
	pg_net_out_add(&o, "mac", "%s", mac);
	if (ask(p, &o, &f, p->timeout, err, errlen) < 0)
		return -1;
	if (f.type != PG_NET_AUTH_OK)
		return pg_err(err, errlen, "peer %s answered AUTH with %s", p->name, pg_net_msg_name(f.type));
	return 0;
}

/* The control connection to host:port, the first of its addresses that
 * answers within p->timeout. 0, or -1 with err set. */
static int peer_connect(struct pg_peer *p, const char *addr, const char *host, const char *port,
			char *err, size_t errlen)
{
	char e[200];
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV };
	struct addrinfo *ai = NULL;
	int gr = getaddrinfo(host, port, &hints, &ai);
	if (gr != 0)
		return pg_err(err, errlen, "peer %s: %s", addr, gai_strerror(gr));
	snprintf(p->name, sizeof(p->name), ai->ai_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host, port);
	snprintf(e, sizeof(e), "no address");
	for (struct addrinfo *a = ai; a && p->fd < 0; a = a->ai_next) {
		int fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0) {
			snprintf(e, sizeof(e), "%s", strerror(errno));
			continue;
		}
		if (connect_by(fd, a->ai_addr, a->ai_addrlen, p->timeout, e, sizeof(e)) < 0) {
			close(fd);
			continue;
		}
		p->fd = fd;
		memcpy(&p->addr, a->ai_addr, a->ai_addrlen);
		p->addrlen = a->ai_addrlen;
	}
	freeaddrinfo(ai);
	if (p->fd < 0)
		return pg_err(err, errlen, "cannot reach peer %s: %s (is `perfguide serve` running there?)",
			      p->name, e);
	int one = 1;
	setsockopt(p->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return 0;
}

/* HELLO, and what WELCOME says of the peer; then the key when it asks. */
static int hello(struct pg_peer *p, const char *psk_file, char *err, size_t errlen)
{
	char e[200];
	struct pg_net_out o;
	struct pg_net_frame f;
	pg_net_out_begin(&o, PG_NET_HELLO);
	pg_net_out_add(&o, "client", "perfguide");
	if (ask(p, &o, &f, p->timeout, err, errlen) < 0)
		return -1;
	if (f.type != PG_NET_WELCOME)
		return pg_err(err, errlen, "peer %s answered HELLO with %s", p->name, pg_net_msg_name(f.type));
	const char *v = pg_net_get(&f, "version");
	const char *tests = pg_net_get(&f, "tests");
	snprintf(p->version, sizeof(p->version), "%s", v ? v : "");
	/* Only informative (a note beside results the cap may have cut): a
	 * malformed value is taken as no cap. */
	if (pg_net_get_double(&f, "max_rate", 0, 0, 1e12, &p->max_rate, e, sizeof(e)) < 0)
		p->max_rate = 0;
	p->have_tests = tests != NULL;
	snprintf(p->tests, sizeof(p->tests), "%s", tests ? tests : "");
	return authenticate(p, &f, psk_file, err, errlen);
}

int pg_peer_open(const char *addr, const char *psk_file, double timeout_s,
		 struct pg_peer **out, char *err, size_t errlen)
{
	char host[256], port[16];
	*out = NULL;
	if (split_addr(addr, host, sizeof(host), port, sizeof(port)) < 0)
		return pg_err(err, errlen, "bad peer address '%s' (HOST[:PORT])", addr);
	struct pg_peer *p = calloc(1, sizeof(*p));
	if (!p)
		return pg_err(err, errlen, "out of memory");
	p->fd = -1;
	p->timeout = timeout_s > 0 ? timeout_s : 5.0;
	if (peer_connect(p, addr, host, port, err, errlen) < 0 || hello(p, psk_file, err, errlen) < 0) {
		if (p->fd >= 0)
			close(p->fd);
		free(p);
		return -1;
	}
	*out = p;
	return 0;
}

int pg_peer_start(struct pg_peer *p, const struct pg_net_test *t, int *data_port,
		  char *err, size_t errlen)
{
	struct pg_net_out o;
	struct pg_net_frame f;
	char e[200];
	pg_net_out_begin(&o, PG_NET_START);
	pg_net_out_add(&o, "test", "%s", t->kind);
	pg_net_out_add(&o, "time", "%.6f", t->time);
	pg_net_out_add(&o, "msg", "%" PRIu64, t->msg);
	pg_net_out_add(&o, "window", "%" PRIu64, t->window);
	pg_net_out_add(&o, "size", "%" PRIu64, t->size);
	pg_net_out_add(&o, "streams", "%d", t->streams);
	if (t->cc[0])
		pg_net_out_add(&o, "cc", "%s", t->cc);
	if (t->rate)
		pg_net_out_add(&o, "rate", "%" PRIu64, t->rate);
	if (ask(p, &o, &f, p->timeout, err, errlen) < 0)
		return -1;
	uint64_t port;
	if (f.type != PG_NET_READY)
		return pg_err(err, errlen, "peer %s answered START with %s", p->name, pg_net_msg_name(f.type));
	if (pg_net_get_u64(&f, "port", 0, 1, 65535, &port, e, sizeof(e)) != 0)
		return pg_err(err, errlen, "peer %s: READY without a data port", p->name);
	*data_port = (int)port;
	return 0;
}

int pg_peer_stop(struct pg_peer *p, struct pg_net_report *r, char *err, size_t errlen)
{
	struct pg_net_out o;
	struct pg_net_frame f;
	char e[200];
	memset(r, 0, sizeof(*r));
	pg_net_out_begin(&o, PG_NET_STOP);
	if (ask(p, &o, &f, p->timeout + STOP_SLACK, err, errlen) < 0)
		return -1;
	if (f.type != PG_NET_REPORT)
		return pg_err(err, errlen, "peer %s answered STOP with %s", p->name, pg_net_msg_name(f.type));
	double busy;
	if (pg_net_get_u64(&f, "bytes_rx", 0, 0, UINT64_MAX, &r->bytes_rx, e, sizeof(e)) < 0 ||
	    pg_net_get_u64(&f, "bytes_tx", 0, 0, UINT64_MAX, &r->bytes_tx, e, sizeof(e)) < 0 ||
	    pg_net_get_u64(&f, "packets_rx", 0, 0, UINT64_MAX, &r->packets_rx, e, sizeof(e)) < 0 ||
	    pg_net_get_u64(&f, "packets_tx", 0, 0, UINT64_MAX, &r->packets_tx, e, sizeof(e)) < 0 ||
	    pg_net_get_double(&f, "seconds", 0, 0, 1e9, &r->seconds, e, sizeof(e)) < 0 ||
	    pg_net_get_double(&f, "user_s", 0, 0, 1e9, &r->user_s, e, sizeof(e)) < 0 ||
	    pg_net_get_double(&f, "sys_s", 0, 0, 1e9, &r->sys_s, e, sizeof(e)) < 0 ||
	    pg_net_get_double(&f, "send_s", 0, 0, 1e9, &r->send_s, e, sizeof(e)) < 0) {
		return pg_err(err, errlen, "peer %s: bad REPORT: %s", p->name, e);
	}
	int b = pg_net_get_double(&f, "busy_pct", 0, 0, 100, &busy, e, sizeof(e));
	if (b < 0)
		return pg_err(err, errlen, "peer %s: bad REPORT: %s", p->name, e);
	r->have_busy = b == 0;
	r->busy_pct = busy;
	return 0;
}

const char *pg_peer_version(const struct pg_peer *p)
{
	return p->version;
}

double pg_peer_max_rate(const struct pg_peer *p)
{
	return p->max_rate;
}

int pg_peer_has_test(const struct pg_peer *p, const char *kind)
{
	if (!p->have_tests) {
		/* an older peer: the kinds every peer ran before WELCOME listed them */
		const struct pg_net_kind *k = pg_net_kind_find(kind);
		return k && k->v1;
	}
	size_t n = strlen(kind);
	for (const char *c = p->tests; *c;) {
		const char *e = strchr(c, ',');
		size_t l = e ? (size_t)(e - c) : strlen(c);
		if (l == n && strncmp(c, kind, n) == 0)
			return 1;
		if (!e)
			break;
		c = e + 1;
	}
	return 0;
}

const struct sockaddr *pg_peer_addr(const struct pg_peer *p, socklen_t *len)
{
	*len = p->addrlen;
	return (const struct sockaddr *)&p->addr;
}

void pg_peer_close(struct pg_peer *p)
{
	if (!p)
		return;
	struct pg_net_out o;
	char e[100];
	pg_net_out_begin(&o, PG_NET_BYE);
	if (pg_net_out_end(&o) == 0)
		pg_net_send(p->fd, &o, 0.5, e, sizeof(e));
	close(p->fd);
	free(p);
}

/* The program to run as the local peer: PG_PEER_EXE, or this one. */
static void peer_exe(char *exe, size_t len)
{
	const char *env = getenv("PG_PEER_EXE");
	ssize_t n = env ? -1 : readlink("/proc/self/exe", exe, len - 1);
	if (env)
		snprintf(exe, len, "%s", env);
	else if (n > 0)
		exe[n] = '\0';
	else
		snprintf(exe, len, "/proc/self/exe");
}

/* The child's first line, within 10 s: "listening on ADDR:PORT" gives
 * ADDR:PORT. 0, or -1. */
static int read_listening(int fd, char *addr, size_t addrlen)
{
	char line[128];
	size_t got = 0;
	double deadline = pg_now() + 10.0;
	while (got < sizeof(line) - 1 && !memchr(line, '\n', got)) {
		double left = deadline - pg_now();
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		if (left <= 0 || poll(&pf, 1, (int)(left * 1000.0) + 1) == 0)
			break;
		ssize_t r = read(fd, line + got, sizeof(line) - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	line[got] = '\0';
	const char *pre = "listening on ";
	char *nl = strchr(line, '\n');
	if (!nl || strncmp(line, pre, strlen(pre)) != 0)
		return -1;
	*nl = '\0';
	snprintf(addr, addrlen, "%s", line + strlen(pre));
	return 0;
}

int pg_peer_spawn_local(char *addr, size_t addrlen, pid_t *pid, char *err, size_t errlen)
{
	/* Everything the child needs is prepared before fork: after it, only
	 * async-signal-safe calls until exec. */
	char exe[PATH_MAX];
	peer_exe(exe, sizeof(exe));
	/* Only this machine reaches it, and it serves this run: no cap on what
	 * it sends (loopback carries tens of Gbit/s), the benchmarks' longest
	 * time, and as many connections from 127.0.0.1 as it has. */
	char *argv[] = { exe, "serve", "--bind", "127.0.0.1", "--port", "0", "--max-tests", "16",
			 "--max-rate", "0", "--max-time", "86400", "--max-conns-per-addr", "64",
			 "--exit-with-parent", NULL };
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
		return pg_err(err, errlen, "starting the local peer: %s", strerror(errno));
	pid_t c = fork();
	if (c < 0) {
		pg_err(err, errlen, "starting the local peer: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (c == 0) {
		/* Its own process group: Ctrl-C at the terminal is the run's to
		 * handle, and the run stops the peer. The signal mask survives
		 * exec, and a runner thread may block SIGTERM: clear it. */
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		setpgid(0, 0);
		dup2(fds[1], STDOUT_FILENO);	/* dup2 clears close-on-exec */
		execv(exe, argv);
		_exit(127);
	}
	close(fds[1]);
	int rc = read_listening(fds[0], addr, addrlen);
	close(fds[0]);
	if (rc < 0) {
		pg_peer_stop_local(c);
		return pg_err(err, errlen, "the local peer (%s serve) did not start", exe);
	}
	*pid = c;
	return 0;
}

void pg_peer_stop_local(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	for (int i = 0; i < 300; i++) {	/* 3 s grace */
		pid_t r = waitpid(pid, NULL, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR))
			return;
		pg_sleep_s(0.01);
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}
