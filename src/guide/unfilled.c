/* SPDX-License-Identifier: MIT */
/*
 * "Not measured": every section of the seed guide (TI's Processor SDK Linux
 * 09.02 performance guide, the guide perfguide's output is measured against)
 * and of perfguide's own benchmarks that the guide's runs did not fill, why,
 * and the command that fills it, or that perfguide has no such benchmark. A
 * section whose every result was skipped says its reasons.
 *
 * The commands are between backticks (writer.h: every format prints them as
 * typed); e2e.report_commands runs each through the binary (run --dry-run),
 * so none names an option or a parameter perfguide does not have.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/params.h"
#include "core/registry.h"
#include "core/text.h"
#include "table.h"
#include "writer.h"

struct seed_section {
	const char *title;	/* as the seed guide names it */
	const char *section;	/* perfguide's section that has its rows; NULL: none */
	/* Storage: the row labels' medium that tells its rows from other
	 * media's ("EMMC ": "EMMC EXT4 Write"); "" the section's rows cannot
	 * be told apart; NULL any row of the section fills it. */
	const char *media;
	const char *run;	/* the command that fills it, and what it needs */
};

#define STORAGE_RUN(what) \
	"`perfguide run storage --suite standard -p path=DIR` fills it (DIR: a directory on " what ")"

/* In the seed guide's order, then sections of perfguide's own; a section
 * of the registry not named here is listed after them with a command
 * made of its benchmarks' ids. */
static const struct seed_section seeds[] = {
	{ "LMBench", "LMBench", NULL,
	  "`perfguide run mem.bw mem.lat os cpu.ops cpu.proccall --suite standard` fills it" },
	{ "Dhrystone", "Dhrystone", NULL, "`perfguide run cpu.dhrystone --suite standard` fills it" },
	{ "Whetstone", "Whetstone", NULL, "`perfguide run cpu.whetstone --suite standard` fills it" },
	{ "Linpack", "Linpack", NULL, "`perfguide run cpu.linpack --suite standard` fills it" },
	{ "NBench", "NBench", NULL, "`perfguide run cpu.nbench --suite standard` fills it" },
	{ "Stream", "Stream", NULL, "`perfguide run mem.stream --suite standard` fills it" },
	{ "CoreMark-Pro", "CoreMarkPro", NULL,
	  "`perfguide run ext.coremark-pro ext.coremark-pro.mark -p path=DIR --suite standard` fills it "
	  "(DIR: CoreMark-PRO built from its sources, docs/methodology-ext.md)" },
	{ "MultiBench", "MultiBench", NULL,
	  "`perfguide run ext.multibench -p path=DIR --suite standard` fills it (DIR: MultiBench built "
	  "from its sources, docs/methodology-ext.md)" },
	{ "Boot time", "Boot time", NULL, "`perfguide run os.boot` fills it, on the board after it booted" },
	{ "ALSA SoC audio", "ALSA SoC Audio Driver", NULL,
	  "`perfguide run audio.playback audio.capture -p device=hw:0,0 --suite standard` fills it "
	  "(hw:0,0: the card and device, `aplay -l`)" },
	{ "Graphics (glmark2)", "Graphics", NULL,
	  "`perfguide run ext.glmark2 -p bin=glmark2-es2-wayland` fills it (glmark2 installed on the board)" },
	{ "Ethernet", "Ethernet", NULL,
	  "`perfguide run net --peer HOST --suite standard` fills it (HOST: a PC on the board's network "
	  "running `perfguide serve`)" },
	{ "PCIe-ETH", "Ethernet", "",
	  "`perfguide run net --peer HOST --suite standard --label nic=pcie` fills it (HOST: a peer reached "
	  "through the PCIe network card)" },
	{ "PCIe-NVMe-SSD", "Storage", "NVME ", STORAGE_RUN("the NVMe SSD") },
	{ "OSPI flash (UBIFS)", "Storage", "MTD ", STORAGE_RUN("the UBIFS mount of the OSPI flash") },
	{ "EMMC", "Storage", "EMMC ", STORAGE_RUN("the eMMC") },
	{ "MMC/SD", "Storage", "SD ", STORAGE_RUN("the SD card") },
	{ "U-Boot (QSPI/OSPI, UFS, EMMC, MMC/SD)", NULL, NULL,
	  "perfguide has no such benchmark: it runs under Linux, and U-Boot's drivers are timed in U-Boot "
	  "itself" },
	{ "USB device controller", NULL, NULL,
	  "perfguide has no such benchmark: the seed's figures are the board as a USB gadget that a PC "
	  "writes to; a USB stick the board mounts is measured as storage, `perfguide run storage --suite "
	  "standard -p path=DIR` (DIR: a directory on it)" },
	{ "Crypto (OpenSSL)", "Crypto", NULL, "`perfguide run crypto --suite standard` fills it" },
	{ "DCAN", "DCAN", NULL, "`perfguide run can -p if=can0 --suite standard` fills it (can0 up, a peer on the bus)" },
	{ "RPMsg", "Messaging", NULL,
	  "`perfguide run msg --suite standard` fills it (the remote core's echo firmware loaded)" },
	{ "CPU benchmarks", "CPU benchmarks", NULL, "`perfguide run cpu.work cpu.scaling --suite standard` fills it" },
	{ "ALSA loopback", "ALSA loopback", NULL,
	  "`perfguide run audio.loop -p device=hw:0,0 --suite standard` fills it (a loopback: snd-aloop, "
	  "or a cable from the output to the input)" },
};
#define NSEEDS ((int)(sizeof(seeds) / sizeof(seeds[0])))

