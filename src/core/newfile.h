/* SPDX-License-Identifier: MIT */
/*
 * Files perfguide makes besides the results file (the guide, its charts, a
 * LAVA log's results files, raw output): never opened at a name someone
 * could have planted something at. A file is made in a directory opened
 * once (all that follows is relative to that descriptor), as a new file no
 * one else has: O_TMPFILE, with no name until it is complete, or where the
 * file system has none a fresh random name opened with
 * O_CREAT|O_EXCL|O_NOFOLLOW. It gets its name at the end, by rename, and
 * only over nothing or a regular file: a link, a FIFO, a device or anything
 * else at the name is left as it is, never written into nor followed. A
 * process killed before then leaves nothing (O_TMPFILE), or, on a file
 * system without it, nothing after SIGINT, SIGTERM or SIGHUP.
 */
#ifndef PG_NEWFILE_H
#define PG_NEWFILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct pg_newfile {
	int dirfd;		/* the directory (not ours: the caller's) */
	int fd;
	char tmp[32];		/* its temporary name; "" while it has none (O_TMPFILE) */
	char name[256];		/* the name it gets */
};

/* Opens directory dir for new files (O_DIRECTORY: it is one); the
 * descriptor, or -1 with err set. */
int pg_dir_open(const char *dir, char *err, size_t errlen);

/* A new file in dirfd that will be named name, mode as open(2) takes it
 * (the umask applies). 0, or -1 with errno set. */
int pg_newfile_open(struct pg_newfile *f, int dirfd, const char *name, mode_t mode);
/* The same as a stream ("w"), which owns f->fd; NULL with errno set. */
FILE *pg_newfile_fopen(struct pg_newfile *f, int dirfd, const char *name, mode_t mode);

/* Gives the file its name, once it is written and while it is still open
 * (an O_TMPFILE closed is gone): 0; -2 when something other than a
 * regular file is at the name (left as it is, the file removed; why says
 * what); -1 with errno set (the file removed). The caller closes fd. */
int pg_newfile_commit(struct pg_newfile *f, char *why, size_t whylen);
/* Removes the file; the caller closes fd. */
void pg_newfile_abort(struct pg_newfile *f);

/* A scratch file in dir that has no name at all: O_TMPFILE, or made and
 * removed at once. The descriptor (read and write), or -1 with err set. */
int pg_scratch_file(const char *dir, char *err, size_t errlen);

#endif
