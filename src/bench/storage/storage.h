/* SPDX-License-Identifier: MIT */
/*
 * The storage group: fio's time-based jobs (sequential and random reads
 * and writes at a queue depth, through io_uring, libaio or pread/pwrite) on
 * a file of its own in a directory, on a file named, or on a block device.
 *
 * Three parts, as fio has them: an engine (io_uring.c, libaio.c, psync.c:
 * how I/Os are started and reaped), the job (job.c: which I/Os, for how
 * long, what is counted) and the target (target.c: the file or device, its
 * safety rules, the medium under it).
 */
#ifndef PG_BENCH_STORAGE_H
#define PG_BENCH_STORAGE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>

#include "core/bench.h"

/* One I/O. The engine fills res and, as fio does, issued_ns: after the
 * submission returned for the asynchronous engines, before the call for
 * psync; clat is the reaping time minus issued_ns. */
struct st_io {
	uint64_t offset;
	char *buf;
	uint32_t len;
	int write;
	uint64_t issued_ns;
	long res;		/* bytes moved, or -errno */
	struct iovec iov;	/* for engines that take vectors */
	void *engine_data;	/* the engine's own per-I/O record */
};

struct st_engine;

/* An engine opened on one descriptor, with room for depth I/Os in flight. */
struct st_eng {
	const struct st_engine *ops;
	int fd;
	int depth;
	void *priv;
};

struct st_engine {
	const char *name;
	/* The library this build lacks for it ("liburing"); NULL: built in. */
	const char *without;
	/* 0: every I/O completes inside submit (depth is 1 whatever is asked). */
	int async;
	/* 0, or -errno with err set (a kernel without io_uring: ENOSYS). */
	int (*init)(struct st_eng *e, struct st_io *ios, int nios, char *err, size_t errlen);
	/* Starts n I/Os. Returns how many were started (the first ones), or
	 * -errno when none was. */
	int (*submit)(struct st_eng *e, struct st_io **ios, int n);
	/* Waits until at least min I/Os completed; hands back at most max of
	 * them, res set. Returns how many, or -errno. */
	int (*reap)(struct st_eng *e, int min, int max, struct st_io **done);
	void (*exit)(struct st_eng *e);
};

extern const struct st_engine st_engine_io_uring, st_engine_libaio, st_engine_psync;

/* The engine called name, or NULL. */
const struct st_engine *st_engine_find(const char *name);

static inline uint64_t st_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The order of a job's offsets and the direction of each I/O. */
enum st_pattern { ST_SEQ_WRITE, ST_SEQ_READ, ST_RAND_READ, ST_RAND_WRITE, ST_RAND_RW };

struct st_kind {
	enum st_pattern pattern;
	int writes;		/* some I/Os write (needs --destroy-data on a device or file) */
	int reads;		/* some I/Os read: the file is laid out with data first */
	const char *name;	/* in the guide's column: "Write" */
};

/* What a job does and on what. */
struct st_job_spec {
	int fd;
	uint64_t size;		/* bytes of the target used: offsets below it */
	uint32_t bs;
	int depth;
	enum st_pattern pattern;
	int mix;		/* ST_RAND_RW: percent of I/Os that read */
	uint64_t seed;		/* random offsets and directions */
};

/* What a trial counted: I/Os completed in its measured window. */
struct st_counts {
	uint64_t bytes, ios;
	uint64_t read_bytes, write_bytes;
	double window_s;	/* the measured window: ramp end to last completion */
};

struct st_job;

/* A job with its buffers and engine: 0, or -errno with err set. */
int st_job_open(struct st_job **out, const struct st_job_spec *spec, const struct st_engine *eng,
		char *err, size_t errlen);
void st_job_close(struct st_job *j);

/*
 * One trial: I/Os for ramp_s seconds not counted, then for time_s seconds
 * (when max_ios is 0) or until max_ios I/Os were started (time_s ignored),
 * keeping depth of them in flight. I/Os in flight at the end are reaped and
 * counted, as fio does. Each completion in the window adds its latency (ns)
 * to hist when not NULL. *stop set (a signal) ends it early. Returns 0, or
 * -errno of the first failed I/O with err naming it (counts then hold what
 * completed before).
 */
int st_job_run(struct st_job *j, double ramp_s, double time_s, uint64_t max_ios,
	       volatile sig_atomic_t *stop, struct pg_hist *hist, struct st_counts *out,
	       char *err, size_t errlen);

