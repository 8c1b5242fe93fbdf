/* SPDX-License-Identifier: MIT */
/*
 * can.tx and can.load: frames written as fast as the interface takes
 * them, as `cangen -g 0` writes them, for `time` seconds, and every one
 * counted and checked where it arrives: on the sending interface itself
 * (the local echo a controller's driver gives once a frame has left it,
 * the loopback of vcan), on the other end of a vxcan pair, or on a second
 * interface on the same bus (`peer`). A receiver thread reads them as
 * candump would, in sequence; the step waits until every frame written is
 * accounted for, so the counts are exact: frames written, received, lost.
 *
 * A write the queue refuses (ENOBUFS: txqueuelen frames are waiting for
 * the driver) is counted, never hidden, and tried again after one frame's
 * time on the bus; the note says when that set the pace. can.load also
 * adds up the bits of every frame seen on the bus, stuffed bits included
 * (frame.c), against the interface's bitrate: the share of the bus the
 * driver keeps busy, as canbusload -e reports it.
 */
#include <errno.h>
#include <linux/can/netlink.h>
#include <linux/can/raw.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "can.h"
#include "core/sysinfo.h"
#include "core/timer.h"

#define RX_BATCH 32
/* The receiver looks at its stop flag this often. */
#define RX_WAKE_US 20000

struct stream {
	struct can_link link;		/* where frames are written */
	struct can_link at;		/* where they are counted */
	struct can_spec sp;
	int load;
	int tx, rx;
	uint32_t seq;			/* the next frame written */

	pthread_t thread;
	int running;
	atomic_int stop;
	/* What the receiver counted (it alone writes them). */
	_Atomic uint64_t ours, others, gaps, bits_nominal, bits_data;
	_Atomic uint32_t overflow;	/* SO_RXQ_OVFL: frames the socket dropped */
	atomic_int damaged, failed;
	char why[160];			/* set before damaged or failed */
	unsigned char next;		/* the low byte of the sequence expected */

	uint64_t sent_all, enobufs_all, lost_all;
};

struct snap {
	uint64_t ours, others, gaps, bits_nominal, bits_data;
	uint32_t overflow;
};

static void snap(struct stream *st, struct snap *s)
{
	s->ours = atomic_load(&st->ours);
	s->others = atomic_load(&st->others);
	s->gaps = atomic_load(&st->gaps);
	s->bits_nominal = atomic_load(&st->bits_nominal);
	s->bits_data = atomic_load(&st->bits_data);
	s->overflow = atomic_load(&st->overflow);
}

static void count_frame(struct stream *st, const struct canfd_frame *f, int fd)
{
	if (st->load) {
		struct can_bits b;
		can_frame_bits(f, fd, &b);
		atomic_fetch_add_explicit(&st->bits_nominal, b.nominal, memory_order_relaxed);
		atomic_fetch_add_explicit(&st->bits_data, b.data, memory_order_relaxed);
	}
	if (f->can_id != st->sp.id) {
		atomic_fetch_add_explicit(&st->others, 1, memory_order_relaxed);
		return;
	}
	char why[sizeof(st->why)];
	int r = can_check(f, st->sp.id, st->sp.len, st->next, 0, why, sizeof(why));
	if (r == 1) {
		if (!atomic_load(&st->damaged)) {
			snprintf(st->why, sizeof(st->why), "%s", why);
			atomic_store(&st->damaged, 1);
		}
		return;
	}
	if (r == 2)
		atomic_fetch_add_explicit(&st->gaps, 1, memory_order_relaxed);
	st->next = (unsigned char)(st->sp.len ? f->data[0] + 1 : st->next + 1);
	atomic_fetch_add_explicit(&st->ours, 1, memory_order_release);
}

