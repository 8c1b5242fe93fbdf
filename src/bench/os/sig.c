/* SPDX-License-Identifier: MIT */
/*
 * Signals, LMBench's lat_sig. One operation is one:
 *   install  sigaction() of a handler, the action filled in and the old one
 *            asked for every time, as lat_sig does;
 *   catch    signal sent to this process and its (empty) handler run, less
 *            the cost of sending a signal nobody catches (signal 0), which
 *            setup measures, as lat_sig subtracts it;
 *   prot     write to a read-only page: the fault, the SIGSEGV handler and
 *            the return to the faulting write, less the catch figure
 *            (lat_sig subtracts it the same way).
 * Handlers are process-wide: setup installs them, teardown puts back what
 * was there. The signal is sent with kill() to the process, as lat_sig
 * does; the runner runs this one-copy benchmark on its only thread and
 * blocks most signals there, so setup unblocks SIGUSR1, SIGSEGV and SIGBUS.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "os.h"

enum sig_kind { SIG_INSTALL, SIG_CATCH, SIG_PROT };

struct sig_state {
	struct sigaction old_usr1, old_segv, old_bus;
	int installed;
	sigset_t old_mask;
	int masked;
	char *page;
	size_t page_len;
};

static volatile sig_atomic_t caught;
static volatile uint64_t faults, fault_target;
static char *prot_page;
static size_t prot_len;

static void on_usr1(int sig)
{
	(void)sig;
	caught++;
}

/* The faulting write runs again when this returns: it succeeds once the
 * page is writable, after `fault_target` faults. */
static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	char *at = si->si_addr;
	if (at < prot_page || at >= prot_page + prot_len) {
		/* A real crash, not ours: let it crash (the fault repeats with
		 * the default action). */
		signal(sig, SIG_DFL);
		return;
	}
	if (++faults >= fault_target)
		mprotect(prot_page, prot_len, PROT_READ | PROT_WRITE);
}

static void send_nothing(void *arg, uint64_t n)
{
	(void)arg;
	pid_t me = getpid();
	for (uint64_t i = 0; i < n; i++)
		kill(me, 0);
}

static void send_usr1(void *arg, uint64_t n)
{
	(void)arg;
	pid_t me = getpid();
	for (uint64_t i = 0; i < n; i++)
		kill(me, SIGUSR1);
}

static int sig_setup(struct pg_ctx *ctx)
{
	enum sig_kind k = *(const enum sig_kind *)ctx->bench->data;
	struct sig_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, &s->old_usr1) != 0)
		return pg_error(ctx, "cannot install a SIGUSR1 handler");
	s->installed = 1;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGSEGV);
	sigaddset(&set, SIGBUS);
	pthread_sigmask(SIG_UNBLOCK, &set, &s->old_mask);
	s->masked = 1;
	if (k == SIG_INSTALL)
		return PG_OK;

	double send = os_time_per(send_nothing, NULL);
	caught = 0;
	double catch = os_time_per(send_usr1, NULL);
	if (caught == 0)
		return pg_error(ctx, "SIGUSR1 sent to this thread was never caught");
	if (k == SIG_CATCH) {
		ctx->overhead[0] = send;
		pg_note(ctx, "sending cost %.3f us subtracted", send * 1e6);
		return PG_OK;
	}

	long pg = sysconf(_SC_PAGESIZE);
	s->page_len = pg > 0 ? (size_t)pg : 4096;
	s->page = mmap(NULL, s->page_len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->page == MAP_FAILED) {
		s->page = NULL;
		return pg_error(ctx, "cannot map a page");
	}
	prot_page = s->page;
	prot_len = s->page_len;
	sa.sa_handler = NULL;
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	if (sigaction(SIGSEGV, &sa, &s->old_segv) != 0 || sigaction(SIGBUS, &sa, &s->old_bus) != 0)
		return pg_error(ctx, "cannot install a SIGSEGV handler");
	s->installed = 2;
	ctx->overhead[0] = catch > send ? catch - send : 0;
	pg_note(ctx, "signal catch cost %.3f us subtracted", ctx->overhead[0] * 1e6);
	return PG_OK;
}

