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
#include "core/newfile.h"
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
	FILE *f;		/* the file's (struct pg_lava_file's) */
	char name[256];
	long size, got;
	struct pg_base64_decoder dec;
};

/* The decoded file goes into a file of no name in $TMPDIR (core/newfile.h):
 * nothing is left of it, whatever ends the import, and nothing planted in
 * the temporary directory is written through. */
static int begin_block(struct block *b, const char *text, struct pg_lava_file *lf, char *err, size_t errlen)
{
	const char *p = strstr(text, PG_LAVA_LOG_BEGIN) + strlen(PG_LAVA_LOG_BEGIN);
	char fmt[16] = "";
	memset(b, 0, sizeof(*b));
	if (sscanf(p, " %255s %ld %15s", b->name, &b->size, fmt) != 3 || strcmp(fmt, "base64") != 0 || b->size < 0)
		return pg_err(err, errlen, "a results file's first line is damaged: '%.80s'", text);
	const char *tmp = getenv("TMPDIR");
	int fd = pg_scratch_file(tmp && tmp[0] ? tmp : "/tmp", err, errlen);
	if (fd < 0)
		return -1;
	if (!(lf->f = fdopen(fd, "w+b"))) {
		close(fd);
		return pg_err(err, errlen, "out of memory");
	}
	b->f = lf->f;
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
	int rc = fflush(b->f) != 0 || ferror(b->f) ? -1 : fseek(b->f, 0, SEEK_SET);
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
		if (files[i].f)
			fclose(files[i].f);
	free(files);
}

/* A line of the log into buf (cap bytes): its length, or -1 at the end. A
 * longer line is cut (*cut set) and the rest of it read past, never held:
 * a log may hold a line of hundreds of megabytes, none of ours. */
static long log_line(FILE *f, char *buf, size_t cap, int *cut)
{
	size_t n = 0;
	int c = EOF;
	*cut = 0;
	while ((c = getc(f)) != EOF) {
		if (n + 1 < cap)
			buf[n++] = (char)c;
		else
			*cut = 1;
		if (c == '\n')
			break;
	}
	buf[n] = '\0';
	return c == EOF && n == 0 ? -1 : (long)n;
}

/* The longest line of a log that is read: a results file's lines are 76
 * characters of base64, a console line as LAVA's log holds it a few more. */
#define LOG_LINE_MAX (64 * 1024)

int pg_lava_log_extract(const char *log, struct pg_lava_file **out, char *err, size_t errlen)
{
	FILE *f = fopen(log, "r");
	char *line = malloc(LOG_LINE_MAX);
	if (!f || !line) {
		free(line);
		if (f)
			fclose(f);
		return pg_err(err, errlen, "%s: %s", log, f ? "out of memory" : strerror(errno));
	}
	struct pg_lava_file *files = NULL;
	struct block b = { 0 };
	int n = 0, rc = 0, in = 0, cut;
	while (rc == 0 && log_line(f, line, LOG_LINE_MAX, &cut) >= 0) {
		if (cut && in) {
			rc = pg_err(err, errlen, "the results file %s in the log is damaged: a line of it is longer than "
				    "%d bytes", b.name, LOG_LINE_MAX);
			break;
		}
		char *text = cut ? NULL : console_text(line);
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
