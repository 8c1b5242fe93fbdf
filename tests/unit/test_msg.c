/* SPDX-License-Identifier: MIT */
/*
 * The msg group without an rpmsg bus: the payload and its check, finding
 * the echo service in a sysfs tree laid out in a temporary directory as
 * TI's (Linux 6.1, rpmsg_ctrl) and ADI's (before 5.18, rpmsg_chrdev) boards
 * have it, the size limit, and the skip on a machine without the bus.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "bench/msg/msg.h"
#include "core/params.h"
#include "core/runner.h"
#include "bench_args.h"

static void payload_round_trips(void **state)
{
	(void)state;
	uint8_t buf[MSG_RPMSG_MTU + 16];
	char why[160];
	size_t sizes[] = { 1, 2, 7, 8, 9, 128, MSG_RPMSG_MTU };
	uint64_t seqs[] = { 0, 1, 255, 256, 65537, 0x0123456789abcdefull };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (size_t k = 0; k < sizeof(seqs) / sizeof(seqs[0]); k++) {
			msg_payload_fill(buf, sizes[i], seqs[k]);
			assert_int_equal(msg_payload_check(buf, sizes[i], sizes[i], seqs[k], why,
							   sizeof(why)), 0);
		}
}

static void payload_check_finds_faults(void **state)
{
	(void)state;
	uint8_t buf[MSG_RPMSG_MTU + 32], other[MSG_RPMSG_MTU];
	char why[160];
	msg_payload_fill(buf, 128, 41);
	/* The next message instead of this one: lost or reordered. */
	assert_int_equal(msg_payload_check(buf, 128, 128, 42, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "message 42 expected, message 41"));
	/* One byte changed in the pattern. */
	buf[100] ^= 1;
	assert_int_equal(msg_payload_check(buf, 128, 128, 41, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "byte 100 changed"));
	buf[100] ^= 1;
	/* Short echoes are refused; longer ones (ADI's sharc-echo appends its
	 * text) are checked on what was sent. */
	assert_int_equal(msg_payload_check(buf, 127, 128, 41, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "of 127 bytes to a 128-byte"));
	memcpy(buf + 128, " => echo from Core1", 19);
	assert_int_equal(msg_payload_check(buf, 147, 128, 41, why, sizeof(why)), 0);
	/* Consecutive messages differ beyond their numbers, so an echo of a
	 * stale buffer with the right number still fails. */
	msg_payload_fill(other, 128, 42);
	memcpy(other, buf, 8);
	assert_int_equal(msg_payload_check(other, 128, 128, 41, why, sizeof(why)), -1);
	/* A 1-byte message carries its number modulo 256. */
	msg_payload_fill(buf, 1, 300);
	assert_int_equal(buf[0], 300 % 256);
	assert_int_equal(msg_payload_check(buf, 1, 1, 300 + 256, why, sizeof(why)), 0);
	assert_int_equal(msg_payload_check(buf, 1, 1, 301, why, sizeof(why)), -1);
}

/* --- a sysfs tree in a temporary directory --- */

static char root[256];

