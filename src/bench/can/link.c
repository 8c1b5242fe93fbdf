/* SPDX-License-Identifier: MIT */
/*
 * CAN interfaces and the kernel's CAN gateway over rtnetlink, without
 * libnl or libsocketcan: what `ip -d link show` prints about an interface
 * (its kind, state, MTU, txqueuelen, bitrates, the other end of a vxcan
 * pair) and the can-gw rule `cangw` adds. Plain requests and attribute
 * walks; nothing here knows about benchmarks.
 */
#include <errno.h>
#include <linux/can/gw.h>
#include <linux/can/netlink.h>
#include <net/if_arp.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "can.h"

void can_nl_init(struct can_nl_msg *m, int type, int flags, const void *hdr, size_t hdrlen)
{
	memset(m, 0, sizeof(*m));
	struct nlmsghdr *h = CAN_NLH(m);
	h->nlmsg_len = NLMSG_LENGTH(hdrlen);
	h->nlmsg_type = (unsigned short)type;
	h->nlmsg_flags = (unsigned short)(NLM_F_REQUEST | flags);
	memcpy(m->u.buf + NLMSG_HDRLEN, hdr, hdrlen);
}

static struct rtattr *tail(struct can_nl_msg *m)
{
	return (struct rtattr *)(void *)(m->u.buf + NLMSG_ALIGN(CAN_NLH(m)->nlmsg_len));
}

void can_nl_put(struct can_nl_msg *m, int type, const void *data, size_t len)
{
	size_t at = NLMSG_ALIGN(CAN_NLH(m)->nlmsg_len);
	if (at + RTA_SPACE(len) > sizeof(m->u.buf)) {
		m->overflow = 1;
		return;
	}
	struct rtattr *rta = tail(m);
	rta->rta_type = (unsigned short)type;
	rta->rta_len = (unsigned short)RTA_LENGTH(len);
	if (len)
		memcpy(m->u.buf + at + RTA_LENGTH(0), data, len);
	CAN_NLH(m)->nlmsg_len = (uint32_t)(at + RTA_ALIGN(rta->rta_len));
}

void *can_nl_nest(struct can_nl_msg *m, int type)
{
	struct rtattr *nest = tail(m);
	can_nl_put(m, type, NULL, 0);
	return m->overflow ? NULL : nest;
}

void can_nl_end(struct can_nl_msg *m, void *nest)
{
	if (nest)
		((struct rtattr *)nest)->rta_len =
			(unsigned short)((char *)tail(m) - (char *)nest);
}

/* Sends m, hands every answer to got (when not NULL) until the kernel's
 * acknowledgement or the end of a dump: 0, or -errno. */
static int exchange(struct can_nl_msg *m, int (*got)(const struct nlmsghdr *, void *), void *arg)
{
	if (m->overflow)
		return -EMSGSIZE;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	struct nlmsghdr *req = CAN_NLH(m);
	req->nlmsg_flags |= NLM_F_ACK;
	req->nlmsg_seq = 1;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	int rc = 0;
	if (sendto(fd, req, req->nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0) {
		rc = -errno;
		goto out;
	}
	/* Dumps of interfaces with their statistics come in pages this size. */
	static _Thread_local union {
		struct nlmsghdr h;
		char b[32768];
	} buf;
	for (;;) {
		ssize_t n = recv(fd, buf.b, sizeof(buf.b), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			goto out;
		}
		/* unsigned: NLMSG_OK compares it with the u32 nlmsg_len */
		unsigned len = (unsigned)n;
		for (struct nlmsghdr *h = &buf.h; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_seq != 1)
				continue;
			if (h->nlmsg_type == NLMSG_DONE)
				goto out;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);
				rc = e->error;
				goto out;
			}
			if (got && (rc = got(h, arg)) != 0)
				goto out;
		}
	}
out:
	close(fd);
	return rc;
}

int can_nl_talk(struct can_nl_msg *m)
{
	return exchange(m, NULL, NULL);
}

static void can_info(struct can_link *l, const struct rtattr *data)
{
	int len = (int)RTA_PAYLOAD(data);
	for (const struct rtattr *a = RTA_DATA(data); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		switch (a->rta_type) {
		case IFLA_CAN_BITTIMING:
			if (RTA_PAYLOAD(a) >= sizeof(struct can_bittiming))
				l->bitrate = ((const struct can_bittiming *)RTA_DATA(a))->bitrate;
			break;
		case IFLA_CAN_DATA_BITTIMING:
			if (RTA_PAYLOAD(a) >= sizeof(struct can_bittiming))
				l->dbitrate = ((const struct can_bittiming *)RTA_DATA(a))->bitrate;
			break;
		case IFLA_CAN_CTRLMODE:
			if (RTA_PAYLOAD(a) >= sizeof(struct can_ctrlmode))
				l->ctrlmode = ((const struct can_ctrlmode *)RTA_DATA(a))->flags;
			break;
		case IFLA_CAN_STATE:
			if (RTA_PAYLOAD(a) >= sizeof(uint32_t))
				l->state = (int)*(const uint32_t *)RTA_DATA(a);
			break;
		}
	}
}

static uint32_t u32(const struct rtattr *a)
{
	uint32_t v = 0;
	if (RTA_PAYLOAD(a) >= sizeof(v))
		memcpy(&v, RTA_DATA(a), sizeof(v));
	return v;
}