static void *receiver(void *arg)
{
	struct stream *st = arg;
	static _Thread_local struct canfd_frame fr[RX_BATCH];
	struct iovec iov[RX_BATCH];
	struct mmsghdr mm[RX_BATCH];
	union {
		char b[CMSG_SPACE(sizeof(uint32_t))];
		struct cmsghdr align;
	} ctl[RX_BATCH];
	while (!atomic_load(&st->stop)) {
		for (int i = 0; i < RX_BATCH; i++) {
			iov[i].iov_base = &fr[i];
			iov[i].iov_len = sizeof(fr[i]);
			memset(&mm[i], 0, sizeof(mm[i]));
			mm[i].msg_hdr.msg_iov = &iov[i];
			mm[i].msg_hdr.msg_iovlen = 1;
			mm[i].msg_hdr.msg_control = ctl[i].b;
			mm[i].msg_hdr.msg_controllen = sizeof(ctl[i].b);
		}
		int n = recvmmsg(st->rx, mm, RX_BATCH, MSG_WAITFORONE, NULL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				continue;
			snprintf(st->why, sizeof(st->why), "reading frames on %s: %s", st->at.name,
				 strerror(errno));
			atomic_store(&st->failed, 1);
			return NULL;
		}
		for (int i = 0; i < n; i++) {
			struct msghdr *h = &mm[i].msg_hdr;
			for (struct cmsghdr *c = CMSG_FIRSTHDR(h); c; c = CMSG_NXTHDR(h, c))
				if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL) {
					uint32_t dropped;
					memcpy(&dropped, CMSG_DATA(c), sizeof(dropped));
					atomic_store(&st->overflow, dropped);
				}
			if (mm[i].msg_len == CAN_MTU || mm[i].msg_len == CANFD_MTU)
				count_frame(st, &fr[i], mm[i].msg_len == CANFD_MTU);
		}
	}
	return NULL;
}

