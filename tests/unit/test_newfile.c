/* SPDX-License-Identifier: MIT */
/*
 * core/newfile: the files perfguide makes beside the results file (issue
 * 40, defect 3). A link, a FIFO or a directory at the name is left as it
 * is and nothing is written through it; a regular file is replaced whole;
 * nothing of perfguide's is left in the directory, committed or not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/newfile.h"

static char dir[] = "/tmp/pg-newfile-test.XXXXXX";
static int dirfd_;

static const char *path(const char *name)
{
	static char buf[256];
	snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	return buf;
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(path(name), "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static char *get(const char *name)
{
	static char buf[256];
	FILE *f = fopen(path(name), "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* How many entries the directory holds (perfguide's temporaries would be
 * ".pg-..."). */
static int entries(void)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

/* Writes "new" to a new file to be named name; the commit's result. */
static int make(const char *name, char *why, size_t len)
{
	struct pg_newfile nf;
	FILE *f = pg_newfile_fopen(&nf, dirfd_, name, 0644);
	assert_non_null(f);
	fputs("new", f);
	assert_int_equal(fflush(f), 0);
	int rc = pg_newfile_commit(&nf, why, len);
	fclose(f);
	return rc;
}

static void new_and_regular(void **state)
{
	(void)state;
	char why[300];
	assert_int_equal(make("a.svg", why, sizeof(why)), 0);
	assert_string_equal(get("a.svg"), "new");
	put("b.svg", "old");
	assert_int_equal(make("b.svg", why, sizeof(why)), 0);
	assert_string_equal(get("b.svg"), "new");
	assert_int_equal(entries(), 2);
}

static void planted_left_alone(void **state)
{
	(void)state;
	char why[300];
	put("victim", "precious");
	char victim[256];
	snprintf(victim, sizeof(victim), "%s", path("victim"));	/* path's buffer is one */
	assert_int_equal(symlink(victim, path("link.svg")), 0);
	assert_int_equal(make("link.svg", why, sizeof(why)), -2);
	assert_non_null(strstr(why, "link.svg is a symbolic link"));
	assert_string_equal(get("victim"), "precious");
	struct stat st;
	assert_int_equal(lstat(path("link.svg"), &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(mkfifo(path("fifo.svg"), 0600), 0);
	assert_int_equal(make("fifo.svg", why, sizeof(why)), -2);	/* never opened: no block */
	assert_non_null(strstr(why, "a FIFO"));
	assert_int_equal(mkdir(path("dir.svg"), 0700), 0);
	assert_int_equal(make("dir.svg", why, sizeof(why)), -2);
	assert_int_equal(entries(), 2 + 4);	/* a.svg b.svg, victim link fifo dir: no temporary */
}

static void aborted_leaves_nothing(void **state)
{
	(void)state;
	int before = entries();
	struct pg_newfile nf;
	FILE *f = pg_newfile_fopen(&nf, dirfd_, "gone.svg", 0644);
	assert_non_null(f);
	fputs("half", f);
	pg_newfile_abort(&nf);
	fclose(f);
	assert_int_equal(entries(), before);
	char err[300];
	int fd = pg_scratch_file(dir, err, sizeof(err));
	assert_true(fd >= 0);
	struct stat st;
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_nlink, 0);	/* no name at all */
	close(fd);
	assert_int_equal(entries(), before);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	char err[300];
	dirfd_ = pg_dir_open(dir, err, sizeof(err));
	return dirfd_ < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	close(dirfd_);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(new_and_regular),
		cmocka_unit_test(planted_left_alone),
		cmocka_unit_test(aborted_leaves_nothing),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
