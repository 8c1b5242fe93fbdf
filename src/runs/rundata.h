/* SPDX-License-Identifier: MIT */
/* The runs part (src/runs/): runs read back from results files and from
 * published tables, checked on the way in. Uses core only; the store, the
 * gate and the guide are built on it (docs/architecture.md, "Layers"). */
/*
 * A run as the report and compare see it: the run record, its machine and
 * every result, whether read from a results file or from the store. The key
 * of a result is (bench, params, metric); params is canonical JSON (compact,
 * keys sorted) so that equal parameter sets compare equal as strings.
 */
#ifndef PG_RUNDATA_H
#define PG_RUNDATA_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/record.h"

/*
 * What a results file may hold (docs/security.md): anything beyond is
 * refused with one line, whichever store it is going to. A run id and a
 * board name are printable text (no control characters) of at most these
 * many bytes; a line is at most PG_LINE_MAX bytes; a file at most
 * PG_RECORDS_MAX records. perfguide itself writes ids of about 40 bytes,
 * lines of a few kB and a few thousand records per run.
 */
#define PG_RUN_ID_MAX 159
#define PG_BOARD_MAX 127
#define PG_LINE_MAX (1024 * 1024)
#define PG_RECORDS_MAX 100000

struct pg_rrun {
	char *id, *board, *started;
	char *finished;		/* NULL: the run has no end record (crash) */
	char *end_status;	/* complete | interrupted */
	char *version;		/* perfguide version that wrote it */
	char *machine, *build, *config;	/* JSON objects as text */
	char *sections;		/* JSON array of the sections of what ran; NULL: not listed */
	char *labels;		/* JSON object of run --label KEY=VALUE ({"release":"09.02"}); NULL: none */
	char *source;		/* where it was read from */
	struct pg_record *res;
	int nres;
	int res_cap;		/* allocated in res (the reader grows it by doubling) */
};

void pg_rrun_free(struct pg_rrun *r);

/* -1 with err set when a run's id or board is empty, too long or holds a
 * control character: the check every run passes before it reaches a store. */
int pg_rrun_check_names(const char *id, const char *board, char *err, size_t errlen);

/* One line of at most max bytes (the newline included) into *buf; its
 * length, 0 at the end of the file, or -1 when it is longer than max (a line
 * without an end at the end of the file is returned as it is). */
ssize_t pg_read_line(FILE *f, char **buf, size_t *cap, size_t max);

/* Reads every run of a results file (one, or several when a file was
 * written again with the same --out); on a corrupt or truncated file
 * returns -1 with err naming the line and what is wrong, and nothing read. */
int pg_rrun_read_all(const char *path, struct pg_rrun **runs, int *n, char *err, size_t errlen);
/* The same from an open stream; name is what err and each run's source say. */
int pg_rrun_read_stream(FILE *f, const char *name, struct pg_rrun **runs, int *n, char *err, size_t errlen);
/* The same for a file that must hold exactly one run. */
int pg_rrun_read_file(const char *path, struct pg_rrun *r, char *err, size_t errlen);

/* Parses one line of a results file. *r must be zeroed before the first
 * line. Returns 0; 1 when the line is a run record and r already has one
 * (a new run starts; nothing was added); -1 with err set. Records after
 * "end" are refused. */
int pg_rrun_add_line(struct pg_rrun *r, const char *line, char *err, size_t errlen);

/* Whether two runs' labels (JSON object text; NULL or "" for none) are
 * the same set of keys and values. */
int pg_labels_equal(const char *a, const char *b);
/* The value of key in labels into buf; 0: none. */
int pg_labels_get(const char *labels, const char *key, char *buf, size_t len);
/* Whether labels has key with value. */
int pg_labels_have(const char *labels, const char *key, const char *value);
/* Whether r can be the run held (the same id) in another copy: the same
 * board and start, and every result of the shorter one alike (key, status,
 * median, min, max) to the first results of the other; two complete copies
 * have as many. 1 the same run; 0 another one, with what says how it
 * differs. */
int pg_rrun_same(const struct pg_rrun *held, const struct pg_rrun *r, char *what, size_t len);

/* Canonical parameters text -> "size=8m threads=1" (sizes by the registry's
 * parameter type where the benchmark is known). */
void pg_params_display(const char *bench, const char *params, char *buf, size_t len);

#endif