static void parse_link(const struct nlmsghdr *h, struct can_link *l)
{
	const struct ifinfomsg *ifi = NLMSG_DATA(h);
	memset(l, 0, sizeof(*l));
	l->state = -1;
	l->ifindex = ifi->ifi_index;
	l->type = ifi->ifi_type;
	l->flags = ifi->ifi_flags;
	int len = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof(*ifi)));
	for (const struct rtattr *a = IFLA_RTA(ifi); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		switch (a->rta_type) {
		case IFLA_IFNAME:
			snprintf(l->name, sizeof(l->name), "%.*s", (int)RTA_PAYLOAD(a),
				 (const char *)RTA_DATA(a));
			break;
		case IFLA_MTU:
			l->mtu = u32(a);
			break;
		case IFLA_TXQLEN:
			l->txqlen = u32(a);
			break;
		case IFLA_LINK:
			l->peer = (int)u32(a);
			break;
		case IFLA_LINK_NETNSID:
			l->peer_elsewhere = 1;
			break;
		case IFLA_STATS64:
			if (RTA_PAYLOAD(a) >= sizeof(struct rtnl_link_stats64)) {
				struct rtnl_link_stats64 st;
				memcpy(&st, RTA_DATA(a), sizeof(st));
				l->rx_dropped = st.rx_dropped;
				l->rx_over_errors = st.rx_over_errors;
			}
			break;
		case IFLA_LINKINFO: {
			int il = (int)RTA_PAYLOAD(a);
			for (const struct rtattr *i = RTA_DATA(a); RTA_OK(i, il); i = RTA_NEXT(i, il)) {
				if (i->rta_type == IFLA_INFO_KIND)
					snprintf(l->kind, sizeof(l->kind), "%.*s", (int)RTA_PAYLOAD(i),
						 (const char *)RTA_DATA(i));
				else if (i->rta_type == IFLA_INFO_DATA)
					can_info(l, i);
			}
			break;
		}
		}
	}
	/* An interface that is not a tunnel reports itself as its link. */
	if (l->peer == l->ifindex)
		l->peer = 0;
}

static int got_link(const struct nlmsghdr *h, void *arg)
{
	if (h->nlmsg_type == RTM_NEWLINK)
		parse_link(h, arg);
	return 0;
}

static int get_link(const char *name, int ifindex, struct can_link *l)
{
	struct can_nl_msg m;
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = ifindex };
	can_nl_init(&m, RTM_GETLINK, 0, &ifi, sizeof(ifi));
	if (name) {
		if (strlen(name) >= IF_NAMESIZE)
			return -ENODEV;
		can_nl_put(&m, IFLA_IFNAME, name, strlen(name) + 1);
	}
	memset(l, 0, sizeof(*l));
	l->ifindex = -1;
	int rc = exchange(&m, got_link, l);
	if (rc == 0 && l->ifindex < 0)
		rc = -ENODEV;
	return rc;
}

int can_link_get(const char *name, struct can_link *l)
{
	return get_link(name, 0, l);
}

int can_link_by_index(int ifindex, struct can_link *l)
{
	return get_link(NULL, ifindex, l);
}

static int got_first(const struct nlmsghdr *h, void *arg)
{
	struct can_link *best = arg, l;
	if (h->nlmsg_type != RTM_NEWLINK)
		return 0;
	parse_link(h, &l);
	if (l.type == ARPHRD_CAN && (best->ifindex <= 0 || l.ifindex < best->ifindex))
		*best = l;
	return 0;
}

int can_link_first(struct can_link *l)
{
	struct can_nl_msg m;
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	can_nl_init(&m, RTM_GETLINK, NLM_F_DUMP, &ifi, sizeof(ifi));
	memset(l, 0, sizeof(*l));
	int rc = exchange(&m, got_first, l);
	if (rc == 0 && l->ifindex <= 0)
		rc = -ENODEV;
	return rc;
}

int can_gw_rule(int add, int ifindex, canid_t id, canid_t resp, int fd)
{
	struct can_nl_msg m;
	/* Echo (-e): the answer is looped back to this machine's sockets, as a
	 * real interface's echo does; IIF_TX_OK (-i): out of the interface it
	 * came in on. */
	struct rtcanmsg r = {
		.can_family = AF_CAN, .gwtype = CGW_TYPE_CAN_CAN,
		.flags = CGW_FLAGS_CAN_ECHO | CGW_FLAGS_CAN_IIF_TX_OK | (fd ? CGW_FLAGS_CAN_FD : 0),
	};
	can_nl_init(&m, add ? RTM_NEWROUTE : RTM_DELROUTE, 0, &r, sizeof(r));
	if (fd) {
		struct cgw_fdframe_mod mod;
		memset(&mod, 0, sizeof(mod));
		mod.cf.can_id = resp;
		mod.modtype = CGW_MOD_ID;
		can_nl_put(&m, CGW_FDMOD_SET, &mod, sizeof(mod));
	} else {
		struct cgw_frame_mod mod;
		memset(&mod, 0, sizeof(mod));
		mod.cf.can_id = resp;
		mod.modtype = CGW_MOD_ID;
		can_nl_put(&m, CGW_MOD_SET, &mod, sizeof(mod));
	}
	struct can_filter flt = {
		.can_id = id,
		.can_mask = CAN_EFF_FLAG | CAN_RTR_FLAG |
			    ((id & CAN_EFF_FLAG) ? CAN_EFF_MASK : CAN_SFF_MASK),
	};
	uint32_t ifi = (uint32_t)ifindex;
	can_nl_put(&m, CGW_FILTER, &flt, sizeof(flt));
	can_nl_put(&m, CGW_SRC_IF, &ifi, sizeof(ifi));
	can_nl_put(&m, CGW_DST_IF, &ifi, sizeof(ifi));
	return can_nl_talk(&m);
}
