/*
 * perfguide report: the performance guide from the store (or from results
 * files): one column per board, one table per section, the machine table at
 * the head.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report/guide.h"
#include "report/select.h"

#define MAX_SEL 256

static const char help[] =
	"usage: perfguide report [FILE.jsonl...] [options]\n"
	"\n"
	"Writes the performance guide: a machine table, then a table per section\n"
	"(LMBench, Dhrystone, ..., Ethernet, Storage, Crypto, Messaging) with one\n"
	"column per board and cells 'median (min X, max Y)'. Without a selection,\n"
	"the latest run of every board in the store, boards by name.\n"
	"\n"
	"  --board NAME       this board's latest run (repeat for more boards)\n"
	"  --run ID           this run (repeat; 'latest' is the newest run)\n"
	"  --all-runs         every run of each --board, merged into one column:\n"
	"                     median of the medians, min of the mins, max of the maxes\n"
	"  --format FMT       md (default), rst, csv, json or html\n"
	"  -o FILE            write to FILE (default: standard output)\n"
	"  --db FILE          the store (default: $XDG_DATA_HOME/perfguide/results.db)\n"
	"\n"
	"Results files given as arguments are read directly, without the store.\n"
	"Exit status: 0 written, 1 writing failed, 2 bad input (nothing written).\n";

static int add_run(struct pg_rrun **runs, int *n, struct pg_rrun *r)
{
	for (int i = 0; i < *n; i++)
		if (strcmp((*runs)[i].id, r->id) == 0) {
			pg_rrun_free(r);	/* selected twice: once is enough */
			return 0;
		}
	struct pg_rrun *p = realloc(*runs, sizeof(*p) * (size_t)(*n + 1));
	if (!p)
		return -1;
	*runs = p;
	p[(*n)++] = *r;
	return 0;
}

static int by_board(const void *a, const void *b)
{
	return strcmp(((const struct pg_rrun *)a)->board, ((const struct pg_rrun *)b)->board);
}

