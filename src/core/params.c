/* SPDX-License-Identifier: MIT */
#include "params.h"
#include "err.h"
#include "registry.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COMBOS 4096

static const char *const suite_names[] = { "default", "quick", "standard", "full" };

int pg_suite_parse(const char *s, enum pg_suite *out)
{
	for (int i = 1; i < 4; i++) {
		if (strcmp(s, suite_names[i]) == 0) {
			*out = (enum pg_suite)i;
			return 0;
		}
	}
	return -1;
}

const char *pg_suite_name(enum pg_suite s)
{
	return suite_names[s];
}

int pg_parse_size(const char *s, int64_t *out, char *err, size_t errlen)
{
	const char *p = s;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '-' || *p == '+' || !isdigit((unsigned char)*p))
		return pg_err(err, errlen, "'%s' is not a size (use 512, 4k, 16m or 1g)", s);
	errno = 0;
	char *end;
	unsigned long long v = strtoull(p, &end, 10);
	if (errno)
		return pg_err(err, errlen, "size '%s' is too large", s);
	int shift = 0;
	switch (tolower((unsigned char)*end)) {
	case '\0': break;
	case 'k': shift = 10; end++; break;
	case 'm': shift = 20; end++; break;
	case 'g': shift = 30; end++; break;
	default:
		return pg_err(err, errlen, "'%s' is not a size (use 512, 4k, 16m or 1g)", s);
	}
	/* Accept "4kb"/"16mb"/"1GiB"-style spellings of the same suffix. */
	if (shift && tolower((unsigned char)*end) == 'i')
		end++;
	if (shift && tolower((unsigned char)*end) == 'b')
		end++;
	if (*end != '\0')
		return pg_err(err, errlen, "'%s' is not a size (use 512, 4k, 16m or 1g)", s);
	if (v == 0)
		return pg_err(err, errlen, "size '%s' must be greater than zero", s);
	if (v > ((unsigned long long)INT64_MAX >> shift))
		return pg_err(err, errlen, "size '%s' is too large", s);
	*out = (int64_t)(v << shift);
	return 0;
}

void pg_format_size(int64_t b, char *buf, size_t len)
{
	if (b >= (1LL << 30) && b % (1LL << 30) == 0)
		snprintf(buf, len, "%" PRId64 "g", b >> 30);
	else if (b >= (1LL << 20) && b % (1LL << 20) == 0)
		snprintf(buf, len, "%" PRId64 "m", b >> 20);
	else if (b >= (1LL << 10) && b % (1LL << 10) == 0)
		snprintf(buf, len, "%" PRId64 "k", b >> 10);
	else
		snprintf(buf, len, "%" PRId64, b);
}

static int in_choices(const char *choices, const char *v)
{
	size_t n = strlen(v);
	for (const char *p = choices; p && *p;) {
		const char *c = strchr(p, ',');
		size_t l = c ? (size_t)(c - p) : strlen(p);
		if (l == n && strncmp(p, v, n) == 0)
			return 1;
		p = c ? c + 1 : NULL;
	}
	return 0;
}

int pg_value_is_named(const struct pg_value *v)
{
	return v->param->type != PG_P_STR && v->param->choices && in_choices(v->param->choices, v->text);
}

int pg_value_parse(const struct pg_param *p, const char *text,
		   struct pg_value *v, char *err, size_t errlen)
{
	memset(v, 0, sizeof(*v));
	v->param = p;
	if (strlen(text) >= sizeof(v->text))
		return pg_err(err, errlen, "value for '%s' is too long", p->name);
	snprintf(v->text, sizeof(v->text), "%s", text);
	char e[160];
	switch (p->type) {
	case PG_P_SIZE:
		if (p->choices && in_choices(p->choices, text))
			return 0;
		if (pg_parse_size(text, &v->num, e, sizeof(e)) < 0)
			return pg_err(err, errlen, "%s: %s", p->name, e);
		break;
	case PG_P_INT: {
		char *end;
		errno = 0;
		long long n = strtoll(text, &end, 10);
		if (errno || end == text || *end != '\0')
			return pg_err(err, errlen, "%s: '%s' is not a whole number", p->name, text);
		v->num = n;
		break;
	}
	case PG_P_STR:
		if (p->choices && !in_choices(p->choices, text))
			return pg_err(err, errlen, "%s: '%s' is not one of %s", p->name, text, p->choices);
		if (p->form && p->form(text, e, sizeof(e)) < 0)
			return pg_err(err, errlen, "%s: '%s': %s", p->name, text, e);
		return 0;
	}
	if (v->num < p->min || (p->max && v->num > p->max)) {
		if (p->max)
			pg_err(err, errlen, "%s: %s is out of range (%" PRId64 " to %" PRId64 ")", p->name, text,
			       p->min, p->max);
		else
			pg_err(err, errlen, "%s: %s is below the minimum %" PRId64, p->name, text, p->min);
		return -1;
	}
	return 0;
}