static int can_stream_setup(struct pg_ctx *ctx)
{
	struct stream *st = calloc(1, sizeof(*st));
	if (!st)
		return pg_error(ctx, "out of memory");
	ctx->priv = st;
	st->tx = st->rx = -1;
	st->load = ctx->bench->data != NULL;
	int rc = can_resolve(ctx, &st->link);
	if (rc != PG_OK)
		return rc;
	if (st->load && !st->link.bitrate)
		return pg_skip(ctx, "%s has no bitrate (%s): bus load is a share of a real bus's bit "
			       "time; it needs a controller (ip link set %s type can bitrate 500000)",
			       st->link.name, st->link.kind[0] ? st->link.kind : "not a controller",
			       st->link.name);
	can_spec_init(&st->sp, ctx->args, &st->link);

	/* can.rr's peers that are no interface here (a node elsewhere on the
	 * bus, the kernel's gateway) leave the counting to the echo, so one
	 * `-p peer=` serves a whole group's run. */
	const char *peer = pg_arg_str(ctx->args, "peer");
	if (strcmp(peer, "remote") == 0 || strcmp(peer, "gw") == 0) {
		st->at = st->link;
	} else if (strcmp(peer, "auto") != 0) {
		rc = can_resolve_name(ctx, peer, &st->at);
	} else if (strcmp(st->link.kind, "vxcan") == 0 && st->link.peer) {
		if (st->link.peer_elsewhere)
			return pg_skip(ctx, "the other end of %s is in another network namespace: "
				       "name the interface to count on (-p peer=IF)", st->link.name);
		rc = can_link_by_index(st->link.peer, &st->at);
		if (rc < 0)
			return pg_error(ctx, "rtnetlink: the other end of %s: %s", st->link.name,
					strerror(-rc));
		rc = can_resolve_name(ctx, st->at.name, &st->at);
	} else {
		st->at = st->link;
	}
	if (rc != PG_OK)
		return rc;

	if ((st->tx = can_socket(ctx, st->link.ifindex, st->sp.fd, NULL)) < 0 ||
	    (st->rx = can_socket(ctx, st->at.ifindex, st->sp.fd, st->load ? NULL : &st->sp.id)) < 0)
		return PG_ERROR;
	/* The writing socket reads nothing; the counting one is told when it
	 * drops a frame, and has room for a second of frames. */
	setsockopt(st->tx, SOL_CAN_RAW, CAN_RAW_FILTER, NULL, 0);
	struct timeval tv = { .tv_sec = 1 };
	setsockopt(st->tx, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	int one = 1, rcvbuf = 8 << 20;
	setsockopt(st->rx, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof(one));
	if (setsockopt(st->rx, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) < 0)
		setsockopt(st->rx, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	tv = (struct timeval){ .tv_usec = RX_WAKE_US };
	setsockopt(st->rx, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));

	if (pthread_create(&st->thread, NULL, receiver, st) != 0)
		return pg_error(ctx, "cannot start the receiver thread");
	st->running = 1;
	return PG_OK;
}

/* Appends to the note in buf (cut short when it does not fit). */
static void can_stream_note_add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void can_stream_note_add(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/* What the note says about the interfaces: "can0 (kvaser_pci, 500 kbit/s,
 * txqueuelen 10) counted on can1". */
static void can_stream_describe(const struct stream *st, char *buf, size_t len)
{
	char drv[64];
	can_driver(&st->link, drv, sizeof(drv));
	snprintf(buf, len, "%s (%s", st->link.name, drv);
	if (st->link.bitrate)
		can_stream_note_add(buf, len, ", %g kbit/s", st->link.bitrate / 1e3);
	if (st->link.dbitrate && st->sp.fd)
		can_stream_note_add(buf, len, ", data %g kbit/s", st->link.dbitrate / 1e3);
	can_stream_note_add(buf, len, ", txqueuelen %u)", st->link.txqlen);
	if (st->at.ifindex != st->link.ifindex)
		can_stream_note_add(buf, len, " counted on %s", st->at.name);
}

/* A virtual machine's controller is emulated (qemu's kvaser_pci, ctucan):
 * DMI names the hypervisor's vendor on x86, qemu's arm "virt" board says so
 * in its device tree, and the CPU flags a hypervisor. Which one it was goes
 * in `what`; 0 where none says so. */
static int emulated_machine(char *what, size_t len)
{
	static const char *const files[] = { "/sys/class/dmi/id/sys_vendor",
					     "/sys/class/dmi/id/product_name",
					     "/proc/device-tree/compatible" };
	static const char *const names[] = { "QEMU", "KVM", "VirtualBox", "VMware", "Xen",
					     "Bochs", "linux,dummy-virt" };
	char buf[256];
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		if (pg_read_file(files[f], buf, (int)sizeof(buf)) <= 0)
			continue;
		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (strstr(buf, names[k])) {
				snprintf(what, len, "%s says %s", files[f], names[k]);
				return 1;
			}
	}
	return 0;
}

/* A bus carries at most its bitrate: a load over 100% is a controller that
 * does not keep to it, not a figure of a bus. */
static int check_load(struct pg_ctx *ctx, const struct stream *st, double pct)
{
	char what[128];
	if (pct <= 100.0)
		return PG_OK;
	if (emulated_machine(what, sizeof(what)))
		return pg_skip(ctx, "bus load %.0f%% of %g kbit/s: %s is an emulated controller (%s) "
			       "that does not keep to its bitrate; measure on the board", pct,
			       st->link.bitrate / 1e3, st->link.name, what);
	return pg_error(ctx, "bus load %.0f%% of %g kbit/s is over 100%%: %s does not keep to its "
			"bitrate (its bit timing, or a driver that counts frames the bus did not "
			"carry)", pct, st->link.bitrate / 1e3, st->link.name);
}

/* What one sample wrote and what arrived of it. */
struct sample {
	struct snap a, b;		/* the receiver's counts before and after */
	uint64_t dropped0;		/* the counting interface's drops before */
	double t0, wait;
	uint64_t sent, enobufs, got, overflow, lost;
	int err;			/* a write's errno that ended the sample */
};

/* Writes frames for `seconds`, as fast as the interface takes them. */
static void write_frames(struct stream *st, struct sample *sm, double seconds)
{
	double deadline = sm->t0 + seconds;
	struct canfd_frame f;
	while (pg_now() < deadline) {
		can_fill(&f, st->sp.id, st->sp.len, st->sp.flags, st->seq);
		ssize_t n = write(st->tx, &f, st->sp.mtu);
		if (n == (ssize_t)st->sp.mtu) {
			st->seq++;
			sm->sent++;
		} else if (n < 0 && errno == ENOBUFS) {
			sm->enobufs++;
			/* A full queue and nothing back for a second: nothing
			 * leaves (a bus without a node to acknowledge). */
			if (pg_now() - sm->t0 > 1.0 && atomic_load(&st->ours) == sm->a.ours)
				break;
			pg_sleep_s(st->sp.frame_s > 0 ? st->sp.frame_s : 50e-6);
		} else if (n < 0 && errno == EINTR) {
			continue;
		} else {
			sm->err = n < 0 ? errno : EIO;
			break;
		}
	}
}

/* Every frame written is either counted where it arrives, or dropped by
 * the counting socket; the rest are still on their way (queued for the
 * bus) until the wait is over. */
static void await_frames(struct stream *st, struct sample *sm)
{
	sm->wait = 1.0 + (st->link.txqlen + 64) * st->sp.frame_s * 2;
	double until = pg_now() + sm->wait;
	for (;;) {
		snap(st, &sm->b);
		if (sm->b.ours - sm->a.ours + (uint32_t)(sm->b.overflow - sm->a.overflow) >= sm->sent ||
		    atomic_load(&st->damaged) || atomic_load(&st->failed) || pg_now() > until)
			break;
		pg_sleep_s(1e-3);
	}
	snap(st, &sm->b);
	sm->got = sm->b.ours - sm->a.ours;
	sm->overflow = (uint32_t)(sm->b.overflow - sm->a.overflow);
}

/* Frames were written and none came back: a controller alone on its bus
 * counts acknowledgement errors up to error-passive, the machine's setup
 * (a skip), not a fault measured. */
static int none_arrived(struct pg_ctx *ctx, const struct stream *st, const struct sample *sm)
{
	struct can_link now;
	if (can_link_by_index(st->link.ifindex, &now) == 0 &&
	    (now.state == CAN_STATE_ERROR_WARNING || now.state == CAN_STATE_ERROR_PASSIVE))
		return pg_skip(ctx, "%s went %s and none of the %llu frames written came back: "
			       "no node on the bus acknowledges them (connect a second node, and "
			       "terminate the bus)", st->link.name,
			       now.state == CAN_STATE_ERROR_WARNING ? "error-warning" : "error-passive",
			       (unsigned long long)sm->sent);
	return pg_error(ctx, "none of the %llu frames written to %s arrived on %s within "
			"%.1f s: is the bus terminated, and is another node there to "
			"acknowledge frames?", (unsigned long long)sm->sent, st->link.name,
			st->at.name, sm->wait);
}

/* Whether the sample stands: the receiver sound, the writes, only our
 * frames counted, some arrived and in order. PG_OK, or why not. */
static int can_stream_judge(struct pg_ctx *ctx, const struct stream *st, const struct sample *sm)
{
	if (atomic_load(&st->failed))
		return pg_error(ctx, "%s", st->why);
	if (atomic_load(&st->damaged))
		return pg_error(ctx, "%s: %s (is another node sending id %x? pick another id)",
				st->at.name, st->why, st->sp.id & CAN_EFF_MASK);
	if (sm->err == EAGAIN || sm->err == EWOULDBLOCK)
		return pg_error(ctx, "%s took no frame for a second (the send buffer stayed full): "
				"is the bus terminated, and is another node there to acknowledge "
				"frames?", st->link.name);
	if (sm->err)
		return pg_error(ctx, "writing frames to %s: %s", st->link.name, strerror(sm->err));
	if (sm->got > sm->sent)
		return pg_error(ctx, "%llu frames with id %x arrived on %s, %llu were written: "
				"another node sends this id (pick another id)",
				(unsigned long long)sm->got, st->sp.id & CAN_EFF_MASK, st->at.name,
				(unsigned long long)sm->sent);
	if (sm->sent && !sm->got)
		return none_arrived(ctx, st, sm);
	if (sm->got == sm->sent && sm->b.gaps != sm->a.gaps)
		return pg_error(ctx, "every frame arrived on %s, but %llu out of order",
				st->at.name, (unsigned long long)(sm->b.gaps - sm->a.gaps));
	return PG_OK;
}

/* The note: what was written in all the samples so far, what was lost and
 * where, and whether the interface's queue set the pace. */
static void note_sample(struct pg_ctx *ctx, const struct stream *st, const struct sample *sm)
{
	char note[PG_MSG_LEN];
	can_stream_describe(st, note, sizeof(note));
	can_stream_note_add(note, sizeof(note), ": %llu frames written, %s", (unsigned long long)st->sent_all,
		 st->lost_all ? "not all received" : "every one received in order");
	if (sm->lost) {
		struct can_link now;
		uint64_t dropped = sm->dropped0;
		if (can_link_by_index(st->at.ifindex, &now) == 0)
			dropped = now.rx_dropped + now.rx_over_errors;
		can_stream_note_add(note, sizeof(note), "; %llu lost (%llu dropped by the counting socket, %llu "
			 "by %s)", (unsigned long long)st->lost_all, (unsigned long long)sm->overflow,
			 (unsigned long long)(dropped - sm->dropped0), st->at.name);
	}
	if (st->enobufs_all)
		can_stream_note_add(note, sizeof(note), "; writes refused %llu times (ENOBUFS): the interface's "
			 "queue (txqueuelen %u) was full, the interface set the pace",
			 (unsigned long long)st->enobufs_all, st->link.txqlen);
	pg_note(ctx, "%s", note);
}

static int can_stream_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	struct stream *st = ctx->priv;
	(void)iters;
	struct sample sm = { 0 };
	struct can_link now;
	snap(st, &sm.a);
	if (can_link_by_index(st->at.ifindex, &now) == 0)
		sm.dropped0 = now.rx_dropped + now.rx_over_errors;
	sm.t0 = pg_now();
	write_frames(st, &sm, (double)pg_arg_int(ctx->args, "time"));
	await_frames(st, &sm);
	int rc = can_stream_judge(ctx, st, &sm);
	if (rc != PG_OK)
		return rc;
	sm.lost = sm.sent - sm.got;
	st->sent_all += sm.sent;
	st->enobufs_all += sm.enobufs;
	st->lost_all += sm.lost;
	int m = 0;
	counts[m++] = (double)(st->load ? sm.got : sm.sent);
	if (st->load) {
		uint32_t drate = st->link.dbitrate ? st->link.dbitrate : st->link.bitrate;
		counts[m++] = (double)(sm.b.bits_nominal - sm.a.bits_nominal) * 100.0 / st->link.bitrate +
			      (double)(sm.b.bits_data - sm.a.bits_data) * 100.0 / drate;
	}
	counts[m++] = (double)sm.enobufs;
	counts[m++] = (double)sm.lost;
	note_sample(ctx, st, &sm);
	if (st->load)
		return check_load(ctx, st, counts[1] / (pg_now() - sm.t0));
	return PG_OK;
}

