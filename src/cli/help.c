/* SPDX-License-Identifier: MIT */
/*
 * A command's option table made into what getopt_long takes, its --help
 * page and its man page (help.h). The two pages say the same things from
 * the same fields: the --help page filled to the terminal's usual width,
 * the man page as roff for man(1) to fill.
 */
#include "help.h"

#include <string.h>

#include "pg_build.h"

#define WIDTH 78
#define OPT_COLUMN 32	/* where an option's text starts in --help */

static const struct pg_opt help_opt = { "help", 'h', 'h', NULL, "this page" };

void pg_getopt_tables(const struct pg_cmd_doc *d, struct pg_getopt *g)
{
	int nl = 0;
	size_t ns = 0;
	memset(g, 0, sizeof(*g));
	for (const struct pg_opt *o = d->opts;; o++) {
		if (!o->name && !o->short_name)
			o = &help_opt;
		if (o->name && nl < PG_MAX_OPTS + 1)
			g->longs[nl++] = (struct option){ o->name, o->arg ? required_argument : no_argument, NULL, o->key };
		if (o->short_name && ns + 3 < sizeof(g->shorts)) {
			g->shorts[ns++] = o->short_name;
			if (o->arg)
				g->shorts[ns++] = ':';
		}
		if (o == &help_opt)
			break;
	}
}

/* --- the --help page --- */

/* "  --suite quick|standard|full" or "  -v, --verbose" */
static int opt_label(const struct pg_opt *o, char *buf, size_t len)
{
	int n = 0;
	if (o->short_name)
		n += snprintf(buf + n, len - (size_t)n, "-%c%s", o->short_name, o->name ? ", " : "");
	if (o->name)
		n += snprintf(buf + n, len - (size_t)n, "--%s", o->name);
	if (o->arg)
		n += snprintf(buf + n, len - (size_t)n, " %s", o->arg);
	return n;
}

/* One paragraph, filled from column indent to WIDTH; the first line starts
 * at column at (text already printed on it). */
static void fill(FILE *f, const char *p, size_t plen, int indent, int at)
{
	const char *end = p + plen;
	int col = at, first = 1;
	while (p < end) {
		while (p < end && (*p == ' ' || *p == '\n'))
			p++;
		const char *w = p;
		while (p < end && *p != ' ' && *p != '\n')
			p++;
		int wl = (int)(p - w);
		if (!wl)
			break;
		if (!first && col + 1 + wl > WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		fwrite(w, 1, (size_t)wl, f);
		col += wl;
		first = 0;
	}
	fputc('\n', f);
}

static int preformatted(const char *p)
{
	return p[0] == ' ' && p[1] == ' ';
}

/* Each paragraph of text, filled at indent (or as it is), a blank line between. */
static void paragraphs(FILE *f, const char *text, int indent)
{
	for (const char *p = text; p && *p;) {
		const char *e = strstr(p, "\n\n");
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (preformatted(p)) {
			fwrite(p, 1, len, f);
			fputc('\n', f);
		} else {
			fprintf(f, "%*s", indent, "");
			fill(f, p, len, indent, indent);
		}
		if (!e)
			break;
		fputc('\n', f);
		p = e + 2;
	}
}

static void usage_lines(FILE *f, const struct pg_cmd_doc *d)
{
	const char *u = d->usage ? d->usage : "";
	for (int first = 1; first || *u; first = 0) {
		size_t n = strcspn(u, "\n");
		fprintf(f, "%s perfguide %s %.*s\n", first ? "usage:" : "      ", d->name, (int)n, u);
		u += n + (u[n] == '\n');
	}
}

void pg_help_print(FILE *f, const struct pg_cmd_doc *d)
{
	usage_lines(f, d);
	if (d->intro) {
		fputc('\n', f);
		paragraphs(f, d->intro, 0);
	}
	fputc('\n', f);
	for (const struct pg_opt *o = d->opts;; o++) {
		if (!o->name && !o->short_name)
			o = &help_opt;
		char label[128];
		int n = 2 + opt_label(o, label, sizeof(label));	/* the column after it */
		fprintf(f, "  %s", label);
		if (n + 2 > OPT_COLUMN)
			fprintf(f, "\n%*s", OPT_COLUMN, "");
		else
			fprintf(f, "%*s", OPT_COLUMN - n, "");
		fill(f, o->help, strlen(o->help), OPT_COLUMN, OPT_COLUMN);
		if (o == &help_opt)
			break;
	}
	if (d->after) {
		fputc('\n', f);
		paragraphs(f, d->after, 0);
	}
	if (d->exit_status) {
		fputs("\nExit status: ", f);
		fill(f, d->exit_status, strlen(d->exit_status), 0, 13);
	}
	if (d->examples)
		fprintf(f, "\nexamples:\n%s\n", d->examples);
}

/* --- the man page --- */

/* Text for roff: a backslash is \e, a dash that starts an option \-, and a
 * line may not start with a control character (. or '). join: newlines
 * are spaces (a paragraph man fills). */
static void roff_text(FILE *f, const char *s, size_t len, int join)
{
	int bol = 1;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (join && c == '\n')
			c = ' ';
		if (bol && (c == '.' || c == '\''))
			fputs("\\&", f);
		bol = c == '\n';
		if (c == '\\')
			fputs("\\e", f);
		else if (c == '-' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '-' || s[i - 1] == '(' ||
				      s[i - 1] == '\'' || s[i - 1] == '`' || s[i - 1] == '\n' || s[i - 1] == '['))
			fputs("\\-", f);
		else
			fputc(c, f);
	}
}

