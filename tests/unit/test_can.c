/* SPDX-License-Identifier: MIT */
/* The CAN group without an interface: a frame's bits on the wire (stuff
 * bits counted from its content, against canbusload -e's figures for the
 * same frames and a frame counted by hand), the payload and its check, ids,
 * lengths, the parameter check, and what setup says where the interface is
 * missing or is not a CAN one. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench/can/can.h"
#include "core/registry.h"
#include "bench_args.h"

static unsigned bits_of(canid_t id, unsigned len, const char *data, int fd, int flags)
{
	struct canfd_frame f;
	memset(&f, 0, sizeof(f));
	f.can_id = id;
	f.len = (unsigned char)len;
	f.flags = (unsigned char)flags;
	if (data)
		memcpy(f.data, data, len);
	struct can_bits b;
	can_frame_bits(&f, fd, &b);
	if (!(flags & CANFD_BRS))
		assert_int_equal(b.data, 0);
	return b.nominal + b.data;
}

/* canbusload -e (can-utils' canframelen, CFL_EXACT) on the same frames. */
static void classic_against_canbusload(void **state)
{
	(void)state;
	static const struct {
		canid_t id;
		unsigned len;
		const char *data;
		unsigned bits;
	} known[] = {
		{ 0x000, 0, "", 53 },
		{ 0x7ff, 0, "", 50 },
		{ 0x123, 8, "\x11\x22\x33\x44\x55\x66\x77\x88", 112 },
		{ 0x000, 8, "\x00\x00\x00\x00\x00\x00\x00\x00", 127 },
		{ 0x7ff, 8, "\xff\xff\xff\xff\xff\xff\xff\xff", 126 },
		{ 0x555, 8, "\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa", 112 },
		{ 0x077, 8, "\x00\x01\x02\x03\x04\x05\x06\x07", 122 },
		{ 0x077, 8, "\x01\x02\x03\x04\x05\x06\x07\x08", 121 },
		{ 0x077, 8, "\x02\x03\x04\x05\x06\x07\x08\x09", 119 },
		{ 0x077, 8, "\xfe\xff\x00\x01\x02\x03\x04\x05", 121 },
		{ 0x077, 0, "", 50 },
		{ 0x077, 1, "\x05", 59 },
		{ CAN_EFF_FLAG | 0x00000000, 0, "", 74 },
		{ CAN_EFF_FLAG | 0x1fffffff, 8, "\xff\xff\xff\xff\xff\xff\xff\xff", 149 },
		{ CAN_EFF_FLAG | 0x12345678, 8, "\x11\x22\x33\x44\x55\x66\x77\x88", 134 },
		{ CAN_EFF_FLAG | 0x00000077, 8, "\xfe\xff\x00\x01\x02\x03\x04\x05", 144 },
		{ CAN_EFF_FLAG | 0x1abcdef0, 4, "\xde\xad\xbe\xef", 103 },
	};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		unsigned got = bits_of(known[i].id, known[i].len, known[i].data, 0, 0);
		if (got != known[i].bits)
			fail_msg("frame %zu (id %x, %u bytes): %u bits, canbusload -e says %u", i,
				 known[i].id, known[i].len, got, known[i].bits);
	}
}

/* Id 0, no data: SOF, 11 id bits, RTR, IDE, r0, DLC 0000 and a CRC of
 * zero are 34 dominant bits: a stuff bit after every five, six of them,
 * then 13 bits of delimiters, end of frame and intermission. */
static void counted_by_hand(void **state)
{
	(void)state;
	assert_int_equal(bits_of(0, 0, NULL, 0, 0), 34 + 6 + 13);
	/* The CAN FD frame of id 0 and no data (ISO): SOF, id, RRS, IDE are 14
	 * dominant bits, FDF recessive, res BRS ESI DLC 7 dominant: stuff bits
	 * after the 5th and 10th zeros and in the last run, 3; then the stuff
	 * count, CRC-17 and their 6 fixed stuff bits, and the same 13. */
	assert_int_equal(bits_of(0, 0, NULL, 1, 0), 22 + 3 + 4 + 17 + 6 + 13);
}

/* Stuff bits lie between none and canbusload's worst case (one in four
 * after the first bit); CAN FD adds what does not depend on the content. */
