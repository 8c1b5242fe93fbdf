/* SPDX-License-Identifier: MIT */
/*
 * The CAN group's table and what every benchmark's setup shares: finding
 * the interface the `if` parameter names, checking it can carry what was
 * asked, and opening raw sockets on it.
 */
#include <errno.h>
#include <linux/can/netlink.h>
#include <linux/can/raw.h>
#include <net/if_arp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "can.h"
#include "core/err.h"

const struct pg_section can_section = {
	.title = "DCAN",
	.intro = "SocketCAN raw sockets on the board's CAN interface (any controller's driver, "
		 "or vcan/vxcan): frames sent, round trips through a peer, and the bus load the "
		 "driver sustains at its bitrate, stuffed bits counted.",
	.order = 150,
	.cpu_load = 1,
};

const struct pg_bench *const pg_group_can[] = {
	&pg_can_tx,
	&pg_can_rr,
	&pg_can_load,
	NULL,
};

int can_check_args(const struct pg_args *a, char *err, size_t errlen)
{
	canid_t id;
	const char *ids = pg_arg_str(a, "id");
	if (can_parse_id(ids, &id) < 0)
		return pg_err(err, errlen, "id '%s': a CAN id in hex, up to 3 digits (standard, at most 7ff) "
			      "or 8 digits (extended, at most 1fffffff)", ids);
	int64_t size = pg_arg_int(a, "size"), fd = pg_arg_int(a, "fd");
	if (!can_len_valid((unsigned)size, (int)fd)) {
		if (!fd)
			pg_err(err, errlen,
			       "size %lld: a classic CAN frame carries 0 to 8 bytes "
			       "(more with fd=1)",
			       (long long)size);
		else
			pg_err(err, errlen,
			       "size %lld: a CAN FD frame carries 0..8, 12, 16, 20, 24, "
			       "32, 48 or 64 bytes",
			       (long long)size);
		return -1;
	}
	return 0;
}

static const char *state_name(int s)
{
	switch (s) {
	case CAN_STATE_ERROR_ACTIVE: return "error-active";
	case CAN_STATE_ERROR_WARNING: return "error-warning";
	case CAN_STATE_ERROR_PASSIVE: return "error-passive";
	case CAN_STATE_BUS_OFF: return "bus-off";
	case CAN_STATE_STOPPED: return "stopped";
	case CAN_STATE_SLEEPING: return "sleeping";
	}
	return "unknown";
}

/* A CAN interface that is up and can carry what the parameters ask. */
static int usable(struct pg_ctx *ctx, const struct can_link *l)
{
	if (l->type != ARPHRD_CAN)
		return pg_error(ctx, "%s is not a CAN interface (link type %u)", l->name, l->type);
	if (!(l->flags & IFF_UP)) {
		if (l->bitrate || strcmp(l->kind, "can") == 0)
			return pg_error(ctx, "%s is down: ip link set %s up type can bitrate "
					"BITRATE", l->name, l->name);
		return pg_error(ctx, "%s is down: ip link set %s up", l->name, l->name);
	}
	if (l->state == CAN_STATE_BUS_OFF || l->state == CAN_STATE_STOPPED)
		return pg_error(ctx, "%s is %s: no frame can leave it (restart it: ip link set %s "
				"type can restart, or down and up)", l->name, state_name(l->state), l->name);
	if (pg_arg_int(ctx->args, "fd") && l->mtu != CANFD_MTU)
		return pg_skip(ctx, "%s is not in CAN FD mode (mtu %u): ip link set %s mtu 72, "
			       "or type can fd on", l->name, l->mtu, l->name);
	return PG_OK;
}

int can_resolve_name(struct pg_ctx *ctx, const char *name, struct can_link *l)
{
	int rc = can_link_get(name, l);
	if (rc == -ENODEV)
		return pg_skip(ctx, "no network interface %s (ip -d link show type can lists the "
			       "CAN ones)", name);
	if (rc < 0)
		return pg_error(ctx, "rtnetlink: cannot read interface %s: %s", name, strerror(-rc));
	return usable(ctx, l);
}

