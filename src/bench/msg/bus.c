/* SPDX-License-Identifier: MIT */
/*
 * The rpmsg bus as user space sees it, through sysfs and the rpmsg_char
 * uAPI (include/uapi/linux/rpmsg.h):
 *
 *   /sys/bus/rpmsg/devices/virtio0.ti.ipc4.ping-pong.-1.13   a service the
 *       remote announced (name, dst: its endpoint's address), under the
 *       remote's virtio device, itself under /sys/class/remoteproc/remoteprocN
 *   .../virtio0/virtio0.rpmsg_ctrl.0.0/rpmsg/rpmsg_ctrl0     the control
 *       device (/dev/rpmsg_ctrl0) of that remote; before Linux 5.18 it
 *       hangs off virtio0.rpmsg_chrdev.0.0, or off the service device once
 *       it is bound to rpmsg_chrdev (what ADI's rpmsg-bind-chardev does)
 *
 * RPMSG_CREATE_EPT_IOCTL on the control device makes an endpoint device,
 * /dev/rpmsgN, whose `name` in sysfs is the one we gave; messages written
 * to it go to `dst`, the remote's echoes come back on read().
 * RPMSG_DESTROY_EPT_IOCTL on /dev/rpmsgN removes it again: closing alone
 * would leave the device behind.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<linux/rpmsg.h>)
#include <linux/rpmsg.h>
#endif
#endif
#ifndef RPMSG_CREATE_EPT_IOCTL
#include <linux/ioctl.h>
#include <linux/types.h>
struct rpmsg_endpoint_info {
	char name[32];
	__u32 src;
	__u32 dst;
};
#define RPMSG_CREATE_EPT_IOCTL _IOW(0xb5, 0x1, struct rpmsg_endpoint_info)
#define RPMSG_DESTROY_EPT_IOCTL _IO(0xb5, 0x2)
#endif
#ifndef RPMSG_ADDR_ANY
#define RPMSG_ADDR_ANY 0xFFFFFFFFu
#endif

#include "core/timer.h"
#include "msg.h"

#define NS_ADDR 53		/* the name service's address */
#define MAX_DEVICES 256

const char *const msg_echo_services[] = {
	"ti.ipc4.ping-pong",		/* TI's IPC echo test firmware */
	"rpmsg_chrdev",			/* TI's, its endpoint 14 (rpmsg_char_simple) */
	"sharc-echo",			/* ADI's rpmsg_echo_example */
	"rpmsg-openamp-demo-channel",	/* OpenAMP's echo demo (ST, Xilinx, NXP) */
	"rpmsg-client-sample",		/* the remote end of Linux's sample client */
	"rpmsg-echo",			/* tests/vm/rpmsg_echo */
	NULL,
};

struct cand {
	struct msg_service s;
	char real[PATH_MAX];	/* the device's directory under /sys/devices */
	char rproc_dir[32];	/* remoteprocN */
};

/* Copies what fits: names from sysfs are short, the buffers are sized for them. */
static void scopy(char *dst, size_t len, const char *src)
{
	size_t k = strnlen(src, len - 1);
	memcpy(dst, src, k);
	dst[k] = '\0';
}

