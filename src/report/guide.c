/*
 * Building the guide from runs, and the text writers: md, rst (the
 * csv-table form the seed guide is written in), csv and json.
 */
#include "guide.h"

#include <fnmatch.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * The guide's sections, in the seed guide's order. A benchmark id goes to
 * the first pattern it matches; a new group adds a line here. Ids no line
 * matches still appear, in a last section, so nothing measured is lost.
 */
static const struct {
	const char *pattern;
	int section;
} section_map[] = {
	{ "os.boot.*", 8 },
	{ "mem.bw.*", 0 }, { "mem.lat.*", 0 }, { "os.*", 0 }, { "cpu.ops.*", 0 }, { "cpu.proccall", 0 },
	{ "cpu.dhrystone*", 1 }, { "cpu.whetstone*", 2 }, { "cpu.linpack*", 3 },
	{ "cpu.nbench*", 4 }, { "mem.stream.*", 5 }, { "cpu.coremark*", 6 },
	{ "cpu.*", 7 }, { "mem.*", 0 }, { "boot.*", 8 }, { "net.*", 9 },
	{ "storage.*", 10 }, { "fs.*", 10 }, { "crypto.*", 11 }, { "msg.*", 12 },
};

static const struct pg_gsection sections[] = {
	{ "LMBench", "Memory bandwidth and latency, and operating-system costs, counted as lmbench counts them.", 0 },
	{ "Dhrystone", "Integer performance.", 0 },
	{ "Whetstone", "Floating-point performance.", 0 },
	{ "Linpack", "Dense linear algebra.", 0 },
	{ "NBench", "BYTE's native mode benchmarks.", 0 },
	{ "Stream", "Sustained memory bandwidth; a byte read and a byte written each count.", 0 },
	{ "CoreMarkPro", "Processor workloads.", 0 },
	{ "CPU benchmarks", NULL, 0 },
	{ "Boot time", NULL, 0 },
	{ "Ethernet", "Network throughput, with the CPU load it costs.", 1 },
	{ "Storage", "Block device and file-system throughput.", 1 },
	{ "Crypto", "Cipher and digest throughput (openssl speed counts input bytes).", 1 },
	{ "Messaging", "Inter-processor messaging (RPMsg).", 1 },
	{ "Other benchmarks", NULL, 0 },
};
#define NSECTIONS ((int)(sizeof(sections) / sizeof(sections[0])))

int pg_section_count(void)
{
	return NSECTIONS;
}

const struct pg_gsection *pg_section(int i)
{
	return &sections[i];
}

