/* SPDX-License-Identifier: MIT */
/*
 * Boot time, facts of the last boot rather than timed samples (the runner
 * records them once):
 *   os.boot.kernel     seconds from the kernel's start to the start of the
 *                      first user-space process: PID 1's start time in
 *                      /proc/1/stat, which the kernel counts from boot;
 *   os.boot.userspace  seconds the init system took to bring user space up,
 *                      where it says (systemd: `systemd-analyze time`).
 * In a container PID 1 is the container's init, started long after the
 * host booted: that is no boot time, and the result says skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os.h"

/* A container's init starts whenever the container does; a kernel that
 * takes this long to reach init is not what the figure is for. */
#define MAX_KERNEL_BOOT_S 300.0

struct boot_state {
	double seconds;
};

static int kernel_boot(struct pg_ctx *ctx, double *out)
{
	FILE *f = fopen("/proc/1/stat", "r");
	if (!f)
		return pg_skip(ctx, "cannot read /proc/1/stat: is /proc mounted?");
	char line[1024];
	char *ok = fgets(line, sizeof(line), f);
	fclose(f);
	/* Fields after the command name, which may hold spaces: start after
	 * the last ')'. starttime is field 22; field 3 follows the ')'. */
	char *p = ok ? strrchr(line, ')') : NULL;
	if (!p)
		return pg_skip(ctx, "cannot parse /proc/1/stat");
	unsigned long long start = 0;
	p++;
	for (int field = 3; field <= 22; field++) {
		while (*p == ' ')
			p++;
		if (field == 22) {
			start = strtoull(p, NULL, 10);
			break;
		}
		p = strchr(p, ' ');
		if (!p)
			return pg_skip(ctx, "cannot parse /proc/1/stat");
	}
	long hz = sysconf(_SC_CLK_TCK);
	double s = (double)start / (double)(hz > 0 ? hz : 100);
	if (s > MAX_KERNEL_BOOT_S)
		return pg_skip(ctx, "PID 1 started %.0f s after the kernel: a container or a late init, "
			       "not a boot; run on the board itself", s);
	*out = s;
	return PG_OK;
}

/* "Startup finished in 1.2s (kernel) + 3min 4.567s (userspace) = ..." */
static int parse_span(const char *text, const char *what, double *out)
{
	const char *end = strstr(text, what);
	if (!end)
		return -1;
	const char *start = end;
	while (start > text && start[-1] != '+' && start[-1] != 'n')
		start--;
	double total = 0;
	int any = 0;
	const char *p = start;
	while (p < end) {
		char *q;
		double v = strtod(p, &q);
		if (q == p) {
			p++;
			continue;
		}
		double mult = 1;
		if (strncmp(q, "min", 3) == 0)
			mult = 60;
		else if (strncmp(q, "ms", 2) == 0)
			mult = 1e-3;
		else if (strncmp(q, "us", 2) == 0)
			mult = 1e-6;
		else if (*q == 'h')
			mult = 3600;
		total += v * mult;
		any = 1;
		p = q;
		while (p < end && *p != ' ')
			p++;
	}
	if (!any)
		return -1;
	*out = total;
	return 0;
}

static int userspace_boot(struct pg_ctx *ctx, double *out)
{
	if (access("/run/systemd/system", F_OK) != 0)
		return pg_skip(ctx, "the init system is not systemd: it reports no user-space boot time");
	FILE *p = popen("systemd-analyze time 2>&1", "r");
	if (!p)
		return pg_skip(ctx, "cannot run systemd-analyze");
	char text[1024] = "";
	size_t n = fread(text, 1, sizeof(text) - 1, p);
	text[n] = '\0';
	pclose(p);
	if (parse_span(text, "(userspace)", out) != 0) {
		char *nl = strchr(text, '\n');
		if (nl)
			*nl = '\0';
		return pg_skip(ctx, "systemd-analyze gave no user-space time (%.120s): has boot finished?",
			       text);
	}
	return PG_OK;
}

static int boot_setup(struct pg_ctx *ctx)
{
	struct boot_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	if (ctx->bench->data)
		return userspace_boot(ctx, &s->seconds);
	return kernel_boot(ctx, &s->seconds);
}

static void boot_teardown(struct pg_ctx *ctx)
{
	free(ctx->priv);
}

static int boot_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	(void)iters;
	struct boot_state *s = ctx->priv;
	counts[0] = s->seconds;
	return PG_OK;
}

static const struct pg_param no_params[] = { { 0 } };
static const struct pg_metric seconds[] = {
	{ "time", "s", PG_VALUE, 1, 0, 0 },
	{ 0 },
};
static const int userspace = 1;

const struct pg_bench pg_os_boot_kernel = {
	.id = "os.boot.kernel", .title = "Boot time, kernel start to first user-space process",
	.section = &pg_os_sec_boot,
	.params = no_params, .metrics = seconds, .once = 1,
	.setup = boot_setup, .step = boot_step, .teardown = boot_teardown,
};
const struct pg_bench pg_os_boot_userspace = {
	.id = "os.boot.userspace", .title = "Boot time, user space (systemd)",
	.section = &pg_os_sec_boot,
	.params = no_params, .metrics = seconds, .once = 1, .data = &userspace,
	.setup = boot_setup, .step = boot_step, .teardown = boot_teardown,
};
