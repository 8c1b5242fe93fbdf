/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for import --from-lava-log: the bytes are a LAVA job log
 * (a console, or LAVA's YAML log) that may hold results files run --lava
 * put there as base64. Beyond "no crash, no leak, no undefined behaviour":
 * each file taken out is there, has no name in the temporary directory
 * (nothing can be left of it) and is read from its start.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/lava_log.h"
#include "common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char log[4200];
	snprintf(log, sizeof(log), "%s/log.XXXXXX", fuzz_tmpdir());
	int fd = mkstemp(log);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(log);
		return 0;
	}
	close(fd);
	struct pg_lava_file *files = NULL;
	char err[600];
	int n = pg_lava_log_extract(log, &files, err, sizeof(err));
	for (int i = 0; i < n; i++) {
		struct stat sb;
		if (!files[i].f || fstat(fileno(files[i].f), &sb) < 0 || sb.st_nlink != 0 || ftell(files[i].f) != 0) {
			fprintf(stderr, "%s: taken out of the log but not there, named, or not at its start\n", files[i].name);
			abort();
		}
	}
	pg_lava_files_free(files, n);
	unlink(log);
	return 0;
}