int pg_section_of(const char *bench)
{
	for (size_t i = 0; i < sizeof(section_map) / sizeof(section_map[0]); i++)
		if (fnmatch(section_map[i].pattern, bench, 0) == 0)
			return section_map[i].section;
	return NSECTIONS - 1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int find_row(struct pg_guide *g, const struct pg_record *x)
{
	for (int i = 0; i < g->nrows; i++) {
		const struct pg_grow *r = &g->rows[i];
		if (strcmp(r->bench, x->bench) == 0 && strcmp(r->metric, x->metric) == 0 &&
		    strcmp(r->params, x->params) == 0)
			return i;
	}
	return -1;
}

static int cmp_row(const void *a, const void *b)
{
	const struct pg_grow *x = a, *y = b;
	if (x->section != y->section)
		return x->section - y->section;
	return x->order - y->order;
}

/* Merges the column's results for one row: median of the medians, min of
 * the mins, max of the maxes, as the guide's repeated-run columns do. */
static void merge_cell(struct pg_gcell *c, const struct pg_record *x, double *medians, int *nmed,
		       double *busy_sum, int *nbusy)
{
	if (x->status != PG_OK) {
		if (!c->present) {
			c->present = 1;
			c->status = x->status;
			c->reason = x->reason;
		}
		return;
	}
	if (!c->present || c->status != PG_OK) {
		c->present = 1;
		c->status = PG_OK;
		c->min = x->min;
		c->max = x->max;
		c->reason = NULL;
		c->samples = x->samples;
		c->nsamples = x->nsamples;
	} else {
		c->min = fmin(c->min, x->min);
		c->max = fmax(c->max, x->max);
		c->samples = NULL;
		c->nsamples = 0;
	}
	medians[(*nmed)++] = x->median;
	if (x->have_busy) {
		*busy_sum += x->busy_pct;
		(*nbusy)++;
	}
}

int pg_guide_build(struct pg_guide *g, const struct pg_rrun *const *runs, int nruns)
{
	memset(g, 0, sizeof(*g));
	g->cols = calloc((size_t)nruns + 1, sizeof(*g->cols));
	if (!g->cols)
		return -1;
	for (int i = 0; i < nruns; i++) {
		int c = 0;
		while (c < g->ncols && strcmp(g->cols[c].board, runs[i]->board) != 0)
			c++;
		if (c == g->ncols) {
			g->cols[c].board = runs[i]->board;
			g->cols[c].runs = calloc((size_t)nruns, sizeof(*g->cols[c].runs));
			if (!g->cols[c].runs)
				return -1;
			g->ncols++;
		}
		g->cols[c].runs[g->cols[c].nruns++] = runs[i];
	}
	/* The rows: every key any run has, in order of first appearance. */
	int cap = 0, order = 0;
	for (int i = 0; i < nruns; i++) {
		for (int k = 0; k < runs[i]->nres; k++) {
			const struct pg_record *x = &runs[i]->res[k];
			int r = find_row(g, x);
			if (r >= 0) {
				if (!g->rows[r].label && x->label)
					g->rows[r].label = x->label;
				continue;
			}
			if (g->nrows == cap) {
				cap = cap ? cap * 2 : 64;
				struct pg_grow *n = realloc(g->rows, sizeof(*n) * (size_t)cap);
				if (!n)
					return -1;
				g->rows = n;
			}
			struct pg_grow *row = &g->rows[g->nrows++];
			memset(row, 0, sizeof(*row));
			row->bench = x->bench;
			row->params = x->params;
			row->metric = x->metric;
			row->unit = x->unit;
			row->label = x->label && x->label[0] ? x->label : NULL;
			row->higher = x->higher;
			row->section = pg_section_of(x->bench);
			row->order = order++;
		}
	}
	if (g->nrows)
		qsort(g->rows, (size_t)g->nrows, sizeof(*g->rows), cmp_row);
	double *medians = malloc(sizeof(double) * ((size_t)nruns + 1));
	if (!medians)
		return -1;
	for (int r = 0; r < g->nrows; r++) {
		struct pg_grow *row = &g->rows[r];
		row->cells = calloc((size_t)g->ncols, sizeof(*row->cells));
		if (!row->cells) {
			free(medians);
			return -1;
		}
		for (int c = 0; c < g->ncols; c++) {
			struct pg_gcell *cell = &row->cells[c];
			int nmed = 0, nbusy = 0;
			double busy = 0;
			for (int k = 0; k < g->cols[c].nruns; k++) {
				const struct pg_rrun *run = g->cols[c].runs[k];
				for (int j = 0; j < run->nres; j++) {
					const struct pg_record *x = &run->res[j];
					if (strcmp(x->bench, row->bench) == 0 && strcmp(x->metric, row->metric) == 0 &&
					    strcmp(x->params, row->params) == 0)
						merge_cell(cell, x, medians, &nmed, &busy, &nbusy);
				}
			}
			if (nmed)
				cell->median = median_of(medians, nmed);
			if (nbusy) {
				cell->have_busy = 1;
				cell->busy = busy / nbusy;
			}
		}
	}
	free(medians);
	return 0;
}

void pg_guide_free(struct pg_guide *g)
{
	for (int c = 0; c < g->ncols; c++)
		free(g->cols[c].runs);
	for (int r = 0; r < g->nrows; r++)
		free(g->rows[r].cells);
	free(g->cols);
	free(g->rows);
	memset(g, 0, sizeof(*g));
}

void pg_cell_text(const struct pg_gcell *c, char *buf, size_t len)
{
	if (!c->present) {
		buf[0] = '\0';
		return;
	}
	if (c->status != PG_OK) {
		snprintf(buf, len, "%s", pg_status_name(c->status));
		return;
	}
	char med[48], mn[48], mx[48];
	snprintf(med, sizeof(med), "%.2f", c->median);
	snprintf(mn, sizeof(mn), "%.2f", c->min);
	snprintf(mx, sizeof(mx), "%.2f", c->max);
	if (strcmp(med, mn) == 0 && strcmp(med, mx) == 0)
		snprintf(buf, len, "%s", med);
	else
		snprintf(buf, len, "%s (min %s, max %s)", med, mn, mx);
}

void pg_row_name(const struct pg_grow *r, char *buf, size_t len)
{
	char base[256];
	if (r->label) {
		snprintf(base, sizeof(base), "%s", r->label);
	} else {
		char p[160];
		pg_params_display(r->bench, r->params, p, sizeof(p));
		snprintf(base, sizeof(base), "%s%s%s %s", r->bench, p[0] ? " " : "", p, r->metric);
	}
	/* Some of the seed's row names carry their unit already:
	 * "dhrystone_per_second (DhrystoneP)". */
	size_t bl = strlen(base);
	int has_unit = r->label && bl > 2 && base[bl - 1] == ')' && strstr(base, " (");
	if (r->unit && r->unit[0] && !has_unit)
		snprintf(buf, len, "%s (%s)", base, r->unit);
	else
		snprintf(buf, len, "%s", base);
}

int pg_section_has_cpu(const struct pg_guide *g, int section)
{
	if (!pg_section(section)->cpu_load)
		return 0;
	for (int r = 0; r < g->nrows; r++)
		if (g->rows[r].section == section)
			for (int c = 0; c < g->ncols; c++)
				if (g->rows[r].cells[c].have_busy)
					return 1;
	return 0;
}

/* --- the machine table --- */

static const char *const machine_fields[PG_MACHINE_FIELDS] = {
	"Board", "CPU", "Cores", "Frequency", "Memory", "Kernel", "Compiler", "perfguide", "Runs",
};

const char *pg_machine_field_name(int f)
{
	return machine_fields[f];
}

static void cpu_models(json_t *m, char *buf, size_t len)
{
	json_t *cpus = json_object_get(m, "cpus"), *c;
	size_t i, at = 0;
	buf[0] = '\0';
	/* big.LITTLE: each distinct model once, with how many cores have it. */
	const char *seen[16];
	int count[16], nseen = 0;
	json_array_foreach(cpus, i, c) {
		const char *model = json_string_value(json_object_get(c, "model"));
		if (!model)
			continue;
		int k = 0;
		while (k < nseen && strcmp(seen[k], model) != 0)
			k++;
		if (k == nseen && nseen < 16) {
			seen[nseen] = model;
			count[nseen++] = 0;
		}
		if (k < nseen)
			count[k]++;
	}
	for (int k = 0; k < nseen && at < len; k++) {
		int w = nseen > 1 ? snprintf(buf + at, len - at, "%s%d x %s", k ? " + " : "", count[k], seen[k])
				  : snprintf(buf + at, len - at, "%s", seen[k]);
		if (w < 0)
			break;
		at += (size_t)w;
	}
	if (!buf[0]) {
		const char *arch = json_string_value(json_object_get(m, "arch"));
		snprintf(buf, len, "%s", arch ? arch : "");
	}
}

void pg_machine_value(const struct pg_gcol *c, int f, char *buf, size_t len)
{
	const struct pg_rrun *run = c->runs[c->nruns - 1];
	json_t *m = json_loads(run->machine ? run->machine : "{}", 0, NULL);
	json_t *b = json_loads(run->build ? run->build : "{}", 0, NULL);
	buf[0] = '\0';
	switch (f) {
	case 0: {
		const char *model = json_string_value(json_object_get(m, "dt_model"));
		if (!model)
			model = json_string_value(json_object_get(m, "dmi_product"));
		if (model && strcmp(model, c->board) != 0)
			snprintf(buf, len, "%s (%s)", c->board, model);
		else
			snprintf(buf, len, "%s", c->board);
		break;
	}
	case 1: cpu_models(m, buf, len); break;
	case 2: {
		json_int_t n = json_integer_value(json_object_get(m, "cpus_online"));
		if (n)
			snprintf(buf, len, "%lld", (long long)n);
		break;
	}
	case 3: {
		json_t *pol = json_object_get(m, "cpufreq"), *p;
		size_t i;
		json_int_t lo = 0, hi = 0;
		json_array_foreach(pol, i, p) {
			json_int_t k = json_integer_value(json_object_get(p, "max_khz"));
			if (k && (!lo || k < lo))
				lo = k;
			if (k > hi)
				hi = k;
		}
		if (hi && lo != hi)
			snprintf(buf, len, "%lld-%lld MHz", (long long)lo / 1000, (long long)hi / 1000);
		else if (hi)
			snprintf(buf, len, "%lld MHz", (long long)hi / 1000);
		break;
	}
	case 4: {
		json_int_t mem = json_integer_value(json_object_get(m, "mem_total"));
		if (mem)
			snprintf(buf, len, "%.0f MiB", (double)mem / 1048576.0);
		break;
	}
	case 5: {
		const char *k = json_string_value(json_object_get(m, "kernel_release"));
		snprintf(buf, len, "%s", k ? k : "");
		break;
	}
	case 6: {
		const char *k = json_string_value(json_object_get(b, "compiler"));
		snprintf(buf, len, "%s", k ? k : "");
		break;
	}
	case 7: snprintf(buf, len, "%s", run->version ? run->version : ""); break;
	case 8:
		if (c->nruns > 1)
			snprintf(buf, len, "%d runs merged, latest %s", c->nruns, run->id);
		else
			snprintf(buf, len, "%s", run->id);
		break;
	}
	json_decref(m);
	json_decref(b);
}

/* --- writers --- */

int pg_format_parse(const char *s, enum pg_format *f)
{
	static const char *const names[] = { "md", "rst", "csv", "json", "html" };
	for (int i = 0; i < 5; i++)
		if (strcmp(s, names[i]) == 0) {
			*f = (enum pg_format)i;
			return 0;
		}
	return -1;
}

/* Footnotes of skipped and failed results in one section. */
struct notes {
	char text[64][320];
	int n;
};

static int note_add(struct notes *nb, const char *board, const struct pg_grow *r, const char *reason)
{
	char name[300], t[320];
	pg_row_name(r, name, sizeof(name));
	snprintf(t, sizeof(t), "%s, %s: %s", board, name, reason ? reason : "no reason given");
	for (int i = 0; i < nb->n; i++)
		if (strcmp(nb->text[i], t) == 0)
			return i + 1;
	if (nb->n == 64)
		return 64;
	snprintf(nb->text[nb->n++], sizeof(nb->text[0]), "%s", t);
	return nb->n;
}

/* Text of a cell with its footnote mark; the CPU-load text separately. */
static void cell_texts(const struct pg_grow *r, int c, const char *board, struct notes *nb,
		       char *val, size_t vlen, char *cpu, size_t clen)
{
	const struct pg_gcell *cell = &r->cells[c];
	pg_cell_text(cell, val, vlen);
	if (cell->present && cell->status != PG_OK) {
		size_t l = strlen(val);
		snprintf(val + l, vlen - l, " [%d]", note_add(nb, board, r, cell->reason));
	}
	if (cell->have_busy)
		snprintf(cpu, clen, "%.1f", cell->busy);
	else
		cpu[0] = '\0';
}

static void csv_quote(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* md cells cannot hold a bare |. */
static void md_cell(FILE *out, const char *s)
{
	fputc(' ', out);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputs(" |", out);
}

/* A field no board recorded (a container has no cpufreq) is left out. */
static int machine_row_empty(const struct pg_guide *g, int i)
{
	char v[512];
	for (int c = 0; c < g->ncols; c++) {
		pg_machine_value(&g->cols[c], i, v, sizeof(v));
		if (v[0])
			return 0;
	}
	return 1;
}

static void write_machines(const struct pg_guide *g, enum pg_format f, FILE *out)
{
	char v[512];
	if (f == PG_FMT_MD) {
		fputs("## Machines\n\n|", out);
		md_cell(out, "");
		for (int c = 0; c < g->ncols; c++)
			md_cell(out, g->cols[c].board);
		fputs("\n|---|", out);
		for (int c = 0; c < g->ncols; c++)
			fputs("---|", out);
		fputc('\n', out);
		for (int i = 0; i < PG_MACHINE_FIELDS; i++) {
			if (machine_row_empty(g, i))
				continue;
			fputc('|', out);
			md_cell(out, pg_machine_field_name(i));
			for (int c = 0; c < g->ncols; c++) {
				pg_machine_value(&g->cols[c], i, v, sizeof(v));
				md_cell(out, v);
			}
			fputc('\n', out);
		}
		fputc('\n', out);
	} else if (f == PG_FMT_RST) {
		fputs("Machines\n========\n\n.. csv-table:: Machines\n    :header: \"\"", out);
		for (int c = 0; c < g->ncols; c++) {
			fputc(',', out);
			csv_quote(out, g->cols[c].board);
		}
		fputs("\n\n", out);
		for (int i = 0; i < PG_MACHINE_FIELDS; i++) {
			if (machine_row_empty(g, i))
				continue;
			fputs("    ", out);
			csv_quote(out, pg_machine_field_name(i));
			for (int c = 0; c < g->ncols; c++) {
				pg_machine_value(&g->cols[c], i, v, sizeof(v));
				fputc(',', out);
				csv_quote(out, v);
			}
			fputc('\n', out);
		}
		fputc('\n', out);
	}
}

static void rst_title(FILE *out, const char *t, char ch)
{
	fprintf(out, "%s\n", t);
	for (size_t i = strlen(t); i > 0; i--)
		fputc(ch, out);
	fputs("\n\n", out);
}

static int write_text(const struct pg_guide *g, enum pg_format f, FILE *out)
{
	char name[320], val[160], cpu[32];
	if (f == PG_FMT_MD)
		fputs("# Performance guide\n\n", out);
	else if (f == PG_FMT_RST)
		rst_title(out, "Performance guide", '#');
	if (f != PG_FMT_CSV)
		write_machines(g, f, out);
	if (f == PG_FMT_CSV) {
		fputs("section,benchmark", out);
		for (int c = 0; c < g->ncols; c++) {
			fputc(',', out);
			csv_quote(out, g->cols[c].board);
			fputc(',', out);
			snprintf(name, sizeof(name), "%s CPU %%", g->cols[c].board);
			csv_quote(out, name);
		}
		fputc('\n', out);
	}
	for (int s = 0; s < pg_section_count(); s++) {
		int first = -1, last = -1;
		for (int r = 0; r < g->nrows; r++)
			if (g->rows[r].section == s) {
				if (first < 0)
					first = r;
				last = r;
			}
		if (first < 0)
			continue;
		int has_cpu = pg_section_has_cpu(g, s);
		struct notes *nb = calloc(1, sizeof(*nb));
		if (!nb)
			return -1;
		const struct pg_gsection *sec = pg_section(s);
		if (f == PG_FMT_MD) {
			fprintf(out, "## %s\n\n", sec->title);
			if (sec->intro)
				fprintf(out, "%s\n\n", sec->intro);
			fputc('|', out);
			md_cell(out, "Benchmarks");
			for (int c = 0; c < g->ncols; c++) {
				md_cell(out, g->cols[c].board);
				if (has_cpu) {
					snprintf(name, sizeof(name), "%s CPU Load %%", g->cols[c].board);
					md_cell(out, name);
				}
			}
			fputs("\n|---|", out);
			for (int c = 0; c < g->ncols * (has_cpu ? 2 : 1); c++)
				fputs("---|", out);
			fputc('\n', out);
		} else if (f == PG_FMT_RST) {
			rst_title(out, sec->title, '=');
			if (sec->intro)
				fprintf(out, "%s\n\n", sec->intro);
			fprintf(out, ".. csv-table:: %s Benchmarks\n    :header: \"Benchmarks\"", sec->title);
			for (int c = 0; c < g->ncols; c++) {
				fputc(',', out);
				csv_quote(out, g->cols[c].board);
				if (has_cpu) {
					snprintf(name, sizeof(name), "%s CPU Load %%", g->cols[c].board);
					fputc(',', out);
					csv_quote(out, name);
				}
			}
			fputs("\n\n", out);
		}
		for (int r = first; r <= last; r++) {
			const struct pg_grow *row = &g->rows[r];
			pg_row_name(row, name, sizeof(name));
			if (f == PG_FMT_MD) {
				fputc('|', out);
				md_cell(out, name);
			} else if (f == PG_FMT_RST) {
				fputs("    ", out);
				csv_quote(out, name);
			} else {
				csv_quote(out, sec->title);
				fputc(',', out);
				csv_quote(out, name);
			}
			for (int c = 0; c < g->ncols; c++) {
				cell_texts(row, c, g->cols[c].board, nb, val, sizeof(val), cpu, sizeof(cpu));
				if (f == PG_FMT_MD) {
					md_cell(out, val);
					if (has_cpu)
						md_cell(out, cpu);
				} else {
					fputc(',', out);
					csv_quote(out, val);
					if (has_cpu || f == PG_FMT_CSV) {
						fputc(',', out);
						csv_quote(out, cpu);
					}
				}
			}
			fputc('\n', out);
		}
		if (f != PG_FMT_CSV) {
			fputc('\n', out);
			for (int i = 0; i < nb->n; i++)
				fprintf(out, "- [%d] %s\n", i + 1, nb->text[i]);
			if (nb->n)
				fputc('\n', out);
		}
		free(nb);
	}
	return 0;
}

static json_t *json_num_or_null(int ok, double v)
{
	return ok ? json_real(v) : json_null();
}

static int write_json(const struct pg_guide *g, FILE *out)
{
	char v[512];
	json_t *root = json_object(), *machines = json_array(), *secs = json_array();
	for (int c = 0; c < g->ncols; c++) {
		json_t *m = json_object();
		for (int i = 0; i < PG_MACHINE_FIELDS; i++) {
			pg_machine_value(&g->cols[c], i, v, sizeof(v));
			json_object_set_new(m, pg_machine_field_name(i), json_string(v));
		}
		json_object_set_new(m, "board", json_string(g->cols[c].board));
		json_array_append_new(machines, m);
	}
	for (int s = 0; s < pg_section_count(); s++) {
		json_t *rows = json_array();
		for (int r = 0; r < g->nrows; r++) {
			const struct pg_grow *row = &g->rows[r];
			if (row->section != s)
				continue;
			json_t *o = json_object(), *cells = json_array();
			pg_row_name(row, v, sizeof(v));
			json_object_set_new(o, "name", json_string(v));
			json_object_set_new(o, "bench", json_string(row->bench));
			json_object_set_new(o, "params", json_loads(row->params, 0, NULL));
			json_object_set_new(o, "metric", json_string(row->metric));
			json_object_set_new(o, "unit", json_string(row->unit ? row->unit : ""));
			json_object_set_new(o, "better", json_string(pg_better_name(row->higher)));
			for (int c = 0; c < g->ncols; c++) {
				const struct pg_gcell *cell = &row->cells[c];
				json_t *j = json_object();
				json_object_set_new(j, "board", json_string(g->cols[c].board));
				if (!cell->present) {
					json_object_set_new(j, "status", json_null());
				} else {
					json_object_set_new(j, "status", json_string(pg_status_name(cell->status)));
					int ok = cell->status == PG_OK;
					json_object_set_new(j, "median", json_num_or_null(ok, cell->median));
					json_object_set_new(j, "min", json_num_or_null(ok, cell->min));
					json_object_set_new(j, "max", json_num_or_null(ok, cell->max));
					json_object_set_new(j, "busy_pct", json_num_or_null(cell->have_busy, cell->busy));
					if (cell->reason)
						json_object_set_new(j, "reason", json_string(cell->reason));
					pg_cell_text(cell, v, sizeof(v));
					json_object_set_new(j, "text", json_string(v));
				}
				json_array_append_new(cells, j);
			}
			json_object_set_new(o, "cells", cells);
			json_array_append_new(rows, o);
		}
		if (json_array_size(rows) == 0) {
			json_decref(rows);
			continue;
		}
		json_t *so = json_object();
		json_object_set_new(so, "title", json_string(pg_section(s)->title));
		json_object_set_new(so, "rows", rows);
		json_array_append_new(secs, so);
	}
	json_object_set_new(root, "machines", machines);
	json_object_set_new(root, "sections", secs);
	int rc = json_dumpf(root, out, JSON_INDENT(1) | JSON_REAL_PRECISION(12));
	fputc('\n', out);
	json_decref(root);
	return rc;
}

int pg_guide_write(const struct pg_guide *g, enum pg_format f, FILE *out)
{
	switch (f) {
	case PG_FMT_JSON: return write_json(g, out);
	case PG_FMT_HTML: return pg_guide_write_html(g, out);
	default: return write_text(g, f, out);
	}
}
