/* SPDX-License-Identifier: MIT */
/*
 * Unlike with unlike: a run compared with itself, or runs of machines that
 * differ in what decides their figures (architecture, CPU model, kernel,
 * cpufreq governor, an emulated CPU against a real one). Each difference is
 * one line at the top of compare's output; rows are then not judged unless
 * --force. Between releases (the fleet form) a new kernel is what a release
 * brings: it is a note, not a reason.
 */
#include <jansson.h>
#include <string.h>

#include "compare.h"

/* What of a run's machine record is compared; "" where it does not say. */
struct ident {
	char arch[80], cpu[128], kernel[128], governor[128];
	int emulated;		/* -1 not recorded */
	char virt[32];
};

static void copy(char *dst, size_t len, json_t *v)
{
	const char *s = json_string_value(v);
	snprintf(dst, len, "%s", s ? s : "");
}

static void ident_of(const struct pg_rrun *r, struct ident *id)
{
	memset(id, 0, sizeof(*id));
	id->emulated = -1;
	json_t *m = r->machine ? json_loads(r->machine, 0, NULL) : NULL;
	/* a qemu-user run names the kernel's architecture apart */
	copy(id->arch, sizeof(id->arch), json_object_get(m, "binary_arch"));
	if (!id->arch[0])
		copy(id->arch, sizeof(id->arch), json_object_get(m, "arch"));
	copy(id->cpu, sizeof(id->cpu), json_object_get(json_array_get(json_object_get(m, "cpus"), 0), "model"));
	copy(id->kernel, sizeof(id->kernel), json_object_get(m, "kernel_release"));
	json_t *pol = json_object_get(m, "cpufreq"), *p;
	size_t i;
	json_array_foreach(pol, i, p) {
		const char *g = json_string_value(json_object_get(p, "governor"));
		if (g && !strstr(id->governor, g)) {
			size_t at = strlen(id->governor);
			snprintf(id->governor + at, sizeof(id->governor) - at, "%s%s", at ? "," : "", g);
		}
	}
	json_t *e = json_object_get(m, "emulated");
	if (json_is_boolean(e))
		id->emulated = json_is_true(e);
	copy(id->virt, sizeof(id->virt), json_object_get(m, "virt"));
	json_decref(m);
}

/* Adds a line unless it is there already. */
static void add(char (*list)[PG_CMP_NOTE_LEN], int *n, const char *text)
{
	for (int i = 0; i < *n; i++)
		if (strcmp(list[i], text) == 0)
			return;
	if (*n < PG_CMP_MAX_NOTES)
		snprintf(list[(*n)++], PG_CMP_NOTE_LEN, "%s", text);
}

static void differs(struct pg_comparison *c, int as_note, const char *what, const char *a, const char *b)
{
	char t[PG_CMP_NOTE_LEN];
	if (!a[0] || !b[0] || strcmp(a, b) == 0)
		return;
	snprintf(t, sizeof(t), "%s differ: %.90s (BASE) and %.90s (NEW)", what, a, b);
	if (as_note)
		add(c->notes, &c->nnotes, t);
	else
		add(c->unlike, &c->nunlike, t);
}

static void compare_idents(struct pg_comparison *c, const struct ident *a, const struct ident *b, int releases)
{
	differs(c, 0, "architectures", a->arch, b->arch);
	differs(c, 0, "CPU models", a->cpu, b->cpu);
	differs(c, releases, "kernels", a->kernel, b->kernel);
	differs(c, 0, "cpufreq governors", a->governor, b->governor);
	if (a->emulated >= 0 && b->emulated >= 0 && a->emulated != b->emulated) {
		char t[PG_CMP_NOTE_LEN];
		snprintf(t, sizeof(t), "emulated against native: %s ran on an emulated CPU (%s), %s on a real one",
			 a->emulated ? "BASE" : "NEW", a->emulated ? a->virt : b->virt, a->emulated ? "NEW" : "BASE");
		add(c->unlike, &c->nunlike, t);
	}
}

void pg_compare_unlike(const struct pg_cmp_side *base, const struct pg_cmp_side *new, const struct pg_cmp_opts *o,
		       struct pg_comparison *c)
{
	for (int i = 0; i < base->n; i++)
		for (int j = 0; j < new->n; j++)
			if (strcmp(base->runs[i].id, new->runs[j].id) == 0) {
				char t[PG_CMP_NOTE_LEN];
				snprintf(t, sizeof(t), "run %.100s is on both sides: a run compared with itself says nothing",
					 base->runs[i].id);
				add(c->unlike, &c->nunlike, t);
			}
	if (base->n == 0)
		return;
	struct ident ref, x;
	ident_of(&base->runs[0], &ref);
	if (ref.emulated == 1) {
		char t[PG_CMP_NOTE_LEN];
		snprintf(t, sizeof(t), "BASE ran on an emulated CPU (%s): its figures are the emulator's, not a board's",
			 ref.virt[0] ? ref.virt : "emulated");
		add(c->notes, &c->nnotes, t);
	}
	/* every other run against BASE's first: a side that mixes machines
	 * is as unlike as two sides that differ */
	for (int i = 1; i < base->n + new->n; i++) {
		ident_of(i < base->n ? &base->runs[i] : &new->runs[i - base->n], &x);
		compare_idents(c, &ref, &x, o->releases);
	}
}
