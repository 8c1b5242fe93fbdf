/* SPDX-License-Identifier: MIT */
/* The control protocol's frame codec: limits, round trips, typed values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/timer.h"
#include "net/proto.h"

static struct pg_net_frame f;

/* A raw frame: length, version, type, body. */
static size_t raw(uint8_t *buf, uint32_t flen, int ver, int type, const char *body)
{
	buf[0] = (uint8_t)(flen >> 24);
	buf[1] = (uint8_t)(flen >> 16);
	buf[2] = (uint8_t)(flen >> 8);
	buf[3] = (uint8_t)flen;
	buf[4] = (uint8_t)ver;
	buf[5] = (uint8_t)type;
	size_t n = strlen(body);
	memcpy(buf + 6, body, n);
	return 6 + n;
}

static int decode_raw(int ver, int type, const char *body, char *err)
{
	static uint8_t buf[PG_NET_MAX_FRAME + 16];
	size_t n = raw(buf, (uint32_t)strlen(body) + 2, ver, type, body), used = 0;
	return pg_net_decode(buf, n, &f, &used, err, 128);
}

static void round_trip(void **state)
{
	(void)state;
	struct pg_net_out o;
	char err[128];
	size_t used = 0;
	pg_net_out_begin(&o, PG_NET_START);
	pg_net_out_add(&o, "test", "%s", "tcp_stream");
	pg_net_out_add(&o, "msg", "%d", 65536);
	pg_net_out_add(&o, "cc", "%s", "");
	assert_int_equal(pg_net_out_end(&o), 0);
	assert_int_equal(o.len, 6 + strlen("test=tcp_stream\nmsg=65536\ncc=\n"));
	assert_int_equal(o.buf[3], o.len - 4);
	assert_int_equal(pg_net_decode(o.buf, o.len, &f, &used, err, sizeof(err)), 1);
	assert_int_equal(used, o.len);
	assert_int_equal(f.type, PG_NET_START);
	assert_int_equal(f.nkeys, 3);
	assert_string_equal(pg_net_get(&f, "test"), "tcp_stream");
	assert_string_equal(pg_net_get(&f, "cc"), "");
	assert_null(pg_net_get(&f, "size"));
	/* every proper prefix asks for more bytes, never fails */
	for (size_t n = 0; n < o.len; n++)
		assert_int_equal(pg_net_decode(o.buf, n, &f, &used, err, sizeof(err)), 0);
	/* an empty body is a valid frame */
	pg_net_out_begin(&o, PG_NET_STOP);
	assert_int_equal(pg_net_out_end(&o), 0);
	assert_int_equal(o.len, 6);
	assert_int_equal(pg_net_decode(o.buf, o.len, &f, &used, err, sizeof(err)), 1);
	assert_int_equal(f.nkeys, 0);
}

