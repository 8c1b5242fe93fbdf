/* SPDX-License-Identifier: MIT */
/*
 * cpu.work.state: a state machine that scans text for numbers. The input
 * is 16 KB of generated tokens separated by commas: decimal integers
 * ("-123"), decimals with optional exponent ("4.5e-3"), hexadecimal
 * ("0x1F") and malformed ones ("1.2.3", "0x", "--5", "7e"). One iteration
 * runs the machine over the whole text, one character at a time through a
 * switch on the current state, and counts the tokens of each kind and the
 * state transitions. Branchy byte-at-a-time code, as a protocol or
 * command parser is.
 *
 * Checked: the generator knows how many tokens of each kind it wrote; the
 * machine's counts must equal them on every step (the transitions' count
 * must also equal the one setup saw).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "work.h"

#define TEXT 16384

enum kind { K_INT, K_FLOAT, K_HEX, K_BAD, K_N };
enum st { S_START, S_SIGN, S_INT, S_ZERO, S_X, S_HEX, S_DOT, S_FRAC, S_E, S_ESIGN, S_EXP, S_BAD };

struct state_work {
	char text[TEXT + 64];
	size_t len;
	uint32_t want[K_N], got[K_N];
	uint32_t transitions, want_transitions;
};

/* The kind of a finished token in state st. */
static enum kind kind_at_end(enum st st)
{
	switch (st) {
	case S_INT:
	case S_ZERO:
		return K_INT;
	case S_FRAC:
	case S_EXP:
		return K_FLOAT;
	case S_HEX:
		return K_HEX;
	default:
		return K_BAD;
	}
}

static enum st next(enum st st, char c)
{
	int digit = c >= '0' && c <= '9';
	int hex = digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
	switch (st) {
	case S_START:
		if (c == '-' || c == '+')
			return S_SIGN;
		if (c == '0')
			return S_ZERO;
		return digit ? S_INT : S_BAD;
	case S_SIGN:
		if (c == '0')
			return S_ZERO;
		return digit ? S_INT : S_BAD;
	case S_ZERO:
		if (c == 'x' || c == 'X')
			return S_X;
		return next(S_INT, c);	/* else as any integer */
	case S_INT:
		if (digit)
			return S_INT;
		if (c == '.')
			return S_DOT;
		return c == 'e' || c == 'E' ? S_E : S_BAD;
	case S_X:
	case S_HEX:
		return hex ? S_HEX : S_BAD;
	case S_DOT:
		return digit ? S_FRAC : S_BAD;
	case S_FRAC:
		if (digit)
			return S_FRAC;
		return c == 'e' || c == 'E' ? S_E : S_BAD;
	case S_E:
		if (c == '-' || c == '+')
			return S_ESIGN;
		return digit ? S_EXP : S_BAD;
	case S_ESIGN:
	case S_EXP:
		return digit ? S_EXP : S_BAD;
	default:
		return S_BAD;
	}
}

static uint32_t state_run(void *p)
{
	struct state_work *s = p;
	enum st st = S_START;
	memset(s->got, 0, sizeof(s->got));
	s->transitions = 0;
	for (size_t i = 0; i < s->len; i++) {
		char c = s->text[i];
		if (c == ',') {
			s->got[kind_at_end(st)]++;
			st = S_START;
			continue;
		}
		enum st n = next(st, c);
		s->transitions += n != st;
		st = n;
	}
	return pg_work_crc32(0, s->got, sizeof(s->got)) ^ s->transitions;
}

static void token_put(struct state_work *s, const char *tok, enum kind k)
{
	size_t n = strlen(tok);
	memcpy(s->text + s->len, tok, n);
	s->text[s->len + n] = ',';
	s->len += n + 1;
	s->want[k]++;
}

static int state_init(void *p, char *why, size_t len)
{
	(void)why;
	(void)len;
	struct state_work *s = p;
	uint32_t r = 12345;
	char tok[48];
	static const char *const bad[] = { "1.2.3", "0x", "--5", "7e", "12a", ".5", "0xg1", "+", "1e+" };
	while (s->len < TEXT) {
		uint32_t v = pg_work_rand(&r);
		const char *sign = v & 0x100 ? "-" : "";
		switch (v % 8) {
		case 0:
		case 1:
		case 2:
			snprintf(tok, sizeof(tok), "%s%u", sign, (v >> 9) % 100000);
			token_put(s, tok, K_INT);
			break;
		case 3:
		case 4:
			if (v & 0x200)
				snprintf(tok, sizeof(tok), "%s%u.%u", sign, (v >> 10) % 1000, (v >> 20) % 997);
			else
				snprintf(tok, sizeof(tok), "%u.%ue%s%u", (v >> 10) % 100, (v >> 17) % 97,
					 v & 0x400 ? "-" : "", (v >> 24) % 40);
			token_put(s, tok, K_FLOAT);
			break;
		case 5:
		case 6:
			snprintf(tok, sizeof(tok), "0x%X", v >> 9);
			token_put(s, tok, K_HEX);
			break;
		default:
			token_put(s, bad[(v >> 9) % (sizeof(bad) / sizeof(bad[0]))], K_BAD);
			break;
		}
	}
	state_run(s);
	s->want_transitions = s->transitions;
	return 0;
}

static int state_check(void *p, uint32_t sum, char *why, size_t len)
{
	struct state_work *s = p;
	(void)sum;
	if (memcmp(s->got, s->want, sizeof(s->want)) != 0 || s->transitions != s->want_transitions) {
		snprintf(why, len, "counted %u int, %u float, %u hex, %u bad; wrote %u, %u, %u, %u",
			 s->got[0], s->got[1], s->got[2], s->got[3], s->want[0], s->want[1], s->want[2],
			 s->want[3]);
		return -1;
	}
	return 0;
}

static const struct pg_work state_work = {
	.state_size = sizeof(struct state_work),
	.init = state_init, .run = state_run, .check = state_check,
};

const struct pg_bench pg_cpu_work_state =
	PG_WORK_BENCH("cpu.work.state", "State machine classifying numbers in 16 KB of text",
		      &state_work);