int pg_override_parse(const char *arg, struct pg_override *ov, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	memset(ov, 0, sizeof(*ov));
	if (!eq || eq == arg || eq[1] == '\0')
		return pg_err(err, errlen, "-p takes NAME=VALUE, not '%s'", arg);
	size_t nl = (size_t)(eq - arg);
	if (nl >= sizeof(ov->name) || strlen(eq + 1) >= sizeof(ov->values))
		return pg_err(err, errlen, "-p '%s' is too long", arg);
	memcpy(ov->name, arg, nl);
	snprintf(ov->values, sizeof(ov->values), "%s", eq + 1);
	/* Parameter names have no dot: what is before the last one selects
	 * the benchmarks the value is for (storage.path). */
	const char *dot = strrchr(ov->name, '.');
	const char *param = dot ? dot + 1 : ov->name;
	size_t sl = dot ? (size_t)(dot - ov->name) : 0;
	if ((dot && (sl == 0 || !*param)) || sl >= sizeof(ov->scope) || strlen(param) >= sizeof(ov->param))
		return pg_err(err, errlen, "-p takes NAME=VALUE or SELECTOR.NAME=VALUE (storage.path=/mnt/emmc), "
			      "not '%s'", arg);
	memcpy(ov->scope, ov->name, sl);
	memcpy(ov->param, param, strlen(param) + 1);
	return 0;
}

int pg_override_for(const struct pg_override *o, const struct pg_bench *b)
{
	return !o->scope[0] || pg_registry_matches(o->scope, b->id);
}

/* Edits from a to b, case ignored, a swap of two neighbours one edit
 * (optimal string alignment); 99 for strings too long to matter. */