static int read_attr(const char *dir, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	char *ok = fgets(buf, (int)len, f);
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int dots_only(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

static void free_list(struct dirent **l, int n)
{
	for (int i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

static int echo_rank(const char *name)
{
	for (int i = 0; msg_echo_services[i]; i++)
		if (strcmp(name, msg_echo_services[i]) == 0)
			return i;
	return -1;
}

/* The remote processors: which one a device hangs under, and its name. */
static void find_rproc(const char *root, struct cand *c)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/sys/class/remoteproc", root);
	struct dirent **l;
	int n = scandir(dir, &l, dots_only, alphasort);
	for (int i = 0; i < n; i++) {
		char p[PATH_MAX + 300], real[PATH_MAX];
		snprintf(p, sizeof(p), "%s/%s", dir, l[i]->d_name);
		if (!realpath(p, real))
			continue;
		size_t k = strlen(real);
		if (strncmp(c->real, real, k) == 0 && c->real[k] == '/') {
			scopy(c->rproc_dir, sizeof(c->rproc_dir), l[i]->d_name);
			if (read_attr(p, "name", c->s.rproc, sizeof(c->s.rproc)) < 0 || !c->s.rproc[0])
				scopy(c->s.rproc, sizeof(c->s.rproc), l[i]->d_name);
			break;
		}
	}
	if (n > 0)
		free_list(l, n);
}

/* Every device on the bus that a remote announced; -1 without a bus. */
static int list_services(const char *root, struct cand *c, int max, int *all)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/sys/bus/rpmsg/devices", root);
	struct dirent **l;
	int n = scandir(dir, &l, dots_only, alphasort), k = 0;
	*all = n > 0 ? n : 0;
	if (n < 0)
		return -1;
	for (int i = 0; i < n && k < max; i++) {
		char p[PATH_MAX + 300], dst[32];
		struct cand *x = &c[k];
		memset(x, 0, sizeof(*x));
		snprintf(p, sizeof(p), "%s/%s", dir, l[i]->d_name);
		if (read_attr(p, "name", x->s.name, sizeof(x->s.name)) < 0 ||
		    read_attr(p, "dst", dst, sizeof(dst)) < 0 || !realpath(p, x->real))
			continue;
		char *end;
		unsigned long d = strtoul(dst, &end, 0);
		/* The control and name-service devices are the kernel's own. */
		if (end == dst || d == 0 || d == NS_ADDR || d >= RPMSG_ADDR_ANY ||
		    strcmp(x->s.name, "rpmsg_ctrl") == 0 || strcmp(x->s.name, "rpmsg_ns") == 0)
			continue;
		x->s.dst = (uint32_t)d;
		scopy(x->s.dev, sizeof(x->s.dev), l[i]->d_name);
		char *slash = strrchr(x->real, '/');
		if (slash) {
			*slash = '\0';
			const char *pp = strrchr(x->real, '/');
			scopy(x->s.parent, sizeof(x->s.parent), pp ? pp + 1 : x->real);
			*slash = '/';
		}
		find_rproc(root, x);
		k++;
	}
	free_list(l, n);
	return k;
}

/* The first rpmsg_ctrlN under dir/rpmsg, or -1. */
static int ctrl_under(const char *dir, char *out, size_t len)
{
	char p[PATH_MAX + 16];
	snprintf(p, sizeof(p), "%s/rpmsg", dir);
	struct dirent **l;
	int n = scandir(p, &l, dots_only, alphasort), rc = -1;
	for (int i = 0; i < n && rc < 0; i++)
		if (strncmp(l[i]->d_name, "rpmsg_ctrl", 10) == 0) {
			scopy(out, len, l[i]->d_name);
			rc = 0;
		}
	if (n > 0)
		free_list(l, n);
	return rc;
}

static int find_ctrl(struct cand *c)
{
	if (ctrl_under(c->real, c->s.ctrl, sizeof(c->s.ctrl)) == 0)
		return 0;
	char parent[PATH_MAX];
	scopy(parent, sizeof(parent), c->real);
	char *slash = strrchr(parent, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	struct dirent **l;
	int n = scandir(parent, &l, dots_only, alphasort), rc = -1;
	for (int i = 0; i < n && rc < 0; i++) {
		char p[PATH_MAX + 300], name[MSG_NAME_LEN];
		snprintf(p, sizeof(p), "%s/%s", parent, l[i]->d_name);
		if (read_attr(p, "name", name, sizeof(name)) == 0 &&
		    (strcmp(name, "rpmsg_ctrl") == 0 || strcmp(name, "rpmsg_chrdev") == 0))
			rc = ctrl_under(p, c->s.ctrl, sizeof(c->s.ctrl));
	}
	if (n > 0)
		free_list(l, n);
	return rc;
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* The remote processor `sel` names: its directory in /sys/class/remoteproc. */
static int resolve_rproc(const char *root, const char *sel, char *out, size_t len)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/sys/class/remoteproc", root);
	struct dirent **l;
	int n = scandir(dir, &l, dots_only, alphasort), rc = -1;
	for (int i = 0; i < n && rc < 0; i++) {
		char p[PATH_MAX + 300], name[64] = "";
		snprintf(p, sizeof(p), "%s/%s", dir, l[i]->d_name);
		read_attr(p, "name", name, sizeof(name));
		const char *d = l[i]->d_name;
		if ((all_digits(sel) && strncmp(d, "remoteproc", 10) == 0 && strcmp(d + 10, sel) == 0) ||
		    strcmp(d, sel) == 0 || strcmp(name, sel) == 0) {
			scopy(out, len, d);
			rc = 0;
		}
	}
	if (n > 0)
		free_list(l, n);
	return rc;
}

static void found_list(const struct cand *c, int n, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && used < len; i++) {
		int w = snprintf(buf + used, len - used, "%s%s@%s", i ? ", " : "", c[i].s.name,
				 c[i].s.parent);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

static int by_dst(const void *a, const void *b)
{
	uint32_t x = ((const struct msg_service *)a)->dst, y = ((const struct msg_service *)b)->dst;
	return x < y ? -1 : x > y;
}

int msg_find_services(const char *root, const char *remote, struct msg_service *out, int max,
		      char *why, size_t len)
{
	char rsel[64] = "", ssel[MSG_NAME_LEN] = "", rproc[32] = "";
	const char *colon = strchr(remote, ':');
	if (colon) {
		snprintf(rsel, sizeof(rsel), "%.*s", (int)(colon - remote), remote);
		scopy(ssel, sizeof(ssel), colon + 1);
	} else if (strcmp(remote, "auto") != 0) {
		if (resolve_rproc(root, remote, rproc, sizeof(rproc)) == 0)
			scopy(rsel, sizeof(rsel), remote);
		else if (all_digits(remote) || strncmp(remote, "remoteproc", 10) == 0)
			scopy(rsel, sizeof(rsel), remote);
		else
			scopy(ssel, sizeof(ssel), remote);
	}
	if (rsel[0] && !rproc[0] && resolve_rproc(root, rsel, rproc, sizeof(rproc)) < 0) {
		snprintf(why, len, "no remote processor '%s' in /sys/class/remoteproc "
			 "(give its index, remoteprocN or its name)", rsel);
		return 0;
	}

	struct cand *c = calloc(MAX_DEVICES, sizeof(*c));
	if (!c) {
		snprintf(why, len, "out of memory");
		return 0;
	}
	int all, n = list_services(root, c, MAX_DEVICES, &all), best = -1;
	if (n < 0 || all == 0) {
		snprintf(why, len, "no rpmsg bus (load rpmsg_char/rpmsg_ctrl; no remote "
			 "processor is running)");
		free(c);
		return 0;
	}
	/* The first remote (by device name) and, on it, the service auto
	 * prefers or the one named. */
	for (int i = 0; i < n; i++) {
		if (rproc[0] && strcmp(c[i].rproc_dir, rproc) != 0)
			continue;
		int rank = ssel[0] ? (strcmp(c[i].s.name, ssel) == 0 ? 0 : -1) : echo_rank(c[i].s.name);
		if (rank < 0)
			continue;
		if (best < 0 || strcmp(c[i].s.parent, c[best].s.parent) < 0 ||
		    (strcmp(c[i].s.parent, c[best].s.parent) == 0 && rank < echo_rank(c[best].s.name)))
			best = i;
	}
	if (best < 0) {
		char found[160];
		found_list(c, n, found, sizeof(found));
		if (ssel[0])
			snprintf(why, len, "no service '%s'%s%s on the rpmsg bus (it has: %s)", ssel,
				 rproc[0] ? " on " : "", rproc, n ? found : "no service");
		else
			snprintf(why, len, "no echo service%s%s on the rpmsg bus (it has: %s); name one "
				 "with -p remote=SERVICE", rproc[0] ? " on " : "", rproc,
				 n ? found : "no service");
		free(c);
		return 0;
	}
	int k = 0;
	for (int i = 0; i < n && k < max; i++) {
		if (strcmp(c[i].s.parent, c[best].s.parent) != 0 ||
		    strcmp(c[i].s.name, c[best].s.name) != 0)
			continue;
		if (find_ctrl(&c[i]) < 0) {
			snprintf(why, len, "no rpmsg control device for %s (load rpmsg_ctrl, or "
				 "rpmsg_char before Linux 5.18)", c[i].s.dev);
			free(c);
			return 0;
		}
		out[k++] = c[i].s;
	}
	qsort(out, (size_t)k, sizeof(*out), by_dst);
	free(c);
	return k;
}

/* The endpoint device below the control device whose name is `name`:
 * its rpmsgN, or -1. */
static int find_eptdev(const char *root, const char *ctrl, const char *name, char *out, size_t len)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/sys/class/rpmsg/%s", root, ctrl);
	struct dirent **l;
	int n = scandir(dir, &l, dots_only, alphasort), rc = -1;
	for (int i = 0; i < n && rc < 0; i++) {
		char p[PATH_MAX + 300], have[MSG_NAME_LEN];
		if (strncmp(l[i]->d_name, "rpmsg", 5) != 0 || strncmp(l[i]->d_name, "rpmsg_", 6) == 0)
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, l[i]->d_name);
		if (read_attr(p, "name", have, sizeof(have)) == 0 && strcmp(have, name) == 0) {
			scopy(out, len, l[i]->d_name);
			rc = 0;
		}
	}
	if (n > 0)
		free_list(l, n);
	return rc;
}

/* Opens /dev/NAME; devtmpfs makes the node at once, udev may take a moment. */
static int open_node(const char *root, const char *dev, char *path, size_t len)
{
	snprintf(path, len, "%s/dev/%s", root, dev);
	for (int tries = 0; tries < 100; tries++) {
		int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0 || errno != ENOENT)
			return fd;
		pg_sleep_s(0.01);
	}
	return -1;
}

int msg_ept_open(const char *root, const struct msg_service *s, const char *name,
		 struct msg_ept *e, char *why, size_t len)
{
	char ctrl[PATH_MAX];
	memset(e, 0, sizeof(*e));
	e->fd = -1;
	scopy(e->name, sizeof(e->name), name);
	snprintf(ctrl, sizeof(ctrl), "%s/dev/%s", root, s->ctrl);
	int cfd = open(ctrl, O_RDWR | O_CLOEXEC);
	if (cfd < 0) {
		int err = errno;
		snprintf(why, len, "cannot open %s: %s%s", ctrl, strerror(err),
			 err == EACCES || err == EPERM ? " (run as root, or give your user access "
			 "to /dev/rpmsg_ctrl* and /dev/rpmsg*)" : "");
		return err == EACCES || err == EPERM || err == ENOENT ? PG_SKIP : PG_ERROR;
	}
	struct rpmsg_endpoint_info info;
	memset(&info, 0, sizeof(info));
	scopy(info.name, sizeof(info.name), name);
	info.src = RPMSG_ADDR_ANY;
	info.dst = s->dst;
	int rc = ioctl(cfd, RPMSG_CREATE_EPT_IOCTL, &info);
	int err = errno;
	close(cfd);
	if (rc < 0) {
		snprintf(why, len, "RPMSG_CREATE_EPT_IOCTL on %s (to %s, address %u): %s", ctrl,
			 s->name, s->dst, strerror(err));
		return PG_ERROR;
	}
	char dev[32];
	if (find_eptdev(root, s->ctrl, name, dev, sizeof(dev)) < 0) {
		snprintf(why, len, "the endpoint %s made on %s is not in /sys/class/rpmsg/%s",
			 name, ctrl, s->ctrl);
		return PG_ERROR;
	}
	e->fd = open_node(root, dev, e->path, sizeof(e->path));
	if (e->fd < 0) {
		snprintf(why, len, "cannot open %s (endpoint %s, left behind): %s", e->path, name,
			 strerror(errno));
		return PG_ERROR;
	}
	return PG_OK;
}

void msg_ept_close(struct msg_ept *e)
{
	if (e->fd < 0)
		return;
	ioctl(e->fd, RPMSG_DESTROY_EPT_IOCTL, NULL);
	close(e->fd);
	e->fd = -1;
}

int msg_ept_reap(const char *root, const char *ctrl)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/sys/class/rpmsg/%s", root, ctrl);
	struct dirent **l;
	int n = scandir(dir, &l, dots_only, alphasort), reaped = 0;
	for (int i = 0; i < n; i++) {
		char p[PATH_MAX + 300], name[MSG_NAME_LEN];
		long pid;
		int copy;
		snprintf(p, sizeof(p), "%s/%s", dir, l[i]->d_name);
		if (read_attr(p, "name", name, sizeof(name)) < 0 ||
		    sscanf(name, "perfguide.%ld.%d", &pid, &copy) != 2 || pid <= 0 ||
		    pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		char path[PATH_MAX];
		int fd = open_node(root, l[i]->d_name, path, sizeof(path));
		if (fd < 0)
			continue;
		if (ioctl(fd, RPMSG_DESTROY_EPT_IOCTL, NULL) == 0)
			reaped++;
		close(fd);
	}
	if (n > 0)
		free_list(l, n);
	return reaped;
}
