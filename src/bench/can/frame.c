/* SPDX-License-Identifier: MIT */
/*
 * The frames: their payload and its check, their ids, and how many bits
 * each one takes on the bus.
 *
 * A frame's length on the wire depends on its content: after five equal
 * bits the transmitter inserts one of the other value (a stuff bit), from
 * the start of frame to the end of the CRC. canbusload -e counts them
 * exactly for classic frames; so does this file, bit by bit: the frame's
 * fields in the order ISO 11898-1 sends them, its CRC-15, then the runs.
 * CAN FD frames (ISO format) stuff dynamically only up to the end of the
 * data; the stuff count and CRC that follow have a fixed stuff bit every
 * four bits, a count that does not depend on the content.
 */
#include <stdio.h>
#include <string.h>

#include "can.h"

/* SOF, base id, SRR, IDE, id extension, RRS, FDF, res, BRS, ESI, DLC, data. */
#define MAX_BITS (1 + 11 + 1 + 1 + 18 + 1 + 1 + 1 + 1 + 1 + 4 + CANFD_MAX_DLEN * 8 + 15)

struct bitseq {
	unsigned n;
	unsigned char bit[MAX_BITS];
};

static void bits_put(struct bitseq *s, uint32_t v, unsigned nbits)
{
	while (nbits--)
		s->bit[s->n++] = (v >> nbits) & 1;
}

/* Classic CAN's CRC-15 (x^15 + x^14 + x^10 + x^8 + x^7 + x^4 + x^3 + 1)
 * over every bit from the start of frame to the end of the data. */
static unsigned crc15(const struct bitseq *s)
{
	unsigned crc = 0;
	for (unsigned i = 0; i < s->n; i++) {
		unsigned next = s->bit[i] ^ ((crc >> 14) & 1);
		crc = (crc << 1) & 0x7fff;
		if (next)
			crc ^= 0x4599;
	}
	return crc;
}

/* Stuff bits a transmitter inserts into s: after five equal bits one of
 * the other value, which starts the next run. *early: those inserted after
 * a bit before index mark. */
static unsigned stuff_bits(const struct bitseq *s, unsigned mark, unsigned *early)
{
	unsigned run = 0, stuffed = 0;
	int last = -1;
	*early = 0;
	for (unsigned i = 0; i < s->n; i++) {
		if (s->bit[i] == last) {
			run++;
		} else {
			last = s->bit[i];
			run = 1;
		}
		if (run == 5) {
			stuffed++;
			if (i < mark)
				(*early)++;
			last = !last;
			run = 1;
		}
	}
	return stuffed;
}

/* The lengths of CAN FD's DLC codes 9 to 15. */
static const unsigned char fd_len[] = { 12, 16, 20, 24, 32, 48, 64 };

unsigned can_len2dlc(unsigned len)
{
	if (len <= 8)
		return len;
	for (unsigned i = 0; i < sizeof(fd_len); i++)
		if (len <= fd_len[i])
			return 9 + i;
	return 15;
}

int can_len_valid(unsigned len, int fd)
{
	if (len <= CAN_MAX_DLEN)
		return 1;
	return fd && memchr(fd_len, (int)len, sizeof(fd_len)) != NULL;
}

/* CRC delimiter, ACK slot, ACK delimiter, end of frame, intermission. */
#define TAIL_BITS (1 + 1 + 1 + 7 + 3)

