/* SPDX-License-Identifier: MIT */
/* perfguide list: every benchmark id (or those the selectors name), its
 * metrics, parameters and defaults. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "help.h"
#include "core/record.h"
#include "core/registry.h"
#include "pg_build.h"
#ifdef PG_HAVE_JANSSON
#include <jansson.h>

#include "core/record_json.h"
#endif

enum { O_JSON = 256 };

static const struct pg_opt list_opts[] = {
	{ "json", 0, O_JSON, NULL, "one JSON document (an array of benchmarks) on stdout" },
	PG_OPT_END,
};

const struct pg_cmd_doc pg_doc_list = {
	.name = "list",
	.summary = "every benchmark, its parameters and defaults",
	.usage = "[SELECTOR...] [--json]",
	.intro = "Lists every benchmark, or those the SELECTORs name (an id, a group such as 'mem', or a "
		 "glob such as 'mem.bw.*', as 'perfguide run' takes them): its id, title, metrics with units, "
		 "and each parameter with its type, default and the values each suite sweeps.",
	.opts = list_opts,
	.exit_status = "0 listed, 2 a SELECTOR matches no benchmark.",
	.examples = "  perfguide list\n  perfguide list mem\n  perfguide list 'os.pipe.*' --json",
};

/* The benchmarks the selectors name, in the order run would take them. */
#define LIST_MAX 1024
struct selection {
	const struct pg_bench *b[LIST_MAX];
	int n;
};

static const char *type_name(enum pg_ptype t)
{
	return t == PG_P_SIZE ? "size" : t == PG_P_INT ? "int" : "string";
}

static void print_text(const struct pg_bench *b)
{
	printf("%-20s %s\n", b->id, b->title);
	for (const struct pg_metric *m = b->metrics; m->name; m++)
		printf("    metric %-12s %-8s %s is better\n", m->name, m->unit,
		       pg_better_name(m->higher_is_better));
	for (const struct pg_param *p = b->params; p && p->name; p++) {
		printf("    -p %-10s %-6s default %s", p->name, type_name(p->type), p->def);
		if (p->choices)
			printf("; one of %s", p->choices);
		if (p->quick)
			printf("; quick %s", p->quick);
		if (p->standard)
			printf("; standard %s", p->standard);
		if (p->full)
			printf("; full %s", p->full);
		printf("\n       %s\n", p->help);
	}
}

#ifdef PG_HAVE_JANSSON
static void add_json(const struct pg_bench *b, json_t *all)
{
	json_t *o = json_object();
	json_object_set_new(o, "id", json_string(b->id));
	json_object_set_new(o, "title", json_string(b->title));
	json_t *ms = json_array();
	for (const struct pg_metric *m = b->metrics; m->name; m++)
		json_array_append_new(ms, json_pack("{s:s,s:s,s:s}", "name", m->name, "unit", m->unit,
						    "better", pg_better_name(m->higher_is_better)));
	json_object_set_new(o, "metrics", ms);
	json_t *ps = json_array();
	for (const struct pg_param *p = b->params; p && p->name; p++) {
		json_t *j = json_pack("{s:s,s:s,s:s,s:s}", "name", p->name, "type", type_name(p->type),
				      "default", p->def, "help", p->help);
		if (p->choices)
			json_object_set_new(j, "choices", json_string(p->choices));
		if (p->quick)
			json_object_set_new(j, "quick", json_string(p->quick));
		if (p->standard)
			json_object_set_new(j, "standard", json_string(p->standard));
		if (p->full)
			json_object_set_new(j, "full", json_string(p->full));
		json_array_append_new(ps, j);
	}
	json_object_set_new(o, "params", ps);
	if (b->copies_param)
		json_object_set_new(o, "copies_param", json_string(b->copies_param));
	json_array_append_new(all, o);
}

static int list_print_json(const struct selection *sel)
{
	json_t *all = json_array();
	for (int i = 0; i < sel->n; i++)
		add_json(sel->b[i], all);
	pg_json_dumpf_safe(all, stdout, JSON_INDENT(2));
	fputc('\n', stdout);
	json_decref(all);
	return PG_EXIT_OK;
}
#else
static int list_print_json(const struct selection *sel)
{
	(void)sel;
	return pg_usage_error("list: --json needs a build with jansson (install libjansson-dev" PG_DEB_ARCH_SUFFIX
			      " and rebuild)");
}
#endif

static void add_all(const struct pg_bench *b, void *arg)
{
	struct selection *sel = arg;
	if (sel->n < LIST_MAX)
		sel->b[sel->n++] = b;
}

int pg_cmd_list(int argc, char **argv)
{
	static struct selection sel;
	struct pg_getopt g;
	int json = 0, c;
	pg_getopt_tables(&pg_doc_list, &g);
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		switch (c) {
		case O_JSON: json = 1; break;
		case 'h': pg_help_print(stdout, &pg_doc_list); return PG_EXIT_OK;
		default: return pg_usage_error("list: unknown option '%s' (see 'perfguide list --help')",
					       argv[optind - 1]);
		}
	}
	sel.n = 0;
	if (optind == argc)
		pg_registry_each(add_all, &sel);
	for (int i = optind; i < argc; i++) {
		int k = pg_registry_select(argv[i], sel.b, &sel.n, LIST_MAX);
		if (k == 0)
			return pg_usage_error("list: no benchmark matches '%s' (see 'perfguide list')", argv[i]);
		if (k < 0)
			return pg_usage_error("list: more than %d benchmarks selected", LIST_MAX);
	}
	if (json)
		return list_print_json(&sel);
	for (int i = 0; i < sel.n; i++)
		print_text(sel.b[i]);
	return PG_EXIT_OK;
}
