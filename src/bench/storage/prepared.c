/* SPDX-License-Identifier: MIT */
/*
 * A job's laid-out file, kept for the run's next results: laying out 1 GiB
 * takes 20-25 s on a 40 MB/s eMMC, and the standard sweep writes and reads
 * at four block sizes each and then at random. The file is unlinked when it
 * is made (storage.c), so what keeps it is an open descriptor here; it is
 * shared by results of the same path, size, O_DIRECT setting and number of
 * jobs (each job its own file), and let go as soon as a job needs the room
 * for another file of its own, or when the process ends. (Write buffers
 * change with every write, so a read after a write job reads no more
 * repetition than a fresh layout holds.)
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "storage.h"

#define SLOTS 16		/* jobs whose files are kept; more are laid out each time */

static struct {
	int fd;			/* -1: empty */
	char path[PATH_MAX];
	uint64_t want, size;
	int direct, copies;
} slot[SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int ready;

static void init_locked(void)
{
	if (!ready)
		for (int i = 0; i < SLOTS; i++)
			slot[i].fd = -1;
	ready = 1;
}

int st_prepared_take(int copy, int copies, const char *path, uint64_t want, int direct,
		     uint64_t *size)
{
	int fd = -1;
	if (copy < 0 || copy >= SLOTS)
		return -1;
	pthread_mutex_lock(&lock);
	init_locked();
	if (slot[copy].fd >= 0 && slot[copy].want == want && slot[copy].direct == direct &&
	    slot[copy].copies == copies && strcmp(slot[copy].path, path) == 0) {
		fd = dup(slot[copy].fd);
		*size = slot[copy].size;
	}
	pthread_mutex_unlock(&lock);
	return fd;
}

void st_prepared_keep(int copy, int copies, const char *path, uint64_t want, int direct, int fd,
		      uint64_t size)
{
	if (copy < 0 || copy >= SLOTS || strlen(path) >= sizeof(slot[0].path))
		return;
	pthread_mutex_lock(&lock);
	init_locked();
	if (slot[copy].fd >= 0)
		close(slot[copy].fd);
	slot[copy].fd = dup(fd);
	snprintf(slot[copy].path, sizeof(slot[copy].path), "%s", path);
	slot[copy].want = want;
	slot[copy].size = size;
	slot[copy].direct = direct;
	slot[copy].copies = copies;
	pthread_mutex_unlock(&lock);
}

void st_prepared_drop(void)
{
	pthread_mutex_lock(&lock);
	init_locked();
	for (int i = 0; i < SLOTS; i++)
		if (slot[i].fd >= 0) {
			close(slot[i].fd);
			slot[i].fd = -1;
		}
	pthread_mutex_unlock(&lock);
}