int pg_cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "board", required_argument, NULL, 'b' },
		{ "run", required_argument, NULL, 'r' },
		{ "all-runs", no_argument, NULL, 'a' },
		{ "format", required_argument, NULL, 'f' },
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *boards[MAX_SEL], *ids[MAX_SEL], *db = NULL, *outpath = NULL;
	int nboards = 0, nids = 0, all = 0, c;
	enum pg_format fmt = PG_FMT_MD;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			if (nboards == MAX_SEL)
				return pg_usage_error("report: at most %d --board options", MAX_SEL);
			boards[nboards++] = optarg;
			break;
		case 'r':
			if (nids == MAX_SEL)
				return pg_usage_error("report: at most %d --run options", MAX_SEL);
			ids[nids++] = optarg;
			break;
		case 'a': all = 1; break;
		case 'f':
			if (pg_format_parse(optarg, &fmt) < 0)
				return pg_usage_error("report: --format '%s': use md, rst, csv, json or html", optarg);
			break;
		case 'o': outpath = optarg; break;
		case 'd': db = optarg; break;
		case 'h': fputs(help, stdout); return PG_EXIT_OK;
		default:
			if (optopt)
				return pg_usage_error("report: option '-%c' needs a value or is unknown", optopt);
			return pg_usage_error("report: unknown option '%s' (see 'perfguide report --help')",
					      argv[optind - 1]);
		}
	}
	if (all && nboards == 0)
		return pg_usage_error("report: --all-runs needs one or more --board");

	char err[512];
	struct pg_store *store = NULL;
	struct pg_rrun *runs = NULL, r;
	int nruns = 0, rc = PG_EXIT_USAGE;
	for (int i = optind; i < argc; i++) {
		struct pg_rrun *fr;
		int nfr;
		if (pg_rrun_read_all(argv[i], &fr, &nfr, err, sizeof(err)) < 0) {
			pg_usage_error("report: %s", err);
			goto out;
		}
		for (int k = 0; k < nfr; k++)
			if (add_run(&runs, &nruns, &fr[k]) < 0)
				pg_rrun_free(&fr[k]);
		free(fr);
	}
	for (int i = 0; i < nids; i++) {
		if (pg_select_run(ids[i], db, &store, &r, err, sizeof(err)) < 0 || add_run(&runs, &nruns, &r) < 0) {
			pg_usage_error("report: %s", err);
			goto out;
		}
	}
	for (int i = 0; i < nboards; i++) {
		if (!store && !(store = pg_select_store(db, 0, err, sizeof(err)))) {
			pg_usage_error("report: %s", err);
			goto out;
		}
		char **bids;
		int nb;
		if (pg_store_runs_of_board(store, boards[i], &bids, &nb, err, sizeof(err)) < 0) {
			pg_usage_error("report: %s", err);
			goto out;
		}
		int bad = nb == 0;
		if (bad)
			pg_usage_error("report: no runs of board '%s' in the store %s (see 'perfguide runs')",
				       boards[i], store->path);
		for (int k = all ? 0 : nb - 1; !bad && k < nb; k++) {
			int found = store->ops->load_run(store, bids[k], &r, err, sizeof(err));
			if (found != 1 || add_run(&runs, &nruns, &r) < 0) {
				pg_usage_error("report: %s", found == 0 ? "run vanished from the store" : err);
				bad = 1;
			}
		}
		for (int k = 0; k < nb; k++)
			free(bids[k]);
		free(bids);
		if (bad)
			goto out;
	}
	if (optind == argc && nids == 0 && nboards == 0) {
		/* The latest run of every board. */
		if (!(store = pg_select_store(db, 0, err, sizeof(err)))) {
			pg_usage_error("report: %s", err);
			goto out;
		}
		struct pg_run_summary *all_runs;
		int n;
		if (store->ops->list_runs(store, &all_runs, &n, err, sizeof(err)) < 0) {
			pg_usage_error("report: %s", err);
			goto out;
		}
		for (int i = n - 1; i >= 0; i--) {
			int later = 0;
			for (int k = i + 1; k < n; k++)
				later |= strcmp(all_runs[k].board, all_runs[i].board) == 0;
			if (later)
				continue;
			int found = store->ops->load_run(store, all_runs[i].id, &r, err, sizeof(err));
			if (found == 1 && add_run(&runs, &nruns, &r) < 0)
				found = -1;
			if (found != 1) {
				free(all_runs);
				pg_usage_error("report: %s", err);
				goto out;
			}
		}
		free(all_runs);
		/* Boards by name, as the seed guide orders its columns. */
		qsort(runs, (size_t)nruns, sizeof(*runs), by_board);
		if (nruns == 0) {
			pg_usage_error("report: the store %s holds no runs (run or import results first)", store->path);
			goto out;
		}
	}

	const struct pg_rrun **ptrs = malloc(sizeof(*ptrs) * (size_t)nruns);
	struct pg_guide g;
	if (!ptrs) {
		pg_usage_error("report: out of memory");
		goto out;
	}
	for (int i = 0; i < nruns; i++)
		ptrs[i] = &runs[i];
	if (pg_guide_build(&g, ptrs, nruns) < 0) {
		free(ptrs);
		pg_guide_free(&g);
		pg_usage_error("report: out of memory");
		goto out;
	}

	/* Into a temporary file first, so a failed write leaves no half guide. */
	char tmp[1100];
	FILE *f = stdout;
	if (outpath) {
		snprintf(tmp, sizeof(tmp), "%s.tmp", outpath);
		f = fopen(tmp, "w");
		if (!f) {
			pg_usage_error("report: cannot write %s: %s", tmp, strerror(errno));
			free(ptrs);
			pg_guide_free(&g);
			goto out;
		}
	}
	int wrc = pg_guide_write(&g, fmt, f);
	if (fflush(f) != 0 || ferror(f))
		wrc = -1;
	rc = PG_EXIT_OK;
	if (outpath) {
		if (fclose(f) != 0)
			wrc = -1;
		if (wrc < 0 || rename(tmp, outpath) < 0) {
			fprintf(stderr, "perfguide: report: writing %s: %s\n", outpath, strerror(errno));
			remove(tmp);
			rc = PG_EXIT_FAIL;
		} else {
			fprintf(stderr, "perfguide: wrote guide in %s\n", outpath);
		}
	} else if (wrc < 0) {
		fprintf(stderr, "perfguide: report: writing the guide failed\n");
		rc = PG_EXIT_FAIL;
	}
	free(ptrs);
	pg_guide_free(&g);
out:
	for (int i = 0; i < nruns; i++)
		pg_rrun_free(&runs[i]);
	free(runs);
	pg_store_close(store);
	return rc;
}
