/* SPDX-License-Identifier: MIT */
/*
 * Test helper for tests/vm/can.check.sh: makes the CAN interfaces the VM
 * test needs over rtnetlink (the guest's busybox `ip` cannot make a vxcan
 * pair or set a bitrate, and iproute2 would need its libraries there).
 * Built statically on the host; never part of perfguide.
 *
 *   can-links vcan NAME              add a vcan
 *   can-links vxcan NAME PEER        add a vxcan pair
 *   can-links bitrate NAME BITRATE   set a controller's bitrate (it must be down)
 *   can-links mtu NAME MTU           72: CAN FD frames on a vcan or vxcan
 *   can-links up NAME | down NAME
 */
#include <errno.h>
#include <linux/can/netlink.h>
#include <linux/can/vxcan.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/can/can.h"

static int fail(const char *what, const char *name, int rc)
{
	fprintf(stderr, "can-links: %s %s: %s\n", what, name, strerror(-rc));
	return 1;
}

static void kind(struct can_nl_msg *m, const char *k)
{
	can_nl_put(m, IFLA_INFO_KIND, k, strlen(k));
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: can-links vcan NAME | vxcan NAME PEER | bitrate NAME BITRATE | "
				"mtu NAME MTU | up NAME | down NAME\n");
		return 2;
	}
	const char *cmd = argv[1], *name = argv[2];
	struct can_nl_msg m;
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	if (strcmp(cmd, "vcan") == 0 || strcmp(cmd, "vxcan") == 0) {
		can_nl_init(&m, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, &ifi, sizeof(ifi));
		can_nl_put(&m, IFLA_IFNAME, name, strlen(name) + 1);
		void *info = can_nl_nest(&m, IFLA_LINKINFO);
		kind(&m, cmd);
		if (cmd[1] == 'x') {
			if (argc < 4)
				return fprintf(stderr, "can-links: vxcan NAME PEER\n"), 2;
			void *data = can_nl_nest(&m, IFLA_INFO_DATA);
			/* The peer's own ifinfomsg, then its attributes. */
			void *peer = can_nl_nest(&m, VXCAN_INFO_PEER);
			struct ifinfomsg pi = { .ifi_family = AF_UNSPEC };
			memcpy((char *)peer + RTA_LENGTH(0), &pi, sizeof(pi));
			CAN_NLH(&m)->nlmsg_len += NLMSG_ALIGN(sizeof(pi));
			can_nl_put(&m, IFLA_IFNAME, argv[3], strlen(argv[3]) + 1);
			can_nl_end(&m, peer);
			can_nl_end(&m, data);
		}
		can_nl_end(&m, info);
	} else {
		ifi.ifi_index = (int)if_nametoindex(name);
		if (!ifi.ifi_index)
			return fail("no interface", name, -ENODEV);
		if (strcmp(cmd, "up") == 0 || strcmp(cmd, "down") == 0) {
			ifi.ifi_change = IFF_UP;
			ifi.ifi_flags = cmd[0] == 'u' ? IFF_UP : 0;
		}
		can_nl_init(&m, RTM_NEWLINK, 0, &ifi, sizeof(ifi));
		if (strcmp(cmd, "bitrate") == 0 && argc >= 4) {
			struct can_bittiming bt = { .bitrate = (uint32_t)strtoul(argv[3], NULL, 10) };
			void *info = can_nl_nest(&m, IFLA_LINKINFO);
			kind(&m, "can");
			void *data = can_nl_nest(&m, IFLA_INFO_DATA);
			can_nl_put(&m, IFLA_CAN_BITTIMING, &bt, sizeof(bt));
			can_nl_end(&m, data);
			can_nl_end(&m, info);
		} else if (strcmp(cmd, "mtu") == 0 && argc >= 4) {
			uint32_t mtu = (uint32_t)strtoul(argv[3], NULL, 10);
			can_nl_put(&m, IFLA_MTU, &mtu, sizeof(mtu));
		} else if (strcmp(cmd, "up") != 0 && strcmp(cmd, "down") != 0) {
			fprintf(stderr, "can-links: unknown command '%s'\n", cmd);
			return 2;
		}
	}
	int rc = can_nl_talk(&m);
	return rc ? fail(cmd, name, rc) : 0;
}