#define ITEM_MAX 1500

static int section_of(const struct pg_guide *g, const char *title)
{
	return title ? pg_guide_find_section(g, title) : -1;
}

/* Whether the guide has a figure of section title (of the medium where
 * media names one); -1: the section's rows cannot tell (media ""). */
static int filled(const struct pg_guide *g, const struct seed_section *e)
{
	int s = section_of(g, e->section);
	for (int r = s >= 0 ? pg_section_first(g, s) : 0; s >= 0 && r < pg_section_end(g, s); r++) {
		const struct pg_grow *row = &g->rows[r];
		if (e->media && !e->media[0])
			return -1;
		if (!e->media || (row->label && strncasecmp(row->label, e->media, strlen(e->media)) == 0))
			return 1;
	}
	return 0;
}

/* The benchmarks of the registry's section title. */
struct of_section {
	const char *title;
	const struct pg_bench *b[64];
	int n;
};

static void collect(const struct pg_bench *b, void *arg)
{
	struct of_section *o = arg;
	if (b->section && strcasecmp(b->section->title, o->title) == 0 && o->n < 64)
		o->b[o->n++] = b;
}

/* What the measured runs (not published tables) asked for: whether one
 * selected a benchmark of the section, and the lightest suite one of its
 * benchmarks is in. */
struct asked {
	int runs, said, selected, in_suite;	/* said: runs whose config says what they ran */
	char suite[32], selectors[200];
};

static void ask_run(const struct pg_rrun *run, const struct of_section *o, struct asked *a)
{
	json_t *cfg = run->config ? json_loads(run->config, 0, NULL) : NULL, *v;
	const char *suite = json_string_value(json_object_get(cfg, "suite"));
	json_t *sel = json_object_get(cfg, "selectors");
	size_t i;
	enum pg_suite su = PG_SUITE_NONE;
	a->runs++;
	if (!suite) {		/* not a run of this perfguide's: it does not say */
		json_decref(cfg);
		return;
	}
	a->said++;
	if (suite && pg_suite_parse(suite, &su) == 0 && !a->suite[0] && su != PG_SUITE_NONE)
		pg_text_copy(a->suite, sizeof(a->suite), suite);
	for (int k = 0; k < o->n; k++) {
		int named = json_array_size(sel) == 0;
		json_array_foreach(sel, i, v)
			named |= json_is_string(v) && pg_registry_selects(json_string_value(v), o->b[k]);
		a->selected |= named;
		a->in_suite |= named && (su == PG_SUITE_NONE || (int)su >= o->b[k]->min_suite);
	}
	size_t at = strlen(a->selectors);
	json_array_foreach(sel, i, v)
		if (json_is_string(v) && !strstr(a->selectors, json_string_value(v)) && at + 1 < sizeof(a->selectors))
			at += (size_t)snprintf(a->selectors + at, sizeof(a->selectors) - at, "%s%s", at ? ", " : "",
					       json_string_value(v));
	pg_utf8_trim(a->selectors);
	json_decref(cfg);
}

/* Why the runs have no figure of the registry's section title. */
static void why_unrun(const struct pg_guide *g, const char *title, char *buf, size_t len)
{
	struct of_section o = { .title = title };
	struct asked a = { 0 };
	pg_registry_each(collect, &o);
	for (int c = 0; c < g->ncols; c++)
		for (int k = 0; k < g->cols[c].nruns; k++) {
			const struct pg_rrun *run = g->cols[c].runs[k];
			if (!run->version || strcmp(run->version, "published table") != 0)
				ask_run(run, &o, &a);
		}
	if (!o.n)
		snprintf(buf, len, "no benchmark of this perfguide has it");
	else if (!a.runs)
		snprintf(buf, len, "no run of perfguide's is in this guide, only published tables");
	else if (a.said && !a.selected)
		snprintf(buf, len, "the runs did not select it (they ran %s)", a.selectors);
	else if (a.said && !a.in_suite)
		snprintf(buf, len, "not in the %s suite", a.suite[0] ? a.suite : "runs'");
	else
		snprintf(buf, len, "the runs have no result of it");
	pg_no_code(buf);	/* the selectors are the runs' text */
}