static void roff(FILE *f, const char *s, size_t len)
{
	roff_text(f, s, len, 0);
}

static void roffs(FILE *f, const char *s)
{
	roff(f, s, strlen(s));
}

/* Paragraphs filled by man, or .nf blocks (as they are). In an option's
 * .TP the first one follows the tag and the others are indented (.IP). */
static void man_paragraphs(FILE *f, const char *text, int in_tp)
{
	const char *macro = in_tp ? "" : ".PP\n";
	for (const char *p = text; p && *p;) {
		const char *e = strstr(p, "\n\n");
		size_t len = e ? (size_t)(e - p) : strlen(p);
		fputs(macro, f);
		macro = in_tp ? ".IP\n" : ".PP\n";
		if (preformatted(p)) {
			fputs(".nf\n", f);
			roff(f, p, len);
			fputs("\n.fi\n", f);
		} else {
			roff_text(f, p, len, 1);
			fputc('\n', f);
		}
		if (!e)
			break;
		p = e + 2;
	}
}

/* An option's name, every dash a minus sign (man shows it as typed). */
static void roff_opt(FILE *f, const char *s)
{
	for (; *s; s++)
		if (*s == '-')
			fputs("\\-", f);
		else
			roff(f, s, 1);
}

static void man_option(FILE *f, const struct pg_opt *o)
{
	fputs(".TP\n", f);
	if (o->short_name)
		fprintf(f, "\\fB\\-%c\\fR%s", o->short_name, o->name ? ", " : "");
	if (o->name) {
		fputs("\\fB", f);
		roff_opt(f, "--");
		roff_opt(f, o->name);
		fputs("\\fR", f);
	}
	if (o->arg) {
		fputs(" \\fI", f);
		roffs(f, o->arg);
		fputs("\\fR", f);
	}
	fputc('\n', f);
	man_paragraphs(f, o->help, 1);
}

static void man_head(FILE *f, const char *page, const char *summary)
{
	char up[64];
	size_t i = 0;
	for (; page[i] && i < sizeof(up) - 1; i++)
		up[i] = (char)(page[i] >= 'a' && page[i] <= 'z' ? page[i] - 32 : page[i]);
	up[i] = '\0';
	fputs(".TH ", f);
	roffs(f, up);
	/* no hyphenation, ragged right: option names and page names stay whole */
	fprintf(f, " 1 \"\" \"perfguide %s\" \"perfguide manual\"\n.nh\n.ad l\n.SH NAME\n", PG_VERSION);
	roffs(f, page);
	fputs(" \\- ", f);
	roffs(f, summary);
	fputc('\n', f);
}