static void header_limits(void **state)
{
	(void)state;
	uint8_t b[8];
	char err[128];
	size_t bl;
	/* 4 GB is refused as soon as the 4 length bytes are in */
	raw(b, 0xffffffffu, 1, 1, "");
	assert_int_equal(pg_net_check_header(b, 3, &bl, err, sizeof(err)), 1);
	assert_int_equal(pg_net_check_header(b, 4, &bl, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "4294967295"));
	raw(b, PG_NET_MAX_FRAME + 1, 1, 1, "");
	assert_int_equal(pg_net_check_header(b, 4, &bl, err, sizeof(err)), -1);
	raw(b, PG_NET_MAX_FRAME, 1, 1, "");
	assert_int_equal(pg_net_check_header(b, 6, &bl, err, sizeof(err)), 0);
	assert_int_equal(bl, PG_NET_MAX_FRAME - 2);
	raw(b, 1, 1, 1, "");
	assert_int_equal(pg_net_check_header(b, 4, &bl, err, sizeof(err)), -1);
	raw(b, 2, 2, 1, "");
	assert_int_equal(pg_net_check_header(b, 5, &bl, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "version 2"));
	raw(b, 2, 1, 0, "");
	assert_int_equal(pg_net_check_header(b, 6, &bl, err, sizeof(err)), -1);
	raw(b, 2, 1, PG_NET_BYE + 1, "");
	assert_int_equal(pg_net_check_header(b, 6, &bl, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown message type"));
}

static void body_rules(void **state)
{
	(void)state;
	char err[128];
	assert_int_equal(decode_raw(1, PG_NET_HELLO, "a=1\nb_2=x y\n", err), 1);
	assert_string_equal(pg_net_get(&f, "b_2"), "x y");
	assert_int_equal(decode_raw(1, PG_NET_HELLO, "a=1", err), -1);	/* no newline */
	assert_int_equal(decode_raw(1, PG_NET_HELLO, "=1\n", err), -1);	/* empty key */
	assert_int_equal(decode_raw(1, PG_NET_HELLO, "A=1\n", err), -1);	/* key charset */
	assert_int_equal(decode_raw(1, PG_NET_HELLO, "a\n", err), -1);	/* no = */
	assert_int_equal(decode_raw(1, PG_NET_HELLO, "a=\x01\n", err), -1);
	assert_int_equal(decode_raw(1, PG_NET_HELLO, "a=\xc3\xa9\n", err), -1);
	assert_int_equal(decode_raw(1, PG_NET_HELLO, "a=1\na=2\n", err), -1);
	assert_non_null(strstr(err, "twice"));
	assert_int_equal(decode_raw(1, PG_NET_HELLO, "\n", err), -1);
	assert_int_equal(decode_raw(1, PG_NET_HELLO, "abcdefghijabcdefghijabcdefghijab=1\n", err), -1);
	assert_int_equal(decode_raw(1, PG_NET_HELLO, "abcdefghijabcdefghijabcdefghija=1\n", err), 1);
	char many[512] = "";
	for (int i = 0; i < PG_NET_MAX_KEYS; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "k%d=%d\n", i, i);
	assert_int_equal(decode_raw(1, PG_NET_HELLO, many, err), 1);
	assert_int_equal(f.nkeys, PG_NET_MAX_KEYS);
	strcat(many, "one=more\n");
	assert_int_equal(decode_raw(1, PG_NET_HELLO, many, err), -1);
}

static void encoder_refuses(void **state)
{
	(void)state;
	struct pg_net_out o;
	static char big[PG_NET_MAX_FRAME];
	memset(big, 'x', sizeof(big) - 1);
	pg_net_out_begin(&o, PG_NET_ERROR);
	pg_net_out_add(&o, "reason", "%s", big);
	assert_int_equal(pg_net_out_end(&o), -1);
	pg_net_out_begin(&o, PG_NET_ERROR);
	pg_net_out_add(&o, "reason", "line\nbreak");
	assert_int_equal(pg_net_out_end(&o), -1);
	pg_net_out_begin(&o, PG_NET_ERROR);
	pg_net_out_add(&o, "Bad", "1");
	assert_int_equal(pg_net_out_end(&o), -1);
	/* the largest frame that fits is accepted and decodes */
	pg_net_out_begin(&o, PG_NET_ERROR);
	big[PG_NET_MAX_FRAME - 2 - 3] = '\0';	/* "r=" + value + "\n" */
	pg_net_out_add(&o, "r", "%s", big);
	assert_int_equal(pg_net_out_end(&o), 0);
	assert_int_equal(o.len, 4 + PG_NET_MAX_FRAME);
	size_t used;
	char err[128];
	assert_int_equal(pg_net_decode(o.buf, o.len, &f, &used, err, sizeof(err)), 1);
}

static void typed_values(void **state)
{
	(void)state;
	char err[128];
	uint64_t u;
	double d;
	assert_int_equal(decode_raw(1, PG_NET_REPORT,
				    "n=42\nbig=18446744073709551615\nover=18446744073709551616\n"
				    "neg=-1\nhex=0x10\nsp= 1\nt=2.5\nnan=nan\ninf=inf\nx=1e400\n", err), 1);
	assert_int_equal(pg_net_get_u64(&f, "n", 0, 0, 100, &u, err, sizeof(err)), 0);
	assert_int_equal(u, 42);
	assert_int_equal(pg_net_get_u64(&f, "n", 0, 0, 41, &u, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "out of range"));
	assert_int_equal(pg_net_get_u64(&f, "missing", 7, 0, 100, &u, err, sizeof(err)), 1);
	assert_int_equal(u, 7);
	assert_int_equal(pg_net_get_u64(&f, "big", 0, 0, UINT64_MAX, &u, err, sizeof(err)), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(pg_net_get_u64(&f, "over", 0, 0, UINT64_MAX, &u, err, sizeof(err)), -1);
	assert_int_equal(pg_net_get_u64(&f, "neg", 0, 0, UINT64_MAX, &u, err, sizeof(err)), -1);
	assert_int_equal(pg_net_get_u64(&f, "hex", 0, 0, UINT64_MAX, &u, err, sizeof(err)), -1);
	assert_int_equal(pg_net_get_u64(&f, "sp", 0, 0, UINT64_MAX, &u, err, sizeof(err)), -1);
	assert_int_equal(pg_net_get_double(&f, "t", 0, 0, 10, &d, err, sizeof(err)), 0);
	assert_float_equal(d, 2.5, 0);
	assert_int_equal(pg_net_get_double(&f, "t", 0, 3, 10, &d, err, sizeof(err)), -1);
	assert_int_equal(pg_net_get_double(&f, "nan", 0, 0, 10, &d, err, sizeof(err)), -1);
	assert_int_equal(pg_net_get_double(&f, "inf", 0, 0, 1e300, &d, err, sizeof(err)), -1);
	assert_int_equal(pg_net_get_double(&f, "x", 0, 0, 1e300, &d, err, sizeof(err)), -1);
}

static void two_frames_in_a_row(void **state)
{
	(void)state;
	uint8_t buf[64];
	size_t n = raw(buf, 2 + 4, 1, PG_NET_READY, "p=1\n");
	n += raw(buf + n, 2, 1, PG_NET_BYE, "");
	size_t used;
	char err[128];
	assert_int_equal(pg_net_decode(buf, n, &f, &used, err, sizeof(err)), 1);
	assert_int_equal(f.type, PG_NET_READY);
	assert_int_equal(pg_net_decode(buf + used, n - used, &f, &used, err, sizeof(err)), 1);
	assert_int_equal(f.type, PG_NET_BYE);
}

/* pg_net_recv_by: one deadline for the whole frame, however the bytes are
 * spread (the peer's pre-session time); a frame in time is read whole. */
static void recv_by_deadline(void **state)
{
	(void)state;
	int sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	uint8_t buf[64];
	size_t n = raw(buf, 2 + 4, 1, PG_NET_HELLO, "a=1\n");
	char err[128] = "";
	int bad = 1;
	/* half a header, then nothing: the deadline (0.2 s) ends it, not the
	 * read time (5 s) */
	assert_int_equal(write(sv[0], buf, 3), 3);
	double t0 = pg_now();
	assert_int_equal(pg_net_recv_by(sv[1], &f, t0 + 0.2, 5, &bad, err, sizeof(err)), -1);
	double dt = pg_now() - t0;
	assert_true(dt >= 0.19 && dt < 2);
	assert_int_equal(bad, 0);
	assert_non_null(strstr(err, "timed out waiting for the rest of a message"));
	/* nothing at all */
	assert_int_equal(pg_net_recv_by(sv[0], &f, pg_now() + 0.05, 5, &bad, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "timed out waiting for a message"));
	/* a whole frame in time (a new pair: the first holds half a frame) */
	close(sv[0]);
	close(sv[1]);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(write(sv[0], buf, n), (ssize_t)n);
	assert_int_equal(pg_net_recv_by(sv[1], &f, pg_now() + 1, 5, &bad, err, sizeof(err)), 0);
	assert_int_equal(f.type, PG_NET_HELLO);
	assert_string_equal(pg_net_get(&f, "a"), "1");
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(header_limits),
		cmocka_unit_test(body_rules),
		cmocka_unit_test(encoder_refuses),
		cmocka_unit_test(typed_values),
		cmocka_unit_test(two_frames_in_a_row),
		cmocka_unit_test(recv_by_deadline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