static void within_bounds(void **state)
{
	(void)state;
	srand(18);
	for (int n = 0; n < 20000; n++) {
		int eff = n & 1, fd = (n >> 1) & 1;
		canid_t id = eff ? ((canid_t)rand() & CAN_EFF_MASK) | CAN_EFF_FLAG
				 : (canid_t)rand() & CAN_SFF_MASK;
		static const unsigned lens[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 24, 32, 48, 64 };
		unsigned len = fd ? lens[rand() % 16] : (unsigned)(rand() % 9);
		char data[64];
		for (unsigned i = 0; i < len; i++)
			data[i] = (char)(n % 3 == 0 ? 0 : rand());
		unsigned got = bits_of(id, len, data, fd, 0);
		unsigned plain, stuffable;
		if (!fd) {
			plain = (eff ? 67 : 47) + 8 * len;
			stuffable = (eff ? 54 : 34) + 8 * len;
		} else {
			unsigned crc = len <= 16 ? 17 : 21;
			plain = (eff ? 41 : 22) + 8 * len + 4 + crc + (crc == 17 ? 6 : 7) + 13;
			stuffable = (eff ? 41 : 22) + 8 * len;
		}
		assert_true(got >= plain);
		assert_true(got <= plain + (stuffable - 1) / 4);
		if (!fd)
			assert_true(got <= (eff ? 80u : 55u) + 10 * len);
	}
}

/* With a bit rate switch, the bits after BRS up to the CRC's end are the
 * data phase; the rest, and the stuff bits among them, the nominal one. */
static void brs_splits_the_frame(void **state)
{
	(void)state;
	struct canfd_frame f;
	can_fill(&f, 0x77, 64, CANFD_BRS, 0);
	struct can_bits b;
	can_frame_bits(&f, 1, &b);
	/* SOF, id 00001110111, RRS IDE FDF res BRS 0 0 1 0 1: the start of
	 * frame and the id's four leading zeros take one stuff bit. */
	assert_int_equal(b.nominal, 17 + 1 + 13);
	unsigned stuff = b.data - (1 + 4 + 64 * 8 + 4 + 21 + 7);
	assert_true(stuff <= (64 * 8 + 5) / 4);
	can_fill(&f, 0x77, 64, 0, 0);
	struct can_bits whole;
	can_frame_bits(&f, 1, &whole);
	assert_int_equal(whole.data, 0);
	/* BRS recessive instead of dominant: same fields, at most a stuff bit apart. */
	assert_true(whole.nominal + 2 >= b.nominal + b.data && b.nominal + b.data + 2 >= whole.nominal);
}