int can_resolve(struct pg_ctx *ctx, struct can_link *l)
{
	const char *name = pg_arg_str(ctx->args, "if");
	int rc;
	if (strcmp(name, "auto") == 0) {
		rc = can_link_first(l);
		if (rc == -ENODEV)
			return pg_skip(ctx, "no CAN interface here: a controller's driver, or a "
				       "virtual one (ip link add vcan0 type vcan; module vcan)");
		if (rc < 0)
			return pg_error(ctx, "rtnetlink: cannot list the interfaces: %s", strerror(-rc));
		rc = usable(ctx, l);
	} else {
		rc = can_resolve_name(ctx, name, l);
	}
	if (rc != PG_OK)
		return rc;
	/* The kernel's CAN sockets may be missing even where an interface is. */
	int s = socket(PF_CAN, SOCK_RAW | SOCK_CLOEXEC, CAN_RAW);
	if (s < 0) {
		if (errno == EAFNOSUPPORT || errno == EPROTONOSUPPORT)
			return pg_skip(ctx, "the kernel has no CAN raw sockets (modules can and "
				       "can-raw)");
		return pg_error(ctx, "socket(PF_CAN): %s", strerror(errno));
	}
	close(s);
	return PG_OK;
}

int can_socket(struct pg_ctx *ctx, int ifindex, int fd, const canid_t *only)
{
	int s = socket(PF_CAN, SOCK_RAW | SOCK_CLOEXEC, CAN_RAW);
	if (s < 0) {
		pg_error(ctx, "socket(PF_CAN): %s", strerror(errno));
		return -1;
	}
	int one = 1;
	if (fd && setsockopt(s, SOL_CAN_RAW, CAN_RAW_FD_FRAMES, &one, sizeof(one)) < 0) {
		pg_error(ctx, "CAN_RAW_FD_FRAMES: %s (a kernel without CAN FD)", strerror(errno));
		close(s);
		return -1;
	}
	if (only) {
		struct can_filter flt = {
			.can_id = *only,
			.can_mask = CAN_EFF_FLAG | CAN_RTR_FLAG |
				    ((*only & CAN_EFF_FLAG) ? CAN_EFF_MASK : CAN_SFF_MASK),
		};
		if (setsockopt(s, SOL_CAN_RAW, CAN_RAW_FILTER, &flt, sizeof(flt)) < 0) {
			pg_error(ctx, "CAN_RAW_FILTER: %s", strerror(errno));
			close(s);
			return -1;
		}
	}
	struct sockaddr_can addr = { .can_family = AF_CAN, .can_ifindex = ifindex };
	if (bind(s, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		pg_error(ctx, "bind to CAN interface %d: %s", ifindex, strerror(errno));
		close(s);
		return -1;
	}
	return s;
}

void can_spec_init(struct can_spec *s, const struct pg_args *a, const struct can_link *l)
{
	memset(s, 0, sizeof(*s));
	can_parse_id(pg_arg_str(a, "id"), &s->id);
	s->len = (unsigned)pg_arg_int(a, "size");
	s->fd = (int)pg_arg_int(a, "fd");
	s->flags = s->fd && l->dbitrate ? CANFD_BRS : 0;
	s->mtu = s->fd ? CANFD_MTU : CAN_MTU;
	if (l->bitrate) {
		struct canfd_frame f;
		struct can_bits b;
		can_fill(&f, s->id, s->len, s->flags, 0);
		can_frame_bits(&f, s->fd, &b);
		s->frame_s = (double)b.nominal / l->bitrate +
			     (b.data ? (double)b.data / l->dbitrate : 0);
	}
}

void can_driver(const struct can_link *l, char *buf, size_t len)
{
	char path[128], target[256];
	snprintf(path, sizeof(path), "/sys/class/net/%s/device/driver", l->name);
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		const char *slash = strrchr(target, '/');
		snprintf(buf, len, "%s", slash ? slash + 1 : target);
	} else {
		snprintf(buf, len, "%s", l->kind[0] ? l->kind : "unknown driver");
	}
}