void can_frame_bits(const struct canfd_frame *f, int fd, struct can_bits *b)
{
	struct bitseq s;
	s.n = 0;
	int eff = !!(f->can_id & CAN_EFF_FLAG);
	int rtr = !fd && (f->can_id & CAN_RTR_FLAG);
	unsigned len = rtr ? 0 : f->len;
	bits_put(&s, 0, 1);					/* SOF */
	if (eff) {
		bits_put(&s, (f->can_id & CAN_EFF_MASK) >> 18, 11);
		bits_put(&s, 3, 2);				/* SRR, IDE: recessive */
		bits_put(&s, f->can_id & 0x3ffff, 18);
	} else {
		bits_put(&s, f->can_id & CAN_SFF_MASK, 11);
	}
	if (!fd) {
		bits_put(&s, rtr, 1);			/* RTR */
		bits_put(&s, 0, 2);				/* r1 r0, or IDE r0 */
		bits_put(&s, f->len > 8 ? 8 : f->len, 4);
		for (unsigned i = 0; i < len; i++)
			bits_put(&s, f->data[i], 8);
		bits_put(&s, crc15(&s), 15);
		unsigned early;
		b->nominal = s.n + stuff_bits(&s, 0, &early) + TAIL_BITS;
		b->data = 0;
		return;
	}
	if (eff)
		bits_put(&s, 0, 1);				/* RRS */
	else
		bits_put(&s, 0, 2);				/* RRS, IDE */
	bits_put(&s, 1, 1);					/* FDF */
	bits_put(&s, 0, 1);					/* res */
	int brs = !!(f->flags & CANFD_BRS);
	bits_put(&s, brs, 1);
	unsigned mark = s.n;				/* the data phase starts after BRS */
	bits_put(&s, !!(f->flags & CANFD_ESI), 1);
	bits_put(&s, can_len2dlc(len), 4);
	for (unsigned i = 0; i < len; i++)
		bits_put(&s, f->data[i], 8);
	unsigned early, stuffed = stuff_bits(&s, mark, &early);
	/* Stuff count (3 bits and parity) and CRC-17 or CRC-21, a fixed stuff
	 * bit before each four of them. */
	unsigned crc = len <= 16 ? 17 : 21;
	unsigned fixed = 4 + crc + (4 + crc + 3) / 4;
	if (brs) {
		b->nominal = mark + early + TAIL_BITS;
		b->data = (s.n - mark) + (stuffed - early) + fixed;
	} else {
		b->nominal = s.n + stuffed + fixed + TAIL_BITS;
		b->data = 0;
	}
}

void can_fill(struct canfd_frame *f, canid_t id, unsigned len, int flags, uint32_t seq)
{
	memset(f, 0, sizeof(*f));
	f->can_id = id;
	f->len = (unsigned char)len;
	f->flags = (unsigned char)flags;
	for (unsigned i = 0; i < len; i++)
		f->data[i] = (unsigned char)(seq + i);
}

int can_check(const struct canfd_frame *f, canid_t id, unsigned len, uint32_t seq, int inc,
	      char *why, size_t wlen)
{
	if (f->can_id != id) {
		snprintf(why, wlen, "a frame with id %x where %x was expected", f->can_id, id);
		return 1;
	}
	if (f->len != len) {
		snprintf(why, wlen, "a frame of %u bytes where %u were expected", f->len, len);
		return 1;
	}
	for (unsigned i = 1; i < len; i++)
		if (f->data[i] != (unsigned char)(f->data[0] + i)) {
			snprintf(why, wlen, "a damaged payload: byte %u is %02x after %02x", i,
				 f->data[i], f->data[i - 1]);
			return 1;
		}
	unsigned char want = (unsigned char)(seq + (uint32_t)inc);
	if (len && f->data[0] != want) {
		snprintf(why, wlen, "frame %02x where %02x was next (low byte of the sequence)",
			 f->data[0], want);
		return 2;
	}
	return 0;
}

int can_parse_id(const char *s, canid_t *id)
{
	size_t n = strlen(s);
	if (n == 0 || (n > 3 && n != 8) || strspn(s, "0123456789abcdefABCDEF") != n)
		return -1;
	unsigned long v = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		unsigned d = c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
		v = v * 16 + d;
	}
	if (n == 8) {
		if (v > CAN_EFF_MASK)
			return -1;
		*id = (canid_t)v | CAN_EFF_FLAG;
	} else {
		if (v > CAN_SFF_MASK)
			return -1;
		*id = (canid_t)v;
	}
	return 0;
}

canid_t can_resp_id(canid_t id)
{
	if (id & CAN_EFF_FLAG)
		return (((id & CAN_EFF_MASK) + 1) & CAN_EFF_MASK) | CAN_EFF_FLAG;
	return (id + 1) & CAN_SFF_MASK;
}