static void lengths_and_ids(void **state)
{
	(void)state;
	for (unsigned len = 0; len <= 8; len++) {
		assert_true(can_len_valid(len, 0));
		assert_int_equal(can_len2dlc(len), len);
	}
	assert_false(can_len_valid(9, 0));
	assert_false(can_len_valid(12, 0));
	assert_true(can_len_valid(12, 1));
	assert_true(can_len_valid(64, 1));
	assert_false(can_len_valid(13, 1));
	assert_false(can_len_valid(65, 1));
	assert_int_equal(can_len2dlc(12), 9);
	assert_int_equal(can_len2dlc(32), 13);
	assert_int_equal(can_len2dlc(64), 15);

	canid_t id;
	assert_int_equal(can_parse_id("77", &id), 0);
	assert_int_equal(id, 0x77);
	assert_int_equal(can_parse_id("7FF", &id), 0);
	assert_int_equal(id, 0x7ff);
	assert_int_equal(can_parse_id("12345678", &id), 0);
	assert_int_equal(id, 0x12345678 | CAN_EFF_FLAG);
	assert_int_equal(can_parse_id("00000077", &id), 0);
	assert_int_equal(id, 0x77 | CAN_EFF_FLAG);
	const char *bad[] = { "", "800", "1234", "0x77", "20000000", "1234567", "12345678a", "g" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (can_parse_id(bad[i], &id) == 0)
			fail_msg("id '%s' was taken", bad[i]);
	assert_int_equal(can_resp_id(0x77), 0x78);
	assert_int_equal(can_resp_id(0x7ff), 0);
	assert_int_equal(can_resp_id(0x1fffffff | CAN_EFF_FLAG), CAN_EFF_FLAG);
}

static void payload_and_check(void **state)
{
	(void)state;
	char why[160];
	struct canfd_frame f;
	can_fill(&f, 0x77, 8, 0, 0x1fe);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(f.data[i], (unsigned char)(0xfe + i));
	assert_int_equal(can_check(&f, 0x77, 8, 0x1fe, 0, why, sizeof(why)), 0);
	assert_int_equal(can_check(&f, 0x77, 8, 0xfe, 0, why, sizeof(why)), 0);
	/* The next one expected, or an answer that added one to every byte. */
	assert_int_equal(can_check(&f, 0x77, 8, 0x1ff, 0, why, sizeof(why)), 2);
	assert_non_null(strstr(why, "fe where ff"));
	assert_int_equal(can_check(&f, 0x77, 8, 0x1fd, 1, why, sizeof(why)), 0);
	assert_int_equal(can_check(&f, 0x78, 8, 0x1fe, 0, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "id 77 where 78"));
	assert_int_equal(can_check(&f, 0x77, 7, 0x1fe, 0, why, sizeof(why)), 1);
	f.data[5] ^= 0x10;
	assert_int_equal(can_check(&f, 0x77, 8, 0x1fe, 0, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "byte 5"));
	/* Nothing to check in an empty frame but its id and length. */
	can_fill(&f, 0x77, 0, 0, 9);
	assert_int_equal(can_check(&f, 0x77, 0, 3, 0, why, sizeof(why)), 0);
	can_fill(&f, 0x77, 64, CANFD_BRS, 250);
	assert_int_equal(f.flags, CANFD_BRS);
	assert_int_equal(f.data[63], (unsigned char)(250 + 63));
	assert_int_equal(can_check(&f, 0x77, 64, 250, 0, why, sizeof(why)), 0);
}

/* The message pg_sweep gives for a combination the group refuses. */
static const char *refused(const struct pg_bench *b, const char *o1, const char *o2)
{
	static char err[256];
	struct pg_override ov[2];
	int nov = 0;
	assert_int_equal(pg_override_parse(o1, &ov[nov++], err, sizeof(err)), 0);
	if (o2)
		assert_int_equal(pg_override_parse(o2, &ov[nov++], err, sizeof(err)), 0);
	struct pg_args *all = NULL;
	int n = 0;
	err[0] = '\0';
	assert_int_equal(pg_sweep(b, PG_SUITE_NONE, ov, nov, 0, &all, &n, err, sizeof(err)), -1);
	free(all);
	return err;
}

static void parameters(void **state)
{
	(void)state;
	const struct pg_bench *b = pg_registry_find("can.tx");
	assert_non_null(b);
	assert_non_null(b->section);
	assert_string_equal(b->section->title, "DCAN");
	assert_int_equal(b->section->order, 150);
	assert_int_equal(b->section->cpu_load, 1);
	char err[256];
	struct pg_args a = bench_args(b, NULL);
	assert_int_equal(b->check(&a, err, sizeof(err)), 0);
	a = bench_args(b, "id=12345678", "size=0", NULL);
	assert_int_equal(b->check(&a, err, sizeof(err)), 0);
	a = bench_args(b, "fd=1", "size=48", NULL);
	assert_int_equal(b->check(&a, err, sizeof(err)), 0);
	assert_non_null(strstr(refused(b, "id=800", NULL), "id '800'"));
	assert_non_null(strstr(refused(b, "id=0x77", NULL), "up to 3 digits"));
	assert_non_null(strstr(refused(b, "size=9", NULL), "(more with fd=1)"));
	assert_non_null(strstr(refused(b, "fd=1", "size=13"), "0..8, 12, 16, 20"));
	assert_non_null(strstr(refused(b, "size=65", "fd=1"), "65"));
	assert_ptr_equal(pg_registry_find("can.rr")->check, b->check);
	assert_ptr_equal(pg_registry_find("can.load")->check, b->check);
}

/* What setup says about interfaces that cannot carry CAN frames. */
static void interfaces(void **state)
{
	(void)state;
	static const char *const ids[] = { "can.tx", "can.rr", "can.load" };
	for (size_t i = 0; i < 3; i++) {
		const struct pg_bench *b = pg_registry_find(ids[i]);
		assert_non_null(b);
		struct pg_args a = bench_args(b, "if=pgnosuch9", NULL);
		struct pg_ctx ctx = { .bench = b, .args = &a };
		assert_int_equal(b->setup(&ctx), PG_SKIP);
		assert_non_null(strstr(ctx.msg, "no network interface pgnosuch9"));
		b->teardown(&ctx);
		a = bench_args(b, "if=lo", NULL);
		memset(&ctx, 0, sizeof(ctx));
		ctx.bench = b;
		ctx.args = &a;
		assert_int_equal(b->setup(&ctx), PG_ERROR);
		assert_string_equal(ctx.msg, "lo is not a CAN interface (link type 772)");
		b->teardown(&ctx);
		struct can_link l;
		if (can_link_first(&l) == -ENODEV) {
			a = bench_args(b, NULL);
			memset(&ctx, 0, sizeof(ctx));
			ctx.bench = b;
			ctx.args = &a;
			assert_int_equal(b->setup(&ctx), PG_SKIP);
			assert_non_null(strstr(ctx.msg, "no CAN interface here"));
			b->teardown(&ctx);
		}
	}
	struct can_link l;
	assert_int_equal(can_link_get("lo", &l), 0);
	assert_string_equal(l.name, "lo");
	assert_true(l.ifindex > 0);
	assert_int_equal(can_link_get("pgnosuch9", &l), -ENODEV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(classic_against_canbusload),
		cmocka_unit_test(counted_by_hand),
		cmocka_unit_test(within_bounds),
		cmocka_unit_test(brs_splits_the_frame),
		cmocka_unit_test(lengths_and_ids),
		cmocka_unit_test(payload_and_check),
		cmocka_unit_test(parameters),
		cmocka_unit_test(interfaces),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
