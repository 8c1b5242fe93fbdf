/* SPDX-License-Identifier: MIT */
/*
 * The results file: the run record, a record per result as it finishes
 * (flushed, so a crash keeps what finished), the end record; with --json the
 * same records on stdout.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run.h"
#include "core/err.h"

struct file_sink {
	struct pg_results res;
	FILE *f;
	char path[512];
};

static void file_begin(void *self, const struct pg_run_info *ri)
{
	pg_results_run(&((struct file_sink *)self)->res, ri);
}

static void file_result(void *self, const struct pg_result *r)
{
	pg_results_result(&((struct file_sink *)self)->res, r);
}

static void file_end(void *self, int interrupted)
{
	struct file_sink *fs = self;
	pg_results_end(&fs->res, interrupted);
	if (fclose(fs->f) != 0 && !fs->res.failed) {
		fprintf(stderr, "perfguide: writing %s: %s\n", fs->path, strerror(errno));
		fs->res.failed = 1;
	}
	fs->f = NULL;
	if (fs->res.failed)
		fprintf(stderr, "perfguide: the results in %s are incomplete: writing failed\n", fs->path);
	else
		fprintf(stderr, "perfguide: %s results in %s\n", interrupted ? "interrupted; finished" : "wrote", fs->path);
}

static int file_close(void *self)
{
	struct file_sink *fs = self;
	int rc = fs->res.failed ? -1 : 0;
	if (fs->f)
		fclose(fs->f);
	free(fs);
	return rc;
}

static const struct run_sink_ops file_ops = {
	.begin = file_begin, .result = file_result, .end = file_end, .close = file_close,
};

/* Board names become file names: keep them to a safe alphabet. */
static void file_safe(const char *in, char *out, size_t len)
{
	size_t i = 0;
	for (; in[i] && i + 1 < len; i++) {
		unsigned char c = (unsigned char)in[i];
		out[i] = (isalnum(c) || c == '-' || c == '_' || c == '.') ? (char)c : '_';
	}
	out[i] = '\0';
}

int run_results_path(struct run_sinks *s, const struct run_config *c, const char *run_id, char *err, size_t len)
{
	if (c->out) {
		if (strlen(c->out) >= sizeof(s->path)) {
			return pg_err(err, len, "--out: the path is longer than %zu bytes", sizeof(s->path) - 1);
		}
		snprintf(s->path, sizeof(s->path), "%s", c->out);
		return 0;
	}
	if (mkdir(RUN_RESULTS_DIR, 0777) < 0 && errno != EEXIST) {
		return pg_err(err, len, "cannot create %s/: %s", RUN_RESULTS_DIR, strerror(errno));
	}
	char safe[200];
	file_safe(run_id, safe, sizeof(safe));
	snprintf(s->path, sizeof(s->path), "%s/%s.jsonl", RUN_RESULTS_DIR, safe);
	return 0;
}

/* The results file, appended to. A regular file only: a device or a FIFO
 * would take the records and give nothing (or endless bytes) back to the
 * store that reads them, and a FIFO without a reader would block the run.
 * O_NONBLOCK makes opening a FIFO fail or return at once. */
static FILE *open_results(const char *path, char *err, size_t len)
{
	struct stat sb;
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0666);
	if (fd >= 0 && fstat(fd, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		close(fd);
		pg_err(err, len,
		       "--out %s: not a regular file (results go to a file; --json writes them to standard output)",
		       path);
		return NULL;
	}
	FILE *f = fd >= 0 && fcntl(fd, F_SETFL, O_WRONLY | O_APPEND) == 0 ? fdopen(fd, "a") : NULL;
	if (!f) {
		if (errno == ENXIO)	/* a FIFO nobody reads */
			pg_err(err, len,
			       "--out %s: not a regular file (results go to a file; --json writes them to "
			       "standard output)",
			       path);
		else
			pg_err(err, len, "cannot write results to %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

int run_sink_file(struct run_sinks *s, const struct run_config *c, char *err, size_t len)
{
	struct file_sink *fs = calloc(1, sizeof(*fs));
	if (!fs) {
		return pg_err(err, len, "out of memory");
	}
	snprintf(fs->path, sizeof(fs->path), "%s", s->path);
	if (!(fs->f = open_results(fs->path, err, len))) {
		free(fs);
		return -1;
	}
	fs->res = (struct pg_results){ .sink = { fs->f }, .nsinks = 1, .path = fs->path };
	if (c->json)
		fs->res.sink[fs->res.nsinks++] = stdout;
	if (run_sinks_add(s, &file_ops, fs) < 0) {
		fclose(fs->f);
		free(fs);
		return pg_err(err, len, "too many sinks");
	}
	return 0;
}
