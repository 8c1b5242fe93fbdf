/* SPDX-License-Identifier: MIT */
/*
 * The CAN group: SocketCAN raw sockets, no library. What its benchmark
 * files share: the interface a run uses (link.c reads it over rtnetlink),
 * the frames they send and check (frame.c), the parameters.
 */
#ifndef PG_BENCH_CAN_H
#define PG_BENCH_CAN_H

#include <stddef.h>
#include <stdint.h>
#include <linux/can.h>
#include <linux/netlink.h>
#include <net/if.h>

#include "core/bench.h"

/* --- link.c: interfaces and the kernel's CAN gateway, over rtnetlink --- */

/* One network interface, as `ip -d link show` prints it. */
struct can_link {
	char name[IF_NAMESIZE];
	int ifindex;
	unsigned short type;	/* ARPHRD_CAN for a CAN interface */
	unsigned flags;		/* IFF_UP, IFF_RUNNING... */
	unsigned mtu;		/* CAN_MTU, or CANFD_MTU in CAN FD mode */
	unsigned txqlen;
	char kind[16];		/* "vcan", "vxcan", "can" (a controller), "" */
	uint32_t bitrate;	/* nominal bit/s; 0: none (virtual) */
	uint32_t dbitrate;	/* CAN FD data phase bit/s; 0: none */
	uint32_t ctrlmode;	/* CAN_CTRLMODE_* set */
	int state;		/* CAN_STATE_*; -1: not reported */
	int peer;		/* vxcan: the other end's ifindex; 0: none */
	int peer_elsewhere;	/* the other end is in another network namespace */
	uint64_t rx_dropped, rx_over_errors;
};

/* Fills l for the interface `name`. 0, or -errno (-ENODEV: none by that
 * name). */
int can_link_get(const char *name, struct can_link *l);
/* The CAN interface with the lowest ifindex. 0, -ENODEV (none), -errno. */
int can_link_first(struct can_link *l);
int can_link_by_index(int ifindex, struct can_link *l);

/* Adds (add = 1) or deletes the can-gw rule that sends every frame with
 * `id` arriving on ifindex back out of it with the id `resp` (the kernel's
 * echo, `cangw -A -s IF -d IF -i -e -f ID:MASK -m SET:I:RESP...`). 0 or
 * -errno (-EPROTONOSUPPORT / -ENOENT: no can-gw; -EPERM: not allowed). */
int can_gw_rule(int add, int ifindex, canid_t id, canid_t resp, int fd);

/* Netlink requests: what link.c and the VM test's link helper build. */
struct can_nl_msg {
	int overflow;		/* an attribute did not fit: not sent */
	union {
		struct nlmsghdr align;
		char buf[1024];	/* the header, the family's header, attributes */
	} u;
};
#define CAN_NLH(m) ((struct nlmsghdr *)(void *)(m)->u.buf)
void can_nl_init(struct can_nl_msg *m, int type, int flags, const void *hdr, size_t hdrlen);
/* Appends an attribute (nested ones: can_nl_nest, then can_nl_end). */
void can_nl_put(struct can_nl_msg *m, int type, const void *data, size_t len);
void *can_nl_nest(struct can_nl_msg *m, int type);
void can_nl_end(struct can_nl_msg *m, void *nest);
/* Sends m on NETLINK_ROUTE and waits for the kernel's answer: 0 or -errno. */
int can_nl_talk(struct can_nl_msg *m);

/* --- frame.c: the frames, their check, their length on the wire --- */

/* Bits a frame takes on the bus, start of frame to the end of the
 * intermission, stuff bits included: at the nominal bitrate, and (CAN FD
 * with bit rate switch) at the data bitrate. */
struct can_bits {
	unsigned nominal, data;
};
/* Dynamic stuff bits counted from the frame's content, as canbusload -e
 * counts them for classic frames; CAN FD frames (fd = 1, ISO format) add
 * their fixed stuff bits and stuff count; with CANFD_BRS in f->flags the
 * data phase counts at the data bitrate. */
void can_frame_bits(const struct canfd_frame *f, int fd, struct can_bits *b);
/* Payload length to the DLC field's code (CAN FD: 12 -> 9 ... 64 -> 15). */
unsigned can_len2dlc(unsigned len);
/* 1 when len is a length a frame can have (fd: 0..8, 12, 16, 20, 24, 32,
 * 48, 64; classic: 0..8). */
