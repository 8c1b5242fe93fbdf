/* SPDX-License-Identifier: MIT */
/* New files in a directory opened once: see newfile.h. */
#include "newfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "err.h"

/* The named temporaries that exist at the moment, removed when SIGINT,
 * SIGTERM or SIGHUP ends the process (O_TMPFILE's need no such care). */
#define PENDING 8
static struct {
	volatile sig_atomic_t used;
	int dirfd;
	char name[32];
} pending[PENDING];

static void on_signal(int sig)
{
	for (int i = 0; i < PENDING; i++)
		if (pending[i].used)
			unlinkat(pending[i].dirfd, pending[i].name, 0);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Installs on_signal where the signal has its default action (a command
 * with handlers of its own keeps them). */
static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old, sa;
		if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigaction(sigs[i], &sa, NULL);
	}
}

static void pending_set(int dirfd, const char *name, int on)
{
	for (int i = 0; i < PENDING; i++) {
		if (on && !pending[i].used) {
			catch_signals();
			pending[i].dirfd = dirfd;
			snprintf(pending[i].name, sizeof(pending[i].name), "%s", name);
			pending[i].used = 1;
			return;
		}
		if (!on && pending[i].used && pending[i].dirfd == dirfd && strcmp(pending[i].name, name) == 0) {
			pending[i].used = 0;
			return;
		}
	}
}

/* ".pg-" and 16 hex digits no one can guess before it is made. */
static void random_name(char *buf, size_t len)
{
	static uint64_t count;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40) ^ ++count * 0x9e3779b97f4a7c15ULL;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	uint64_t r = 0;
	if (fd >= 0) {
		if (read(fd, &r, sizeof(r)) == (ssize_t)sizeof(r))
			x ^= r;
		close(fd);
	}
	snprintf(buf, len, ".pg-%016llx", (unsigned long long)x);
}

/* A new file of a random name in dirfd, only ours: its descriptor, the
 * name in buf; -1 with errno set. */
static int open_named(int dirfd, int flags, mode_t mode, char *buf, size_t len)
{
	for (int tries = 0; tries < 100; tries++) {
		random_name(buf, len);
		int fd = openat(dirfd, buf, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

int pg_dir_open(const char *dir, char *err, size_t errlen)
{
	int fd = open(dir[0] ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		pg_err(err, errlen, "%s: %s", dir, strerror(errno));
	return fd;
}

/* Whether an O_TMPFILE descriptor can be given a name later: through
 * /proc/self/fd (AT_EMPTY_PATH needs a privilege). */
static int can_link(int fd)
{
	char p[64];
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	return access(p, F_OK) == 0;
}

int pg_newfile_open(struct pg_newfile *f, int dirfd, const char *name, mode_t mode)
{
	memset(f, 0, sizeof(*f));
	f->dirfd = dirfd;
	if ((size_t)snprintf(f->name, sizeof(f->name), "%s", name) >= sizeof(f->name) || strchr(name, '/')) {
		errno = ENAMETOOLONG;
		return -1;
	}
#ifdef O_TMPFILE
	f->fd = openat(dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
	if (f->fd >= 0 && can_link(f->fd))
		return 0;
	if (f->fd >= 0)
		close(f->fd);
#endif
	f->fd = open_named(dirfd, O_WRONLY, mode, f->tmp, sizeof(f->tmp));
	if (f->fd < 0)
		return -1;
	pending_set(dirfd, f->tmp, 1);
	return 0;
}

FILE *pg_newfile_fopen(struct pg_newfile *f, int dirfd, const char *name, mode_t mode)
{
	if (pg_newfile_open(f, dirfd, name, mode) < 0)
		return NULL;
	FILE *s = fdopen(f->fd, "w");
	if (!s) {
		int e = errno;
		pg_newfile_abort(f);
		close(f->fd);
		errno = e;
	}
	return s;
}

/* An O_TMPFILE's first name, a random one (its descriptor still open). */
static int link_tmp(struct pg_newfile *f)
{
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", f->fd);
	for (int tries = 0; tries < 100; tries++) {
		random_name(f->tmp, sizeof(f->tmp));
		pending_set(f->dirfd, f->tmp, 1);
		if (linkat(AT_FDCWD, proc, f->dirfd, f->tmp, AT_SYMLINK_FOLLOW) == 0)
			return 0;
		int e = errno;
		pending_set(f->dirfd, f->tmp, 0);
		errno = e;
		if (e != EEXIST)
			break;
	}
	f->tmp[0] = '\0';
	return -1;
}

static const char *what_is(mode_t m)
{
	return S_ISLNK(m) ? "a symbolic link" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
	       : S_ISBLK(m) ? "a block device" : S_ISDIR(m) ? "a directory" : S_ISSOCK(m) ? "a socket" : "not a file";
}

int pg_newfile_commit(struct pg_newfile *f, char *why, size_t whylen)
{
	struct stat st;
	int rc = -1, e = 0;
	if (fstatat(f->dirfd, f->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode)) {
		pg_err(why, whylen, "%s is %s: not replaced", f->name, what_is(st.st_mode));
		pg_newfile_abort(f);
		return -2;
	}
	if (f->tmp[0] || link_tmp(f) == 0) {
		rc = renameat(f->dirfd, f->tmp, f->dirfd, f->name);
		e = errno;
		if (rc != 0)
			unlinkat(f->dirfd, f->tmp, 0);
		pending_set(f->dirfd, f->tmp, 0);
	} else {
		e = errno;
	}
	f->tmp[0] = '\0';
	errno = e;
	return rc;
}

void pg_newfile_abort(struct pg_newfile *f)
{
	if (f->tmp[0]) {
		unlinkat(f->dirfd, f->tmp, 0);
		pending_set(f->dirfd, f->tmp, 0);
	}
	f->tmp[0] = '\0';
}

int pg_scratch_file(const char *dir, char *err, size_t errlen)
{
	int dfd = pg_dir_open(dir, err, errlen), fd = -1;
	if (dfd < 0)
		return -1;
#ifdef O_TMPFILE
	fd = openat(dfd, ".", O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
#endif
	char name[32];
	if (fd < 0 && (fd = open_named(dfd, O_RDWR, 0600, name, sizeof(name))) >= 0)
		unlinkat(dfd, name, 0);
	if (fd < 0)
		pg_err(err, errlen, "cannot make a temporary file in %s: %s", dir, strerror(errno));
	close(dfd);
	return fd;
}
