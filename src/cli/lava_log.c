/* SPDX-License-Identifier: MIT */
/*
 * import --from-lava-log: the results files a LAVA job's log holds. `run
 * --lava` writes each into the console as base64 between marker lines
 * (run_sink_lava.c); the log is either that console as text or LAVA's own
 * job log (output.yaml: one YAML mapping per line, the board's console
 * lines those with "lvl": "target", the line in "msg"). Anything else in
 * the log is no concern of ours, and a block cut short (a log truncated, a
 * kernel message written into the middle of a line) is refused with why.
 */
#include "lava_log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base64.h"
#include "core/err.h"
#include "run.h"

/* The console line a log line carries, in place; NULL when it carries
 * none (another of LAVA's entries: the dispatcher's own messages). */
static char *console_text(char *line)
{
	line[strcspn(line, "\r\n")] = '\0';
	char *p = line + strspn(line, " ");
	if (strncmp(p, "- {", 3) != 0 && strncmp(p, "{", 1) != 0)
		return line;	/* a plain console log */
	if (!strstr(p, "\"lvl\": \"target\""))
		return NULL;
	char *m = strstr(p, "\"msg\": \"");
	if (!m)
		return NULL;
	/* the double-quoted YAML string, its escapes undone (\" \\ \/) */
	char *in = m + 8, *out = in, *start = in;
	for (; *in && *in != '"'; in++) {
		if (*in == '\\' && in[1])
			in++;
		*out++ = *in;
	}
	*out = '\0';
	return start;
}

struct block {
	FILE *f;
	char name[256];
	long size, got;
	struct pg_base64_decoder dec;
};

static int begin_block(struct block *b, const char *text, struct pg_lava_file *lf, char *err, size_t errlen)
{
	const char *p = strstr(text, PG_LAVA_LOG_BEGIN) + strlen(PG_LAVA_LOG_BEGIN);
	char fmt[16] = "";
	memset(b, 0, sizeof(*b));
	if (sscanf(p, " %255s %ld %15s", b->name, &b->size, fmt) != 3 || strcmp(fmt, "base64") != 0 || b->size < 0)
		return pg_err(err, errlen, "a results file's first line is damaged: '%.80s'", text);
	const char *tmp = getenv("TMPDIR");
	snprintf(lf->path, sizeof(lf->path), "%s/perfguide-lava-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	int fd = mkstemp(lf->path);
	if (fd < 0 || !(b->f = fdopen(fd, "wb"))) {
		pg_err(err, errlen, "cannot make a temporary file in %s: %s", tmp && tmp[0] ? tmp : "/tmp",
		       strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(lf->path);
		}
		lf->path[0] = '\0';
		return -1;
	}
	snprintf(lf->name, sizeof(lf->name), "%s", b->name);
	return 0;
}

/* One line of the block: base64 only; a line that is not (LAVA's or the
 * kernel's on the console) is skipped, and a damaged one shows in the size. */
static int block_line(struct block *b, const char *text, char *err, size_t errlen)
{
	size_t n = strlen(text);
	if (n == 0 || strspn(text, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/= \t") != n)
		return 0;
	unsigned char buf[1024];
	while (n) {
		size_t k = n > 1024 ? 1024 : n;	/* at most 768 bytes out */
		size_t o = pg_base64_decode(&b->dec, text, k, buf);
		if (fwrite(buf, 1, o, b->f) != o)
			return pg_err(err, errlen, "writing %s: %s", b->name, strerror(errno));
		b->got += (long)o;
		text += k;
		n -= k;
	}
	return 0;
}

static int end_block(struct block *b, const char *text, char *err, size_t errlen)
{
	int complete = strstr(text, "incomplete") == NULL;
	int rc = fclose(b->f);
	b->f = NULL;
	if (rc != 0)
		return pg_err(err, errlen, "writing %s: %s", b->name, strerror(errno));
	if (!complete || b->got != b->size || b->dec.bad || b->dec.nbits >= 6)
		return pg_err(err, errlen, "the results file %s in the log is damaged or cut: %ld of its %ld bytes%s", b->name,
			      b->got, b->size, complete ? "" : " (perfguide could not read all of it on the board)");
	return 0;
}

void pg_lava_files_free(struct pg_lava_file *files, int n)
{
	for (int i = 0; files && i < n; i++)
		if (files[i].path[0])
			unlink(files[i].path);
	free(files);
}

int pg_lava_log_extract(const char *log, struct pg_lava_file **out, char *err, size_t errlen)
{
	FILE *f = fopen(log, "r");
	if (!f)
		return pg_err(err, errlen, "%s: %s", log, strerror(errno));
	struct pg_lava_file *files = NULL;
	struct block b = { 0 };
	int n = 0, rc = 0, in = 0;
	char *line = NULL;
	size_t cap = 0;
	while (rc == 0 && getline(&line, &cap, f) >= 0) {
		char *text = console_text(line);
		if (!text)
			continue;
		if (!in && strstr(text, PG_LAVA_LOG_BEGIN)) {
			struct pg_lava_file *p = realloc(files, (size_t)(n + 1) * sizeof(*p));
			if (!p) {
				pg_err(err, errlen, "out of memory");
				rc = -1;
				break;
			}
			files = p;
			memset(&files[n], 0, sizeof(files[n]));
			rc = begin_block(&b, text, &files[n++], err, errlen);
			in = rc == 0;
		} else if (in && strstr(text, PG_LAVA_LOG_END)) {
			rc = end_block(&b, text, err, errlen);
			in = 0;
		} else if (in) {
			rc = block_line(&b, text, err, errlen);
		}
	}
	free(line);
	fclose(f);
	if (b.f)
		fclose(b.f);
	if (rc == 0 && in)
		rc = pg_err(err, errlen, "the log ends inside the results file %s: it was cut", b.name);
	if (rc == 0 && n == 0)
		rc = pg_err(err, errlen, "%s holds no results file (was perfguide run with --lava?)", log);
	if (rc < 0) {
		pg_lava_files_free(files, n);
		return -1;
	}
	*out = files;
	return n;
}