static void man_command(FILE *f, const struct pg_cmd_doc *d)
{
	char page[64];
	snprintf(page, sizeof(page), "perfguide-%s", d->name);
	man_head(f, page, d->summary);
	fputs(".SH SYNOPSIS\n", f);
	const char *u = d->usage ? d->usage : "";
	for (int first = 1; first || *u; first = 0) {
		size_t n = strcspn(u, "\n");
		fprintf(f, "%s.B perfguide %s\n", first ? "" : ".br\n", d->name);
		roff(f, u, n);
		fputc('\n', f);
		u += n + (u[n] == '\n');
	}
	fputs(".SH DESCRIPTION\n", f);
	man_paragraphs(f, d->intro, 0);
	man_paragraphs(f, d->after, 0);
	fputs(".SH OPTIONS\n", f);
	for (const struct pg_opt *o = d->opts; o->name || o->short_name; o++)
		man_option(f, o);
	man_option(f, &help_opt);
	if (d->exit_status) {
		fputs(".SH \"EXIT STATUS\"\n", f);
		man_paragraphs(f, d->exit_status, 0);
	}
	if (d->examples) {
		fputs(".SH EXAMPLES\n.nf\n", f);
		roffs(f, d->examples);
		fputs("\n.fi\n", f);
	}
	fputs(".SH \"SEE ALSO\"\n.BR perfguide (1)\n", f);
}

/* perfguide(1): the commands, each with its own page. */
static void man_top(FILE *f)
{
	man_head(f, "perfguide", "measure a Linux machine, above all an embedded board, the way board "
		 "vendors' performance guides do, and write the guide");
	fputs(".SH SYNOPSIS\n.B perfguide\n.I COMMAND\n[options]\n.SH DESCRIPTION\n", f);
	man_paragraphs(f, "perfguide runs the benchmarks of board vendors' performance guides (LMBench, STREAM, "
		       "Dhrystone, Whetstone, Linpack, BYTEmark, netperf-style network tests, fio-style storage "
		       "tests, openssl speed, RPMsg, CAN, ALSA) from one binary, records every sample with the "
		       "machine it came from, keeps the results in a store, and writes the guide: one column per "
		       "board, one table per subject, median (min, max).\n\n"
		       "Each command has its own page, perfguide-COMMAND(1), which 'perfguide help COMMAND' and "
		       "'perfguide COMMAND --help' also print.", 0);
	fputs(".SH COMMANDS\n", f);
	for (const struct pg_command *c = pg_commands; c->name; c++) {
		fputs(".TP\n.B ", f);
		roffs(f, c->name);
		fputc('\n', f);
		roffs(f, c->doc->summary);
		fputs(": \\fBperfguide\\-", f);
		roffs(f, c->name);
		fputs("\\fR(1)\n", f);
	}
	fputs(".SH ENVIRONMENT\n.TP\n.B PERFGUIDE_DB\nthe results store when no \\fB\\-\\-db\\fR is given: "
	      "a FILE (SQLite) or a postgresql:// URL\n.TP\n.B XDG_DATA_HOME\nthe default store is "
	      "$XDG_DATA_HOME/perfguide/results.db (~/.local/share when unset)\n", f);
	fputs(".SH \"SEE ALSO\"\n", f);
	for (const struct pg_command *c = pg_commands; c->name; c++) {
		fputs(c == pg_commands ? ".BR " : ",\n.BR ", f);
		fputs("perfguide\\-", f);
		roffs(f, c->name);
		fputs(" (1)", f);
	}
	fputc('\n', f);
}

void pg_help_man(FILE *f, const struct pg_cmd_doc *d)
{
	if (d)
		man_command(f, d);
	else
		man_top(f);
}