static void sig_teardown(struct pg_ctx *ctx)
{
	struct sig_state *s = ctx->priv;
	if (!s)
		return;
	if (s->installed >= 1)
		sigaction(SIGUSR1, &s->old_usr1, NULL);
	if (s->installed >= 2) {
		sigaction(SIGSEGV, &s->old_segv, NULL);
		sigaction(SIGBUS, &s->old_bus, NULL);
	}
	if (s->masked)
		pthread_sigmask(SIG_SETMASK, &s->old_mask, NULL);
	if (s->page)
		munmap(s->page, s->page_len);
	free(s);
}

static int sig_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	enum sig_kind k = *(const enum sig_kind *)ctx->bench->data;
	struct sig_state *s = ctx->priv;
	if (k == SIG_INSTALL) {
		struct sigaction sa, old;
		memset(&sa, 0, sizeof(sa));
		for (uint64_t i = 0; i < iters; i++) {
			sa.sa_handler = on_usr1;
			sigemptyset(&sa.sa_mask);
			sa.sa_flags = 0;
			if (sigaction(SIGUSR1, &sa, &old) != 0)
				return pg_error(ctx, "sigaction failed");
		}
		pg_consume((uint64_t)(uintptr_t)old.sa_handler);
		counts[0] = (double)iters;
	} else if (k == SIG_CATCH) {
		caught = 0;
		send_usr1(NULL, iters);
		/* Counted as handled, not as sent. */
		counts[0] = (double)caught;
		if ((uint64_t)caught != iters)
			return pg_error(ctx, "sent %llu signals, caught %llu",
					(unsigned long long)iters, (unsigned long long)caught);
	} else {
		faults = 0;
		fault_target = iters;
		if (mprotect(s->page, s->page_len, PROT_READ) != 0)
			return pg_error(ctx, "mprotect failed");
		*(volatile char *)s->page = 1;
		counts[0] = (double)faults;
		if (faults != iters)
			return pg_error(ctx, "expected %llu protection faults, got %llu",
					(unsigned long long)iters, (unsigned long long)faults);
	}
	return PG_OK;
}

static void sig_label(const struct pg_bench *b, const struct pg_args *a, const char *metric,
		      char *buf, size_t len)
{
	(void)a;
	(void)metric;
	snprintf(buf, len, "lat_sig-%s", strrchr(b->id, '.') + 1);
}

static const struct pg_param no_params[] = { { 0 } };
static const struct pg_metric us_per_op[] = {
	{ "latency", "us", PG_TIME_PER, 1e6, 0, 0 },
	{ 0 },
};

static const enum sig_kind k_install = SIG_INSTALL, k_catch = SIG_CATCH, k_prot = SIG_PROT;

const struct pg_bench pg_os_sig_install = {
	.id = "os.sig.install", .title = "Signal handler installation (lat_sig install)",
	.section = &pg_os_sec_lmbench,
	.params = no_params, .metrics = us_per_op, .data = &k_install,
	.setup = sig_setup, .step = sig_step, .teardown = sig_teardown, .label = sig_label,
};
const struct pg_bench pg_os_sig_catch = {
	.id = "os.sig.catch", .title = "Signal handler overhead, send and catch (lat_sig catch)",
	.section = &pg_os_sec_lmbench,
	.params = no_params, .metrics = us_per_op, .data = &k_catch,
	.setup = sig_setup, .step = sig_step, .teardown = sig_teardown, .label = sig_label,
};
const struct pg_bench pg_os_sig_prot = {
	.id = "os.sig.prot", .title = "Protection fault caught by a handler (lat_sig prot)",
	.section = &pg_os_sec_lmbench,
	.params = no_params, .metrics = us_per_op, .data = &k_prot,
	.setup = sig_setup, .step = sig_step, .teardown = sig_teardown, .label = sig_label,
};
