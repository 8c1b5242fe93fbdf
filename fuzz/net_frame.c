/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the control-message parser: every frame the bytes hold is
 * decoded, its typed values read, and it is re-encoded and decoded again,
 * which must give the same lines (a parser that accepts what its own encoder
 * cannot reproduce is wrong).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pg_net_frame f, g;
	static struct pg_net_out o;
	char err[256];
	size_t used = 0;
	while (size > 0 && pg_net_decode(data, size, &f, &used, err, sizeof(err)) == 1) {
		uint64_t u;
		double d;
		pg_net_get_u64(&f, "port", 0, 1, 65535, &u, err, sizeof(err));
		pg_net_get_u64(&f, "bytes_rx", 0, 0, UINT64_MAX, &u, err, sizeof(err));
		pg_net_get_double(&f, "time", 0, 0, 1e9, &d, err, sizeof(err));
		pg_net_get_u64(&f, "rate", 0, 0, 1000000000000ULL, &u, err, sizeof(err));
		pg_net_get_double(&f, "send_s", 0, 0, 1e9, &d, err, sizeof(err));
		/* what the client reads from WELCOME, the peer from START */
		pg_net_get_double(&f, "max_rate", 0, 0, 1e12, &d, err, sizeof(err));
		pg_net_get_u64(&f, "window", 0, 0, 1ULL << 30, &u, err, sizeof(err));
		pg_net_get_u64(&f, "streams", 0, 0, UINT64_MAX, &u, err, sizeof(err));
		pg_net_out_begin(&o, f.type);
		for (int i = 0; i < f.nkeys; i++)
			pg_net_out_add(&o, f.key[i], "%s", f.val[i]);
		if (pg_net_out_end(&o) < 0 || o.len != used ||
		    pg_net_decode(o.buf, o.len, &g, &used, err, sizeof(err)) != 1 ||
		    g.type != f.type || g.nkeys != f.nkeys)
			abort();
		for (int i = 0; i < f.nkeys; i++)
			if (strcmp(f.key[i], g.key[i]) != 0 || strcmp(f.val[i], g.val[i]) != 0)
				abort();
		data += used;
		size -= used;
	}
	return 0;
}
