/*
 * The performance guide as data: one column per board, one row per result
 * key (bench, params, metric), rows grouped into the guide's sections. The
 * writers (md, rst, csv, json, html) only format this.
 */
#ifndef PG_GUIDE_H
#define PG_GUIDE_H

#include <stdio.h>

#include "rundata.h"

struct pg_gcell {
	int present;
	enum pg_status status;
	double median, min, max;	/* merged over the column's runs */
	int have_busy;
	double busy;
	const char *reason;		/* skipped or error */
	const double *samples;		/* one run only: its samples */
	int nsamples;
};

struct pg_grow {
	const char *bench, *params, *metric, *unit, *label;
	int higher;
	int section;
	int order;			/* first appearance */
	struct pg_gcell *cells;		/* one per column */
};

struct pg_gcol {
	const char *board;
	const struct pg_rrun **runs;	/* merged into this column, oldest first */
	int nruns;
};

struct pg_gsection {
	const char *title;
	const char *intro;
	/* The seed guides print CPU load only where it is part of the answer
	 * (network, storage, crypto, messaging): elsewhere it would be the
	 * benchmark's own 100 % of one core, a column of noise. */
	int cpu_load;
};

struct pg_guide {
	struct pg_gcol *cols;
	int ncols;
	struct pg_grow *rows;		/* sorted by section, then first appearance */
	int nrows;
};

/* The guide's sections in order; ids match the first pattern that fits. */
int pg_section_count(void);
const struct pg_gsection *pg_section(int i);
int pg_section_of(const char *bench);

/* Runs of one board go into one column, in the order given. */
int pg_guide_build(struct pg_guide *g, const struct pg_rrun *const *runs, int nruns);
void pg_guide_free(struct pg_guide *g);

/* "9024.86 (min 4779.41, max 13270.31)", the bracket dropped when min and
 * max print as the median. */
void pg_cell_text(const struct pg_gcell *c, char *buf, size_t len);
void pg_row_name(const struct pg_grow *r, char *buf, size_t len);
int pg_section_has_cpu(const struct pg_guide *g, int section);

/* Machine table: field names and one value per column. */
#define PG_MACHINE_FIELDS 9
const char *pg_machine_field_name(int f);
void pg_machine_value(const struct pg_gcol *c, int f, char *buf, size_t len);

enum pg_format { PG_FMT_MD, PG_FMT_RST, PG_FMT_CSV, PG_FMT_JSON, PG_FMT_HTML };
int pg_format_parse(const char *s, enum pg_format *f);
int pg_guide_write(const struct pg_guide *g, enum pg_format f, FILE *out);
int pg_guide_write_html(const struct pg_guide *g, FILE *out);

#endif