static int edits(const char *a, const char *b)
{
	enum { L = 24 };
	size_t n = strlen(a), m = strlen(b);
	if (n >= L || m >= L)
		return 99;
	int d[L][L];
	for (size_t i = 0; i <= n; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			int v = d[i - 1][j - 1] + (ca != cb);
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[n][m];
}

/* Whether value t, which p's choices refuse, is one of them mistyped
 * ("splcie", "Out", "ot"): a letter off (two in a choice of six or more),
 * not a path or a number, which are another benchmark's values. */
static int near_choice(const struct pg_param *p, const char *t, size_t tl)
{
	char v[64];
	if (!p->choices || tl < 2 || tl >= sizeof(v) || memchr(t, '/', tl) || isdigit((unsigned char)t[0]))
		return 0;
	memcpy(v, t, tl);
	v[tl] = '\0';
	if (in_choices(p->choices, v))
		return 0;
	for (const char *c = p->choices; c && *c;) {
		const char *e = strchr(c, ',');
		size_t cl = e ? (size_t)(e - c) : strlen(c);
		char choice[64];
		snprintf(choice, sizeof(choice), "%.*s", (int)cl, c);
		if (edits(v, choice) <= (cl >= 6 ? 2 : 1))
			return 1;
		c = e ? e + 1 : NULL;
	}
	return 0;
}

/* Whether some value of the list is a mistyped choice of p's. */
static int list_near_choice(const struct pg_param *p, const char *list)
{
	if (p->whole)
		return near_choice(p, list, strlen(list));
	for (const char *t = list; t;) {
		const char *e = strchr(t, ',');
		if (near_choice(p, t, e ? (size_t)(e - t) : strlen(t)))
			return 1;
		t = e ? e + 1 : NULL;
	}
	return 0;
}

/* A soft override that b's parameter p cannot take: noted, the first
 * refusal (or the first that looks like a typo) kept for the error should
 * no benchmark take it. */
static void refuse(const struct pg_bench *b, const struct pg_param *p, struct pg_override *o, struct pg_take *t,
		   const char *why)
{
	int typo = list_near_choice(p, o->values);
	if (!o->refused[0] || (typo && !o->typo))
		snprintf(o->refused, sizeof(o->refused), "%s: %s", b->id, why);
	o->typo |= typo;
	if (t) {
		t->how = PG_TAKE_NOT;
		snprintf(t->why, sizeof(t->why), "%s", why);
	}
}

const struct pg_param *pg_param_find(const struct pg_bench *b, const char *name)
{
	for (const struct pg_param *p = b->params; p && p->name; p++)
		if (strcmp(p->name, name) == 0)
			return p;
	return NULL;
}

static const char *suite_list(const struct pg_param *p, enum pg_suite s)
{
	switch (s) {
	case PG_SUITE_FULL:
		if (p->full)
			return p->full;
		/* fall through */
	case PG_SUITE_STANDARD:
		if (p->standard)
			return p->standard;
		return p->def;
	case PG_SUITE_QUICK:
		return p->quick ? p->quick : p->def;
	case PG_SUITE_NONE:
		break;
	}
	return p->def;
}

/* Split a comma list into parsed values. Returns the count or -1. */
static int parse_list(const struct pg_param *p, const char *list,
		      struct pg_value *vals, int max, char *err, size_t errlen)
{
	/* A default list may be longer than one -p value (MultiBench's 28
	 * workloads): copied whole, never cut short. */
	char *buf = strdup(list);
	int n = 0;
	if (!buf)
		return pg_err(err, errlen, "%s: out of memory", p->name);
	char *save = NULL;
	const char *sep = p->whole ? "" : ",";
	for (char *tok = strtok_r(buf, sep, &save); tok; tok = strtok_r(NULL, sep, &save)) {
		if (n == max) {
			pg_err(err, errlen, "%s: too many values", p->name);
			n = -1;
			break;
		}
		if (pg_value_parse(p, tok, &vals[n], err, errlen) < 0) {
			n = -1;
			break;
		}
		n++;
	}
	free(buf);
	if (n == 0)
		return pg_err(err, errlen, "%s: no value given", p->name);
	return n;
}

/* Bytes this combination allocates, from its memory parameters and copies. */
static int64_t mem_need(const struct pg_bench *b, const struct pg_args *a)
{
	int64_t need = 0, copies = 1;
	for (int i = 0; i < a->n; i++) {
		const struct pg_param *p = a->v[i].param;
		if (p->type == PG_P_SIZE && p->mem_factor)
			need += a->v[i].num * p->mem_factor;
		if (b->copies_param && strcmp(p->name, b->copies_param) == 0)
			copies = a->v[i].num > 0 ? a->v[i].num : 1;
	}
	return need * copies;
}

enum { SWEEP_MAXV = 32 };	/* values of one parameter */

/* Each parameter's values in a sweep, and whether the user gave them. */
struct sweep {
	int np;
	struct pg_value vals[PG_MAX_PARAMS][SWEEP_MAXV];
	int nvals[PG_MAX_PARAMS], from_user[PG_MAX_PARAMS];
};

/* The override that sets b's parameter p, its values parsed into vals: a
 * scoped one before an unscoped one, the last given first among each; a
 * soft one that p cannot take is passed over, its refusal noted. Returns
 * the number of values, 0 for none (the suite's list), -1 with err set (a
 * refusal that is an error). left_out: b does not run in this suite, so
 * the override would be taken, not used. */
static int pick(const struct pg_bench *b, const struct pg_param *p, struct pg_override *ov, int nov,
		int left_out, struct pg_take *take, struct pg_value *vals, char *err, size_t errlen)
{
	char e[200];
	for (int i = 0; i < nov; i++)
		if (strcmp(ov[i].param, p->name) == 0 && pg_override_for(&ov[i], b)) {
			ov[i].known = 1;
			ov[i].not_recorded |= p->not_recorded;
		}
	for (int scoped = 1; scoped >= 0; scoped--)
		for (int i = nov - 1; i >= 0; i--) {
			struct pg_override *o = &ov[i];
			if ((o->scope[0] != '\0') != scoped || strcmp(o->param, p->name) != 0 || !pg_override_for(o, b))
				continue;
			int n = parse_list(p, o->values, vals, SWEEP_MAXV, e, sizeof(e));
			if (n > 0) {
				*(left_out ? &o->would : &o->used) = 1;
				if (take)
					take[i].how = PG_TAKE_YES;
				return n;
			}
			if (!o->soft)
				return pg_err(err, errlen, "%s: %s", b->id, e);
			refuse(b, p, o, take ? &take[i] : NULL, e);
		}
	return 0;
}

/* A benchmark left out of this suite: its parameters still count as known
 * to -p, and a value one of them would take as taken; a scoped value it
 * cannot take is still an error. */
static int mark_known(const struct pg_bench *b, struct pg_override *ov, int nov, char *err, size_t errlen)
{
	struct pg_value vals[SWEEP_MAXV];
	for (const struct pg_param *p = b->params; p && p->name; p++)
		if (pick(b, p, ov, nov, 1, NULL, vals, err, errlen) < 0)
			return -1;
	return 0;
}

/* Each parameter's list: the user's (-p), or the suite's. */
static int gather(const struct pg_bench *b, enum pg_suite suite, struct pg_override *ov, int nov,
		  struct pg_take *take, struct sweep *sw, char *err, size_t errlen)
{
	char e[200];
	sw->np = 0;
	for (const struct pg_param *p = b->params; p && p->name; p++, sw->np++) {
		int np = sw->np;
		if (np == PG_MAX_PARAMS)
			return pg_err(err, errlen, "%s: more than %d parameters", b->id, PG_MAX_PARAMS);
		int n = pick(b, p, ov, nov, 0, take, sw->vals[np], err, errlen);
		if (n < 0)
			return -1;
		sw->from_user[np] = n > 0;
		if (n == 0 && (n = parse_list(p, suite_list(p, suite), sw->vals[np], SWEEP_MAXV, e, sizeof(e))) < 0)
			return pg_err(err, errlen, "%s: %s", b->id, e);
		sw->nvals[np] = n;
	}
	return 0;
}

/* Combination c of the sweep into a; *user: a memory parameter in it is
 * the user's. The last parameter varies fastest, so a size sweep stays in
 * order. */
static void combination(const struct sweep *sw, int c, struct pg_args *a, int *user)
{
	int idx = c;
	*user = 0;
	a->n = sw->np;
	for (int i = sw->np - 1; i >= 0; i--) {
		a->v[i] = sw->vals[i][idx % sw->nvals[i]];
		a->v[i].given = sw->from_user[i];
		*user |= sw->from_user[i] && a->v[i].param->mem_factor;
		idx /= sw->nvals[i];
	}
}

/* Whether combination a runs: 1 yes, 0 left out (more memory than there
 * is; said on stderr and in why), -1 with err set (the benchmark's check
 * refuses it, or the user asked for more memory than there is). */
static int admit(const struct pg_bench *b, const struct pg_args *a, int user, int64_t mem_avail,
		 char *why, size_t whylen, char *err, size_t errlen)
{
	char e[200], args[128];
	if (b->check && b->check(a, e, sizeof(e)) < 0) {
		pg_args_format(a, args, sizeof(args));
		return pg_err(err, errlen, "%s %s: %s", b->id, args, e);
	}
	int64_t need = mem_need(b, a);
	if (mem_avail <= 0 || need <= mem_avail)
		return 1;
	char nb[32], ab[32];
	pg_args_format(a, args, sizeof(args));
	pg_format_size(need, nb, sizeof(nb));
	pg_format_size(mem_avail, ab, sizeof(ab));
	if (user)
		return pg_err(err, errlen, "%s %s needs %s of memory, more than the %s available",
			      b->id, args, nb, ab);
	fprintf(stderr, "perfguide: %s %s left out: needs %s of memory, %s available\n",
		b->id, args, nb, ab);
	if (!why[0])
		snprintf(why, whylen, "needs %s of memory, %s available", nb, ab);
	return 0;
}

/* The combinations of the suite's lists (or the defaults) that run; when
 * memory leaves out every one, none, with the first in *first and why. */
static int sweep_suite(const struct pg_bench *b, enum pg_suite suite, int64_t mem_avail, struct pg_override *ov,
		       int nov, struct pg_take *take, struct pg_args **out, int *nout, struct pg_args *first,
		       char *why, size_t whylen, char *err, size_t errlen)
{
	struct sweep sw;
	why[0] = '\0';
	if (gather(b, suite, ov, nov, take, &sw, err, errlen) < 0)
		return -1;
	int total = 1;
	for (int i = 0; i < sw.np; i++) {
		total *= sw.nvals[i];
		if (total > MAX_COMBOS)
			return pg_err(err, errlen, "%s: more than %d parameter combinations", b->id, MAX_COMBOS);
	}
	struct pg_args *res = calloc((size_t)total, sizeof(*res));
	if (!res)
		return pg_err(err, errlen, "out of memory");
	int kept = 0, user;
	for (int c = 0; c < total; c++) {
		combination(&sw, c, &res[kept], &user);
		int ok = admit(b, &res[kept], user, mem_avail, why, whylen, err, errlen);
		if (ok < 0) {
			free(res);
			return -1;
		}
		kept += ok;
	}
	combination(&sw, 0, first, &user);
	*out = res;
	*nout = kept;
	return 0;
}

int pg_sweep_with(const struct pg_bench *b, struct pg_sweep_opts *o, struct pg_override *ov, int nov,
		  struct pg_args **out, int *nout, char *err, size_t errlen)
{
	_Static_assert((int)PG_IN_STANDARD == (int)PG_SUITE_STANDARD && (int)PG_IN_FULL == (int)PG_SUITE_FULL,
		       "min_suite uses enum pg_suite's numbers");
	*out = NULL;
	*nout = 0;
	o->skip[0] = '\0';
	o->at_defaults = 0;
	if (o->take)
		memset(o->take, 0, sizeof(*o->take) * (size_t)(nov > 0 ? nov : 0));
	if (o->suite != PG_SUITE_NONE && (int)o->suite < b->min_suite && !o->named)
		return mark_known(b, ov, nov, err, errlen);
	struct pg_args first, dflt;
	if (sweep_suite(b, o->suite, o->mem_avail, ov, nov, o->take, out, nout, &first, o->skip, sizeof(o->skip),
			err, errlen) < 0)
		return -1;
	if (*nout > 0 || !o->named) {
		o->skip[0] = '\0';
		return 0;
	}
	/* Named, and memory left every combination of the suite out: its
	 * defaults, or else its first combination, skipped with the reason. */
	free(*out);
	*out = NULL;
	if (o->suite != PG_SUITE_NONE) {
		char why[PG_MSG_LEN];
		if (sweep_suite(b, PG_SUITE_NONE, o->mem_avail, ov, nov, o->take, out, nout, &dflt, why, sizeof(why),
				err, errlen) < 0)
			return -1;
		if ((o->at_defaults = *nout > 0)) {
			o->skip[0] = '\0';
			return 0;
		}
		free(*out);
	}
	if (!(*out = malloc(sizeof(**out))))
		return pg_err(err, errlen, "out of memory");
	**out = first;
	*nout = 1;
	return 0;
}

int pg_sweep(const struct pg_bench *b, enum pg_suite suite,
	     struct pg_override *ov, int nov, int64_t mem_avail,
	     struct pg_args **out, int *nout, char *err, size_t errlen)
{
	struct pg_sweep_opts o = { .suite = suite, .mem_avail = mem_avail };
	return pg_sweep_with(b, &o, ov, nov, out, nout, err, errlen);
}

void pg_args_format(const struct pg_args *a, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (int i = 0; i < a->n && off < len; i++) {
		if (a->v[i].param->not_recorded)
			continue;
		int w = snprintf(buf + off, len - off, "%s%s=%s", off ? " " : "",
				 a->v[i].param->name, a->v[i].text);
		if (w < 0)
			break;
		off += (size_t)w;
	}
}

static const struct pg_value *find(const struct pg_args *a, const char *name)
{
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->v[i].param->name, name) == 0)
			return &a->v[i];
	return NULL;
}