/* A job's laid-out file kept for the run's next results
 * (prepared.c): take returns a new descriptor of the file kept for this
 * job, path, size, O_DIRECT and number of jobs, with its size, or -1; keep
 * holds fd's file for the next (the descriptor stays the caller's); drop
 * lets every kept file go. */
int st_prepared_take(int copy, int copies, const char *path, uint64_t want, int direct,
		     uint64_t *size);
void st_prepared_keep(int copy, int copies, const char *path, uint64_t want, int direct, int fd,
		      uint64_t size);
void st_prepared_drop(void);

/* Writes the first size bytes of fd with data (a job's own file), in
 * chunks of at least bs, then syncs; *stop ends it. 0 or -errno with err set. */
int st_layout(int fd, uint64_t size, uint32_t bs, int direct, volatile sig_atomic_t *stop,
	      char *err, size_t errlen);

/* "ENOSPC" for ENOSPC: the names errors are known by. */
const char *st_errno_name(int e);

/* --- the target: target.c --- */

enum st_target_type { ST_DIR, ST_FILE, ST_NEWFILE, ST_BLOCK };

struct st_medium {
	char medium[16];	/* emmc, sd, nvme, usb, sata, virtio, loop, ram, mtd, ... */
	char device[32];	/* mmcblk0p2 */
	char disk[32];		/* mmcblk0 */
	char model[64];
	/* The disk's queue/rotational: "yes" a spinning disk, "no" flash or
	 * memory; "" where sysfs does not say (no block device under it). */
	char rotational[4];
	char fs[32];		/* ext4; "raw" for a block device */
	char options[96];	/* the mount's options */
	int sync;		/* mounted sync: every write waits for the medium */
};

/* What the check saw at a path: its type, and the node (the directory a
 * file to make goes in), so that what is opened afterwards can be compared
 * with it. */
struct st_target {
	enum st_target_type type;
	struct stat st;		/* of path; of its directory for ST_NEWFILE */
	int link;		/* path (its directory) is a symbolic link: the user gave one */
};

/*
 * What path names, and whether the job may run there: a directory (a file
 * of our own goes in it), an existing file, a file to create, or a block
 * device. Writes to a device or to an existing file need destroy to repeat
 * path; a device that is mounted, or has a mounted partition or holders, is
 * never written. Returns 0, or -1 with err set: bad input, nothing touched.
 */
int st_target_examine(const char *path, int writes, const char *destroy, struct st_target *t,
		      char *err, size_t errlen);
/* The same, for the type alone, at planning: what it saw at path (a link
 * the user named or not, the node) is held for the run. */
int st_target_check(const char *path, int writes, const char *destroy,
		    enum st_target_type *type, char *err, size_t errlen);
/* At each result: the checks again, and what is at path must be what
 * planning saw (the same type and node); whether the user named a link is
 * planning's answer, not a new one. Without a plan for path (a setup run
 * alone), st_target_examine. */
int st_target_again(const char *path, int writes, const char *destroy, struct st_target *t, char *err,
		    size_t errlen);
/* Forgets the plans (tests). */
void st_target_plans_forget(void);

/* Opens what the check saw at path (open(2) flags; O_NOFOLLOW unless the
 * user gave a link), and makes sure it is that node: the same type and
 * device and inode (a block device: the same device number). A symbolic
 * link or another file or device swapped in between is refused. Returns
 * the descriptor, or -1 with err set. */
int st_target_open(const char *path, const struct st_target *t, int flags, char *err, size_t errlen);

/* The directory a path names its last component in: "/" for "/f", "." for "f". */
void st_parent_dir(const char *path, char *dir, size_t len);

/* The medium and file system under path (a directory, file or device),
 * from /proc/self/mountinfo and sysfs (rooted at pg_sysinfo_set_root). */
void st_medium_detect(const char *path, struct st_medium *m);
/* The same from the mountinfo text given and a device number: for tests. */
void st_medium_from(const char *mountinfo, const char *path, unsigned dev_major,
		    unsigned dev_minor, int is_block, struct st_medium *m);

/* The mounts of a block device or of its partitions: 0 none, 1 with what
 * set to "/dev/sdb1 is mounted on /mnt" (or a holder's name); -1 unknown. */
int st_device_busy(const char *mountinfo, unsigned dev_major, unsigned dev_minor,
		   char *what, size_t len);

/* /proc/self/mountinfo read whole (malloc'd), or NULL. */
char *st_read_mountinfo(void);

extern const struct pg_bench pg_storage_write, pg_storage_read, pg_storage_randread,
	pg_storage_randwrite, pg_storage_randrw;

#endif