static void mkdirs(const char *rel)
{
	char p[1024], *s;
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

static void put(const char *rel, const char *text)
{
	char p[1024];
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

/* An rpmsg device under dir, listed on the bus. */
static void device(const char *dir, const char *dev, const char *name, unsigned dst)
{
	char rel[512], v[32], link[1024], target[1024];
	snprintf(rel, sizeof(rel), "%s/%s", dir, dev);
	mkdirs(rel);
	snprintf(link, sizeof(link), "%s/name", rel);
	put(link, name);
	snprintf(v, sizeof(v), "0x%x", dst);
	snprintf(link, sizeof(link), "%s/dst", rel);
	put(link, v);
	snprintf(link, sizeof(link), "%s/sys/bus/rpmsg/devices/%s", root, dev);
	snprintf(target, sizeof(target), "%s/%s", root, rel);
	assert_int_equal(symlink(target, link), 0);
}

static void rproc(const char *platform, int n)
{
	char rel[512], link[1024], target[1024];
	snprintf(rel, sizeof(rel), "sys/devices/platform/%s/remoteproc/remoteproc%d", platform, n);
	mkdirs(rel);
	snprintf(link, sizeof(link), "%s/name", rel);
	put(link, platform);
	snprintf(link, sizeof(link), "%s/sys/class/remoteproc/remoteproc%d", root, n);
	snprintf(target, sizeof(target), "%s/%s", root, rel);
	assert_int_equal(symlink(target, link), 0);
}

static int make_tree(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "%s/pg-msg-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(root));
	mkdirs("sys/bus/rpmsg/devices");
	mkdirs("sys/class/remoteproc");
	/* TI, Linux 6.1: two R5F cores, each with the IPC echo firmware. */
	const char *v0 = "sys/devices/platform/5c00000.r5f/remoteproc/remoteproc0/remoteproc0#vdev0buffer/virtio0";
	const char *v1 = "sys/devices/platform/78000000.r5f/remoteproc/remoteproc1/remoteproc1#vdev0buffer/virtio1";
	rproc("5c00000.r5f", 0);
	rproc("78000000.r5f", 1);
	device(v0, "virtio0.rpmsg_ctrl.0.0", "rpmsg_ctrl", 0);
	device(v0, "virtio0.rpmsg_ns.53.53", "rpmsg_ns", 53);
	device(v0, "virtio0.rpmsg_chrdev.-1.14", "rpmsg_chrdev", 14);
	device(v0, "virtio0.ti.ipc4.ping-pong.-1.13", "ti.ipc4.ping-pong", 13);
	mkdirs("sys/devices/platform/5c00000.r5f/remoteproc/remoteproc0/remoteproc0#vdev0buffer/"
	       "virtio0/virtio0.rpmsg_ctrl.0.0/rpmsg/rpmsg_ctrl0");
	device(v1, "virtio1.rpmsg_ctrl.0.0", "rpmsg_ctrl", 0);
	device(v1, "virtio1.ti.ipc4.ping-pong.-1.13", "ti.ipc4.ping-pong", 13);
	mkdirs("sys/devices/platform/78000000.r5f/remoteproc/remoteproc1/remoteproc1#vdev0buffer/"
	       "virtio1/virtio1.rpmsg_ctrl.0.0/rpmsg/rpmsg_ctrl1");
	/* ADI before Linux 5.18: a SHARC core whose firmware announces one
	 * sharc-echo per channel; the control device hangs off rpmsg_chrdev. */
	const char *v2 = "sys/devices/platform/sharc1/remoteproc/remoteproc2/remoteproc2#vdev0buffer/virtio2";
	rproc("sharc1", 2);
	device(v2, "virtio2.rpmsg_chrdev.0.0", "rpmsg_chrdev", 0);
	mkdirs("sys/devices/platform/sharc1/remoteproc/remoteproc2/remoteproc2#vdev0buffer/"
	       "virtio2/virtio2.rpmsg_chrdev.0.0/rpmsg/rpmsg_ctrl2");
	device(v2, "virtio2.sharc-echo.-1.290", "sharc-echo", 290);
	device(v2, "virtio2.sharc-echo.-1.288", "sharc-echo", 288);
	device(v2, "virtio2.sharc-echo.-1.289", "sharc-echo", 289);
	/* A remote with no control device at all. */
	device("sys/devices/platform/dsp/virtio3", "virtio3.rpmsg-client-sample.-1.1024",
	       "rpmsg-client-sample", 1024);
	return 0;
}

static int remove_tree(void **state)
{
	(void)state;
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void finds_ti_echo(void **state)
{
	(void)state;
	struct msg_service s[8];
	char why[256] = "";
	/* auto: the first remote's preferred echo service. */
	assert_int_equal(msg_find_services(root, "auto", s, 8, why, sizeof(why)), 1);
	assert_string_equal(s[0].name, "ti.ipc4.ping-pong");
	assert_int_equal(s[0].dst, 13);
	assert_string_equal(s[0].parent, "virtio0");
	assert_string_equal(s[0].ctrl, "rpmsg_ctrl0");
	assert_string_equal(s[0].rproc, "5c00000.r5f");
	assert_string_equal(s[0].dev, "virtio0.ti.ipc4.ping-pong.-1.13");
	/* The second core, by index, by remoteprocN and by name. */
	const char *second[] = { "1", "remoteproc1", "78000000.r5f" };
	for (int i = 0; i < 3; i++) {
		assert_int_equal(msg_find_services(root, second[i], s, 8, why, sizeof(why)), 1);
		assert_string_equal(s[0].parent, "virtio1");
		assert_string_equal(s[0].ctrl, "rpmsg_ctrl1");
		assert_string_equal(s[0].rproc, "78000000.r5f");
	}
	/* TI's rpmsg_char_simple endpoint on the first core. */
	assert_int_equal(msg_find_services(root, "0:rpmsg_chrdev", s, 8, why, sizeof(why)), 1);
	assert_int_equal(s[0].dst, 14);
	assert_string_equal(s[0].ctrl, "rpmsg_ctrl0");
}

static void finds_adi_channels(void **state)
{
	(void)state;
	struct msg_service s[8];
	char why[256] = "";
	const char *names[] = { "sharc-echo", "2", "sharc1", "sharc1:sharc-echo" };
	for (int i = 0; i < 4; i++) {
		assert_int_equal(msg_find_services(root, names[i], s, 8, why, sizeof(why)), 3);
		/* By address: channel i uses the i-th. */
		assert_int_equal(s[0].dst, 288);
		assert_int_equal(s[1].dst, 289);
		assert_int_equal(s[2].dst, 290);
		assert_string_equal(s[2].ctrl, "rpmsg_ctrl2");
	}
	assert_int_equal(msg_find_services(root, "sharc-echo", s, 2, why, sizeof(why)), 2);
}

static void says_what_is_missing(void **state)
{
	(void)state;
	struct msg_service s[8];
	char why[256] = "";
	assert_int_equal(msg_find_services(root, "nosuch", s, 8, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "no service 'nosuch' on the rpmsg bus"));
	assert_non_null(strstr(why, "ti.ipc4.ping-pong@virtio0"));
	assert_null(strstr(why, "rpmsg_ctrl@"));
	assert_int_equal(msg_find_services(root, "7", s, 8, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "no remote processor '7'"));
	assert_int_equal(msg_find_services(root, "rpmsg-client-sample", s, 8, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "no rpmsg control device for virtio3.rpmsg-client-sample"));
	/* A remote with no echo service. */
	assert_int_equal(msg_find_services(root, "1:rpmsg_chrdev", s, 8, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "no service 'rpmsg_chrdev' on remoteproc1"));
	/* No bus at all. */
	char empty[300];
	snprintf(empty, sizeof(empty), "%s/nothing", root);
	assert_int_equal(msg_find_services(empty, "auto", s, 8, why, sizeof(why)), 0);
	assert_string_equal(why, "no rpmsg bus (load rpmsg_char/rpmsg_ctrl; no remote processor "
			    "is running)");
}

static void size_is_limited_to_496(void **state)
{
	(void)state;
	const struct pg_bench *b[] = { &pg_msg_rpmsg_rr, &pg_msg_rpmsg_stream };
	for (int i = 0; i < 2; i++) {
		struct pg_override ov;
		char err[256];
		struct pg_args *all = NULL;
		int n = 0;
		assert_int_equal(pg_override_parse("size=496", &ov, err, sizeof(err)), 0);
		assert_int_equal(pg_sweep(b[i], PG_SUITE_NONE, &ov, 1, 0, &all, &n, err, sizeof(err)), 0);
		free(all);
		assert_int_equal(pg_override_parse("size=497", &ov, err, sizeof(err)), 0);
		assert_int_equal(pg_sweep(b[i], PG_SUITE_NONE, &ov, 1, 0, &all, &n, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "at most 496 bytes"));
		/* The standard suite sweeps the seed's channels and sizes. */
		assert_int_equal(pg_sweep(b[i], PG_SUITE_STANDARD, NULL, 0, 0, &all, &n, err, sizeof(err)), 0);
		assert_int_equal(n, 12);
		free(all);
	}
}

/* This machine has no rpmsg bus: both benchmarks skip at once, saying why. */
static void skips_without_a_bus(void **state)
{
	(void)state;
	if (access("/sys/bus/rpmsg/devices", F_OK) == 0)
		skip();
	const struct pg_bench *b[] = { &pg_msg_rpmsg_rr, &pg_msg_rpmsg_stream };
	for (int i = 0; i < 2; i++) {
		struct pg_args a = bench_args(b[i], "channels=4", NULL);
		struct pg_run_opts o = { .runs = 1, .min_time = 0.01 };
		struct pg_result r;
		assert_int_equal(pg_run_bench(b[i], &a, &o, &r), PG_SKIP);
		assert_string_equal(r.reason, "no rpmsg bus (load rpmsg_char/rpmsg_ctrl; no remote "
				    "processor is running)");
		pg_result_free(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(payload_round_trips),
		cmocka_unit_test(payload_check_finds_faults),
		cmocka_unit_test_setup_teardown(finds_ti_echo, make_tree, remove_tree),
		cmocka_unit_test_setup_teardown(finds_adi_channels, make_tree, remove_tree),
		cmocka_unit_test_setup_teardown(says_what_is_missing, make_tree, remove_tree),
		cmocka_unit_test(size_is_limited_to_496),
		cmocka_unit_test(skips_without_a_bus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
