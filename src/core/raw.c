/* SPDX-License-Identifier: MIT */
/* Raw-output files beside the results file: see raw.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "raw.h"
#include "runner.h"

FILE *pg_raw_open(struct pg_ctx *ctx, const char *ext, char *name, size_t len)
{
	const char *dir = ctx->run ? ctx->run->raw_dir : NULL;
	if (!dir) {
		snprintf(name, len, "not kept (no results file)");
		return NULL;
	}
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		snprintf(name, len, "not kept (%s)", strerror(errno));
		return NULL;
	}
	/* The directory as it is, never a link someone put at its name, and
	 * each file in it new (O_EXCL, O_NOFOLLOW): nothing planted there is
	 * written through. */
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		int e = errno;
		struct stat st;
		int link = lstat(dir, &st) == 0 && S_ISLNK(st.st_mode);
		snprintf(name, len, "not kept (%s: %s)", dir, link ? "a symbolic link" : strerror(e));
		return NULL;
	}
	const char *base = strrchr(dir, '/');
	base = base ? base + 1 : dir;
	for (int n = 1; n < 100000; n++) {
		char file[300];
		snprintf(file, sizeof(file), "%s-%d.%s", ctx->bench->id, n, ext);
		int fd = openat(dfd, file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0 && errno == EEXIST)
			continue;
		FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!f) {
			snprintf(name, len, "not kept (%s)", strerror(errno));
			if (fd >= 0)
				close(fd);
			close(dfd);
			return NULL;
		}
		close(dfd);
		snprintf(name, len, "%s/%s", base, file);
		return f;
	}
	close(dfd);
	snprintf(name, len, "not kept (too many files in %s)", base);
	return NULL;
}
