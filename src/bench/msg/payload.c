/* SPDX-License-Identifier: MIT */
/* What a message carries, and the check of its echo. */
#include <stdio.h>

#include "msg.h"

static uint8_t pattern(uint64_t seq, size_t i)
{
	return (uint8_t)((seq * 0x9e3779b97f4a7c15ull) >> 56) ^ (uint8_t)(i * 29 + 0x5a);
}

void msg_payload_fill(uint8_t *buf, size_t size, uint64_t seq)
{
	for (size_t i = 0; i < size; i++)
		buf[i] = i < 8 ? (uint8_t)(seq >> (8 * i)) : pattern(seq, i);
}

int msg_payload_check(const uint8_t *buf, size_t got, size_t size, uint64_t seq,
		      char *why, size_t len)
{
	if (got < size) {
		snprintf(why, len, "an echo of %zu bytes to a %zu-byte message", got, size);
		return -1;
	}
	uint64_t have = 0, mask = size >= 8 ? ~0ull : (1ull << (8 * size)) - 1;
	for (size_t i = 0; i < size && i < 8; i++)
		have |= (uint64_t)buf[i] << (8 * i);
	if (have != (seq & mask)) {
		/* With fewer than 8 bytes only the low bytes of the number travel. */
		snprintf(why, len, "message %llu expected, message %llu%s came back: "
			 "one was lost or reordered",
			 (unsigned long long)(seq & mask), (unsigned long long)have,
			 size < 8 ? " (modulo the bytes it carries)" : "");
		return -1;
	}
	for (size_t i = 8; i < size; i++)
		if (buf[i] != pattern(seq, i)) {
			snprintf(why, len, "message %llu came back with byte %zu changed "
				 "(0x%02x, sent 0x%02x)", (unsigned long long)seq, i, buf[i],
				 pattern(seq, i));
			return -1;
		}
	return 0;
}
