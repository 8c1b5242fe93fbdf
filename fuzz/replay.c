/* SPDX-License-Identifier: MIT */
/* Replays a corpus through the fuzz target without libFuzzer (make check). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	static uint8_t buf[1 << 20];
	size_t len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	return 0;
}

/* Every file in each directory given, and each file given. */
int main(int argc, char **argv)
{
	int n = 0;
	for (int a = 1; a < argc; a++) {
		struct stat sb;
		if (stat(argv[a], &sb) == 0 && S_ISREG(sb.st_mode)) {
			if (replay_file(argv[a]) < 0)
				return 1;
			n++;
			continue;
		}
		DIR *d = opendir(argv[a]);
		if (!d) {
			perror(argv[a]);
			return 1;
		}
		struct dirent *e;
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			char path[4096];
			snprintf(path, sizeof(path), "%s/%s", argv[a], e->d_name);
			if (replay_file(path) < 0)
				return 1;
			n++;
		}
		closedir(d);
	}
	printf("%d inputs replayed\n", n);
	return n > 0 ? 0 : 1;
}