/* "CoreMark-Pro: not in the quick suite; `perfguide run ...` fills it". */
static char *item(const char *title, const char *why, const char *run)
{
	char buf[ITEM_MAX], safe[300];
	pg_text_copy(safe, sizeof(safe), title);
	pg_no_code(safe);
	if ((size_t)snprintf(buf, sizeof(buf), "%s: %s%s%s", safe, why, why[0] && run ? "; " : "", run ? run : "") >=
	    sizeof(buf))
		pg_utf8_trim(buf);
	return strdup(buf);
}

/* "Messaging: no /dev/rpmsg* device: load the remote firmware" for a
 * section whose every result was skipped: its reasons, each once. */
static void why_skipped(const struct pg_guide *g, int s, char *buf, size_t len)
{
	size_t at = 0;
	int n = 0, more = 0;
	buf[0] = '\0';
	for (int r = pg_section_first(g, s); r < pg_section_end(g, s); r++)
		for (int c = 0; c < g->ncols; c++) {
			const char *why = g->rows[r].cells[c].reason;
			if (!why || strstr(buf, why))
				continue;
			if (n == 3) {
				more++;
				continue;
			}
			int k = snprintf(buf + at, len - at, "%s%s", n++ ? "; " : "", why);
			at = k < 0 || (size_t)k >= len - at ? len - 1 : at + (size_t)k;
		}
	if (more && at + 1 < len)
		snprintf(buf + at, len - at, "; and %d more reason%s", more, more > 1 ? "s" : "");
	if (!n)
		snprintf(buf, len, "no result");
	pg_utf8_trim(buf);
	pg_no_code(buf);	/* the reasons are the results' text, never a command */
}

static const struct seed_section *seed_of(const char *section)
{
	for (int i = 0; i < NSEEDS; i++)
		if (seeds[i].section && strcasecmp(seeds[i].section, section) == 0)
			return &seeds[i];
	return NULL;
}

/* A registry section no seed line names, with the command of its ids. */
struct extra {
	const struct pg_guide *g;
	char **items;
	int *n, rc;
	const char *done[64];
	int ndone;
};

static void extra_section(const struct pg_bench *b, void *arg)
{
	struct extra *x = arg;
	if (x->rc || !b->section || seed_of(b->section->title) || section_of(x->g, b->section->title) >= 0)
		return;
	for (int i = 0; i < x->ndone; i++)
		if (strcmp(x->done[i], b->section->title) == 0)
			return;
	if (x->ndone < 64)
		x->done[x->ndone++] = b->section->title;
	char why[400], run[300];
	why_unrun(x->g, b->section->title, why, sizeof(why));
	snprintf(run, sizeof(run), "`perfguide run %s --suite standard` fills it", b->id);
	if (!(x->items[(*x->n)++] = item(b->section->title, why, run)))
		x->rc = -1;
}

/* The seed's sections (and perfguide's) the guide has no figure of. */
static int unfilled_seeds(const struct pg_guide *g, const int *gone, char **items, int *n)
{
	char why[ITEM_MAX];
	for (int i = 0; i < NSEEDS; i++) {
		const struct seed_section *e = &seeds[i];
		int f = filled(g, e), s = section_of(g, e->section);
		if (f > 0 && !(s >= 0 && gone[s]))
			continue;
		if (!e->section)
			why[0] = '\0';
		else if (s >= 0 && gone[s])
			why_skipped(g, s, why, sizeof(why));
		else if (f < 0)
			snprintf(why, sizeof(why), "the %s rows do not say which interface carried them", e->section);
		else if (s >= 0)
			snprintf(why, sizeof(why), "the %s rows are of another medium", e->section);
		else
			why_unrun(g, e->section, why, sizeof(why));
		if (!(items[(*n)++] = item(e->title, why, e->run)))
			return -1;
	}
	return 0;
}

int pg_unfilled(const struct pg_guide *g, const int *gone, char ***out, int *n)
{
	/* every seed line, every section of the guide, every one of the registry */
	char **items = calloc((size_t)(NSEEDS + 2 * g->nsections + 64) + 1, sizeof(char *));
	*out = items;
	*n = 0;
	if (!items || unfilled_seeds(g, gone, items, n) < 0)
		return -1;
	for (int s = 0; s < g->nsections; s++) {
		char why[ITEM_MAX];
		if (!gone[s] || seed_of(g->sections[s].title))
			continue;
		why_skipped(g, s, why, sizeof(why));
		if (!(items[(*n)++] = item(g->sections[s].title, why, NULL)))
			return -1;
	}
	struct extra x = { .g = g, .items = items, .n = n };
	pg_registry_each(extra_section, &x);
	return x.rc;
}

void pg_unfilled_free(char **items, int n)
{
	for (int i = 0; i < n; i++)
		free(items[i]);
	free(items);
}