int can_len_valid(unsigned len, int fd);

/* The payload every benchmark sends: byte i is seq + i (mod 256), the
 * pattern canfdtest sends and checks, so a canfdtest on a remote node can
 * answer can.rr. flags: CANFD_BRS or 0. */
void can_fill(struct canfd_frame *f, canid_t id, unsigned len, int flags, uint32_t seq);
/* 0 when f is (id, len, the pattern from seq + inc, inc being what a
 * responder added to every byte). 1: not a frame of ours (id, length, or
 * bytes that do not follow each other); 2: one of ours, but another one
 * than seq. why says what. Only the low byte of seq is in the frame: a
 * stream is checked frame by frame against the one expected next. */
int can_check(const struct canfd_frame *f, canid_t id, unsigned len, uint32_t seq, int inc,
	      char *why, size_t len_why);
/* "77" -> 0x77, "12345678" -> extended 0x12345678 | CAN_EFF_FLAG: as
 * cansend and candump read ids (3 hex digits or fewer: standard; 8:
 * extended). 0 or -1. */
int can_parse_id(const char *s, canid_t *id);
/* The id an echo answers with: id + 1, as canfdtest's DUT side does. */
canid_t can_resp_id(canid_t id);

/* --- can.c: what every benchmark's setup does --- */

/* What every frame of a run is, from the id, size and fd parameters and
 * the interface it goes out of. */
struct can_spec {
	canid_t id;
	unsigned len;
	int fd;
	int flags;		/* CANFD_BRS where the interface has a data bitrate */
	size_t mtu;		/* bytes one write or read of a frame takes */
	double frame_s;		/* one frame on the bus at the bitrate; 0: no bitrate */
};
void can_spec_init(struct can_spec *s, const struct pg_args *a, const struct can_link *l);

/* The interface the `if` parameter names (auto: the first CAN interface),
 * checked: a CAN interface, up, not bus-off, in CAN FD mode when fd.
 * PG_OK, or a skip/error with ctx->msg set. */
int can_resolve(struct pg_ctx *ctx, struct can_link *l);
/* The same checks for an interface named otherwise (a peer). */
int can_resolve_name(struct pg_ctx *ctx, const char *name, struct can_link *l);
/* A raw CAN socket bound to ifindex, CAN FD frames allowed when fd, taking
 * only frames with the id *only (NULL: every frame but error frames). -1
 * with ctx->msg set when it fails. */
int can_socket(struct pg_ctx *ctx, int ifindex, int fd, const canid_t *only);
/* The driver behind an interface (c_can_platform, kvaser_pci) or its kind. */
void can_driver(const struct can_link *l, char *buf, size_t len);
/* The parameters every benchmark has and their check. */
#define CAN_IF_PARAM									\
	{ .name = "if", .type = PG_P_STR, .def = "auto",				\
	  .help = "CAN interface (auto: the first one, by interface index)" }
#define CAN_ID_PARAM									\
	{ .name = "id", .type = PG_P_STR, .def = "77",					\
	  .help = "CAN id in hex: up to 3 digits standard (11 bit), 8 digits extended (29 bit), " \
		  "as cansend writes them" }
#define CAN_SIZE_PARAM									\
	{ .name = "size", .type = PG_P_INT, .def = "8", .min = 0, .max = 64,		\
	  .help = "payload bytes (the DLC): 0..8; CAN FD 0..8, 12, 16, 20, 24, 32, 48, 64" }
#define CAN_FD_PARAM									\
	{ .name = "fd", .type = PG_P_INT, .def = "0", .min = 0, .max = 1,		\
	  .help = "1: CAN FD frames (bit rate switch where the interface has a data bitrate)" }
#define CAN_TIME_PARAM									\
	{ .name = "time", .type = PG_P_INT, .def = "5", .min = 1, .max = 3600,		\
	  .quick = "1", .help = "seconds each sample lasts" }
int can_check_args(const struct pg_args *a, char *err, size_t errlen);

extern const struct pg_section can_section;
extern const struct pg_bench pg_can_tx, pg_can_load, pg_can_rr;

#endif
