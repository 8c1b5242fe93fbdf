/* perfguide list: every benchmark id, its metrics, parameters and defaults. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "core/record.h"
#include "core/registry.h"
#include "pg_build.h"
#ifdef PG_HAVE_JANSSON
#include <jansson.h>
#endif

static const char help[] =
	"usage: perfguide list [--json]\n"
	"\n"
	"Lists every benchmark: its id, title, metrics with units, and each\n"
	"parameter with its type, default and the values each suite sweeps.\n"
	"\n"
	"  --json   one JSON document on stdout\n";

static const char *type_name(enum pg_ptype t)
{
	return t == PG_P_SIZE ? "size" : t == PG_P_INT ? "int" : "string";
}

static void print_text(const struct pg_bench *b, void *arg)
{
	(void)arg;
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
static void add_json(const struct pg_bench *b, void *arg)
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
	json_array_append_new((json_t *)arg, o);
}

static int print_json(void)
{
	json_t *all = json_array();
	pg_registry_each(add_json, all);
	json_dumpf(all, stdout, JSON_INDENT(2));
	fputc('\n', stdout);
	json_decref(all);
	return PG_EXIT_OK;
}
#else
static int print_json(void)
{
	return pg_usage_error("list: --json needs a build with jansson (install libjansson-dev" PG_DEB_ARCH_SUFFIX
			      " and rebuild)");
}
#endif

int pg_cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int json = 0, c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = 1; break;
		case 'h': fputs(help, stdout); return PG_EXIT_OK;
		default: return pg_usage_error("list: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return pg_usage_error("list: unexpected argument '%s'", argv[optind]);
	if (json)
		return print_json();
	pg_registry_each(print_text, NULL);
	return PG_EXIT_OK;
}
