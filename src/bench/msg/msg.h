/* SPDX-License-Identifier: MIT */
/* The messaging group: what its files share. */
#ifndef PG_BENCH_MSG_H
#define PG_BENCH_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "core/bench.h"

/* A virtio RPMsg buffer is 512 bytes, 16 of them the header: the most one
 * message carries, on every vendor's remoteproc (TI, ADI, ST, NXP). */
#define MSG_RPMSG_MTU 496
#define MSG_NAME_LEN 32		/* RPMSG_NAME_SIZE */

/* An echo service on the rpmsg bus: one device the remote announced. */
struct msg_service {
	char dev[96];		/* its bus device: virtio0.ti.ipc4.ping-pong.-1.13 */
	char name[MSG_NAME_LEN];	/* the service: ti.ipc4.ping-pong */
	uint32_t dst;		/* the remote endpoint's address */
	char parent[64];	/* the remote's rpmsg device: virtio0 */
	char rproc[64];		/* its remote processor (remoteproc2 5c00000.r5f), or "" */
	char ctrl[32];		/* the control device: rpmsg_ctrl0 */
};

/* Service names of the echo firmware vendors ship, in the order `auto`
 * prefers them. */
extern const char *const msg_echo_services[];

/*
 * The services that `remote` names, below `root` ("" for the machine's own
 * /sys; a test gives a directory shaped like it): `auto`, a remote
 * processor (its index N, remoteprocN or its name, 5c00000.r5f), a service
 * name, or RPROC:SERVICE. They are the endpoints of one service on one
 * remote, by address (ADI's firmware announces one per channel). Returns
 * how many (at most max), 0 with why set when there is none (a reason for
 * a skip a user can act on).
 */
int msg_find_services(const char *root, const char *remote, struct msg_service *out, int max,
		      char *why, size_t len);

/* An endpoint of ours: /dev/rpmsgN, made through /dev/rpmsg_ctrlM. */
struct msg_ept {
	int fd;			/* -1: none */
	char path[64];		/* /dev/rpmsgN */
	char name[MSG_NAME_LEN];
};

/* Creates an endpoint named `name` to the service (RPMSG_CREATE_EPT_IOCTL)
 * and opens it non-blocking. Returns PG_OK, PG_SKIP (no permission) or
 * PG_ERROR with the reason in why. */
int msg_ept_open(const char *root, const struct msg_service *s, const char *name,
		 struct msg_ept *e, char *why, size_t len);
/* Destroys the endpoint (RPMSG_DESTROY_EPT_IOCTL) and closes it. */
void msg_ept_close(struct msg_ept *e);
/* Destroys endpoints an earlier perfguide made and left behind when it was
 * killed: named perfguide.PID.N, of a PID no longer running. Returns how
 * many. */
int msg_ept_reap(const char *root, const char *ctrl);

/*
 * Payloads. Message `seq` of `size` bytes carries seq in its first
 * min(size, 8) bytes (little-endian) and a pattern of seq and the offset
 * after them, so each message is unlike the one before and after it.
 */
void msg_payload_fill(uint8_t *buf, size_t size, uint64_t seq);
/* Checks an echo of message `seq`: 0, or -1 with what differs in why. An
 * echo may be longer (firmware that appends its own text, ADI's
 * sharc-echo), never shorter. */
int msg_payload_check(const uint8_t *buf, size_t got, size_t size, uint64_t seq,
		      char *why, size_t len);

extern const struct pg_bench pg_msg_rpmsg_rr, pg_msg_rpmsg_stream;

#endif