static void can_stream_teardown(struct pg_ctx *ctx)
{
	struct stream *st = ctx->priv;
	if (!st)
		return;
	if (st->running) {
		atomic_store(&st->stop, 1);
		pthread_join(st->thread, NULL);
	}
	if (st->tx >= 0)
		close(st->tx);
	if (st->rx >= 0)
		close(st->rx);
	free(st);
	ctx->priv = NULL;
}

static const struct pg_param stream_params[] = {
	CAN_IF_PARAM,
	{ .name = "peer", .type = PG_P_STR, .def = "auto",
	  .help = "interface the frames are counted on: auto (the other end of a vxcan pair, "
		  "otherwise the sending interface's own echo), or a second interface on the bus "
		  "(remote and gw, can.rr's: the echo)" },
	CAN_ID_PARAM,
	CAN_SIZE_PARAM,
	CAN_FD_PARAM,
	CAN_TIME_PARAM,
	{ 0 },
};

static const struct pg_metric tx_metrics[] = {
	{ "frames", "frames/s", PG_RATE, 1, 1, 0 },
	{ "enobufs", "writes", PG_VALUE, 1, 0, 0 },
	{ "lost", "frames", PG_VALUE, 1, 0, 0 },
	{ 0 },
};

static const struct pg_metric load_metrics[] = {
	{ "frames", "frames/s", PG_RATE, 1, 1, 0 },
	{ "load", "%", PG_RATE, 1, 1, 0 },
	{ "enobufs", "writes", PG_VALUE, 1, 0, 0 },
	{ "lost", "frames", PG_VALUE, 1, 0, 0 },
	{ 0 },
};

const struct pg_bench pg_can_tx = {
	.id = "can.tx", .title = "CAN frames sent (cangen -g 0)", .section = &can_section,
	.params = stream_params, .metrics = tx_metrics, .trial = 1, .check = can_check_args,
	.setup = can_stream_setup, .step = can_stream_step, .teardown = can_stream_teardown,
};

const struct pg_bench pg_can_load = {
	.id = "can.load", .title = "CAN bus load at full rate (canbusload -e)",
	.section = &can_section, .params = stream_params, .metrics = load_metrics, .trial = 1,
	.data = "load", .check = can_check_args, .setup = can_stream_setup, .step = can_stream_step,
	.teardown = can_stream_teardown,
};
