/* SPDX-License-Identifier: MIT */
/*
 * Output files written whole or written through (output.h): the rules
 * every command that writes a file with -o keeps (docs/security.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"

/* A new file in target's directory, to be named target. */
static int open_new(struct pg_output *out)
{
	char dir[PATH_MAX], err[PATH_MAX + 100];
	char *slash = strrchr(out->target, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - out->target) + (slash == out->target) : 1,
		 slash ? out->target : ".");
	if ((out->dirfd = pg_dir_open(dir, err, sizeof(err))) < 0)
		return -1;
	if (!(out->f = pg_newfile_fopen(&out->nf, out->dirfd, slash ? slash + 1 : out->target, 0666))) {
		int e = errno;
		close(out->dirfd);
		errno = e;
		return -1;
	}
	out->replace = 1;
	return 0;
}

/* fd still is the device or FIFO that path was (not swapped meanwhile). */
static int same_node(int fd, const struct stat *was)
{
	struct stat now;
	return fstat(fd, &now) == 0 && (now.st_mode & S_IFMT) == (was->st_mode & S_IFMT) &&
	       now.st_dev == was->st_dev && now.st_ino == was->st_ino;
}

static int open_through(const char *cmd, const char *path, const struct stat *sb, struct pg_output *out)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return pg_usage_error("%s: cannot write %s: %s", cmd, path, strerror(errno));
	if (!same_node(fd, sb)) {
		close(fd);
		return pg_usage_error("%s: %s changed while it was opened: not written", cmd, path);
	}
	if (!(out->f = fdopen(fd, "w"))) {
		close(fd);
		return pg_usage_error("%s: cannot write %s: %s", cmd, path, strerror(errno));
	}
	return -1;
}

/* -1 when out is ready, else the exit status (the reason said). */
int pg_output_open(const char *cmd, const char *path, struct pg_output *out)
{
	struct stat sb, lsb;
	memset(out, 0, sizeof(*out));
	if (strcmp(path, "-") == 0) {
		out->f = stdout;
		return -1;
	}
	int have = stat(path, &sb) == 0, e = errno;
	int link = lstat(path, &lsb) == 0 && S_ISLNK(lsb.st_mode);
	if (!have && e != ENOENT)
		return pg_usage_error("%s: cannot write %s: %s", cmd, path, strerror(e));
	if (!have && link)
		return pg_usage_error("%s: %s is a symbolic link to nothing: not replaced", cmd, path);
	if (have && (S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode)))
		return open_through(cmd, path, &sb, out);
	if (have && !S_ISREG(sb.st_mode))
		return pg_usage_error("%s: %s is %s: the output goes to a regular file, a character device, "
				      "a FIFO or - (standard output)", cmd, path,
				      S_ISDIR(sb.st_mode) ? "a directory" : S_ISBLK(sb.st_mode) ? "a block device"
										: "not a file");
	/* A link to a regular file: the file it leads to is replaced, the link kept. */
	if (link ? !realpath(path, out->target)
		 : (size_t)snprintf(out->target, sizeof(out->target), "%s", path) >= sizeof(out->target))
		return pg_usage_error("%s: cannot write %s: %s", cmd, path, link ? strerror(errno) : "name too long");
	if (open_new(out) < 0)
		return pg_usage_error("%s: cannot write %s: %s", cmd, path, strerror(errno));
	return -1;
}

/* The complete file in place: the new file named over the target, unless
 * that became something else than a regular file meanwhile. */
int pg_output_close(const char *cmd, struct pg_output *out, int wrc, const char *path)
{
	if (out->f == stdout)
		return wrc;
	if (!out->replace)
		return fclose(out->f) != 0 ? -1 : wrc;
	char why[400];
	if (wrc == 0 && (fflush(out->f) != 0 || ferror(out->f)))
		wrc = -1;
	if (wrc == 0)
		wrc = pg_newfile_commit(&out->nf, why, sizeof(why));
	else
		pg_newfile_abort(&out->nf);
	int e = errno;
	if (wrc == -2)
		fprintf(stderr, "perfguide: %s: %s is no longer a regular file: not replaced\n", cmd, path);
	fclose(out->f);
	close(out->dirfd);
	errno = e;
	return wrc;
}