int64_t pg_arg_int(const struct pg_args *a, const char *name)
{
	const struct pg_value *v = find(a, name);
	return v ? v->num : 0;
}

const char *pg_arg_str(const struct pg_args *a, const char *name)
{
	const struct pg_value *v = find(a, name);
	return v ? v->text : "";
}

int pg_arg_given(const struct pg_args *a, const char *name)
{
	const struct pg_value *v = find(a, name);
	return v && v->given;
}

static int vstatus(struct pg_ctx *ctx, char *buf, int st, const char *fmt, va_list ap)
{
	vsnprintf(buf, PG_MSG_LEN, fmt, ap);
	(void)ctx;
	return st;
}

int pg_skip(struct pg_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vstatus(ctx, ctx->msg, PG_SKIP, fmt, ap);
	va_end(ap);
	return r;
}

int pg_error(struct pg_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vstatus(ctx, ctx->msg, PG_ERROR, fmt, ap);
	va_end(ap);
	return r;
}

void pg_note(struct pg_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vstatus(ctx, ctx->note, PG_OK, fmt, ap);
	va_end(ap);
}

void pg_state_se(struct pg_ctx *ctx, int m, double se, double df)
{
	if (m < 0 || m >= PG_MAX_METRICS || !(se > 0) || !isfinite(se))
		return;
	ctx->log_se[m] = se;
	ctx->log_se_df[m] = df > 0 && isfinite(df) ? df : 0;
}
