/* SPDX-License-Identifier: MIT */
/*
 * cpu.work.parse: a tokenizer and recursive-descent parser over generated
 * text. The text is about 22 KB of assignments such as
 *
 *     speed_12 = (340 + 7) * 3 - 2048 / (5 + 11) % 9;
 *
 * (names, integers, + - * / %, parentheses nested up to four deep, spaces
 * and comments "# ..." to the end of a line). One iteration tokenizes and
 * parses all of it, evaluating each expression in 32-bit wrap-around
 * arithmetic, and sums the values. Character classes, calls and returns,
 * branches that depend on the text.
 *
 * Checked on every step: the generator computed each expression's value
 * as it wrote it (by another route: building the value with the text);
 * the parser's sum and count of statements must equal the generator's.
 */
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "work.h"

#define TEXT 24576

struct parse_work {
	char text[TEXT + 4096];
	size_t len;
	uint32_t want_sum, want_n;
	uint32_t sum, n;
	int bad;
};

struct lexer {
	const char *p;
	int bad;
};

static void skip_space(struct lexer *lx)
{
	for (;;) {
		char c = *lx->p;
		if (c == ' ' || c == '\n' || c == '\t')
			lx->p++;
		else if (c == '#')
			while (*lx->p && *lx->p != '\n')
				lx->p++;
		else
			return;
	}
}

static uint32_t expr(struct lexer *lx);

static uint32_t primary(struct lexer *lx)
{
	skip_space(lx);
	char c = *lx->p;
	if (c == '(') {
		lx->p++;
		uint32_t v = expr(lx);
		skip_space(lx);
		if (*lx->p == ')')
			lx->p++;
		else
			lx->bad = 1;
		return v;
	}
	if (c == '-') {
		lx->p++;
		return 0u - primary(lx);
	}
	if (c >= '0' && c <= '9') {
		uint32_t v = 0;
		while (*lx->p >= '0' && *lx->p <= '9')
			v = v * 10 + (uint32_t)(*lx->p++ - '0');
		return v;
	}
	lx->bad = 1;
	return 0;
}

static uint32_t term(struct lexer *lx)
{
	uint32_t v = primary(lx);
	for (;;) {
		skip_space(lx);
		char op = *lx->p;
		if (op != '*' && op != '/' && op != '%')
			return v;
		lx->p++;
		uint32_t r = primary(lx);
		if (op == '*')
			v *= r;
		else if (r == 0)
			lx->bad = 1;
		else
			v = op == '/' ? v / r : v % r;
	}
}

static uint32_t expr(struct lexer *lx)
{
	uint32_t v = term(lx);
	for (;;) {
		skip_space(lx);
		char op = *lx->p;
		if (op != '+' && op != '-')
			return v;
		lx->p++;
		uint32_t r = term(lx);
		v = op == '+' ? v + r : v - r;
	}
}

static int is_name(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

static uint32_t parse_run(void *p)
{
	struct parse_work *s = p;
	struct lexer lx = { s->text, 0 };
	s->sum = s->n = 0;
	for (;;) {
		skip_space(&lx);
		if (!*lx.p)
			break;
		const char *name = lx.p;
		while (is_name(*lx.p))
			lx.p++;
		skip_space(&lx);
		if (lx.p == name || *lx.p != '=') {
			lx.bad = 1;
			break;
		}
		lx.p++;
		s->sum += expr(&lx);
		skip_space(&lx);
		if (*lx.p != ';') {
			lx.bad = 1;
			break;
		}
		lx.p++;
		s->n++;
	}
	s->bad = lx.bad;
	return s->sum;
}

/* Writes an expression of the given depth at s->text + s->len and returns
 * its value, computed as it is written: unsigned operands, + - * / % with
 * their usual precedence (a term is a product of factors, an expression a
 * sum of terms). */
static uint32_t gen_expr(struct parse_work *s, uint32_t *r, int depth);

static void emit(struct parse_work *s, const char *t)
{
	size_t n = strlen(t);
	memcpy(s->text + s->len, t, n);
	s->len += n;
}

static uint32_t gen_factor(struct parse_work *s, uint32_t *r, int depth)
{
	uint32_t v = pg_work_rand(r);
	/* no more nesting near the end of the buffer: that bounds the text */
	if (depth > 0 && v % 4 == 0 && s->len < TEXT - 2000) {
		emit(s, "(");
		uint32_t x = gen_expr(s, r, depth - 1);
		emit(s, ")");
		return x;
	}
	char num[16];
	uint32_t x = (v >> 4) % (v & 8 ? 100000 : 100);
	snprintf(num, sizeof(num), "%u", x);
	emit(s, num);
	return x;
}

static uint32_t gen_term(struct parse_work *s, uint32_t *r, int depth)
{
	uint32_t v = gen_factor(s, r, depth);
	int n = (int)(pg_work_rand(r) % 3);
	for (int i = 0; i < n; i++) {
		uint32_t w = pg_work_rand(r) % 3;
		emit(s, w == 0 ? " * " : w == 1 ? " / " : " % ");
		uint32_t x;
		if (w == 0) {
			x = gen_factor(s, r, depth);
		} else {	/* a divisor is a number from 1 to 99, never zero */
			char num[8];
			x = 1 + pg_work_rand(r) % 99;
			snprintf(num, sizeof(num), "%u", x);
			emit(s, num);
		}
		v = w == 0 ? v * x : w == 1 ? v / x : v % x;
	}
	return v;
}

static uint32_t gen_expr(struct parse_work *s, uint32_t *r, int depth)
{
	uint32_t v = gen_term(s, r, depth);
	int n = (int)(pg_work_rand(r) % 4);
	for (int i = 0; i < n; i++) {
		int plus = pg_work_rand(r) & 1;
		emit(s, plus ? " + " : " - ");
		uint32_t x = gen_term(s, r, depth);
		v = plus ? v + x : v - x;
	}
	return v;
}

static int parse_init(void *p, char *why, size_t len)
{
	(void)why;
	(void)len;
	struct parse_work *s = p;
	static const char *const names[] = { "speed", "rate", "x", "total_bytes", "n", "delay" };
	uint32_t r = 2024;
	while (s->len < TEXT - 2500) {
		char head[48];
		uint32_t v = pg_work_rand(&r);
		if (v % 16 == 0)
			emit(s, "# generated\n");
		snprintf(head, sizeof(head), "%s_%u = ", names[v % 6], (v >> 8) % 100);
		emit(s, head);
		s->want_sum += gen_expr(s, &r, 4);
		s->want_n++;
		emit(s, ";\n");
	}
	s->text[s->len] = 0;
	return 0;
}

static int parse_check(void *p, uint32_t sum, char *why, size_t len)
{
	struct parse_work *s = p;
	if (!s->bad && sum == s->want_sum && s->n == s->want_n)
		return 0;
	snprintf(why, len, "parsed %u statements summing to %u%s; wrote %u summing to %u", s->n,
		 sum, s->bad ? " and stopped at a syntax error" : "", s->want_n, s->want_sum);
	return -1;
}

static const struct pg_work parse_work = {
	.state_size = sizeof(struct parse_work),
	.init = parse_init, .run = parse_run, .check = parse_check,
};

const struct pg_bench pg_cpu_work_parse =
	PG_WORK_BENCH("cpu.work.parse", "Tokenizer and expression parser over 22 KB of text",
		      &parse_work);
