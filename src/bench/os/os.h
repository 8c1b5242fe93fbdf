/* SPDX-License-Identifier: MIT */
/* The operating-system group: what its benchmark files share. */
#ifndef PG_BENCH_OS_H
#define PG_BENCH_OS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/bench.h"

/* Seconds per call of fn(arg, n), which does n calls: n grows until one
 * run lasts 20 ms, and the best of five runs is kept. This is how a
 * benchmark measures, in setup, the overhead its reference tool subtracts. */
double os_time_per(void (*fn)(void *arg, uint64_t n), void *arg);

/* A private directory made under `base` (empty: $TMPDIR or /tmp); out gets
 * its path. Returns PG_OK, or a skip/error with the reason in ctx->msg. */
int os_private_dir(struct pg_ctx *ctx, const char *base, char *out, size_t len);
/* Removes what is under the private directory, then the directory itself. */
void os_remove_tree(const char *path);

/* A fresh ext4 (with a journal) of this process's own, mounted at mnt
 * (dir/fs) in a mount namespace of the calling thread's own, on a loop
 * device of a sparse image in dir that nothing keeps once the process
 * ends (ownfs.c). Needs root, loop devices and mkfs.ext4. 0, or -1 with
 * nothing made. */
int os_ownfs_make(const char *dir, char *mnt, size_t len);
/* Unmounts it (the loop device and the image go with it). */
void os_ownfs_remove(const char *mnt);

/* A child running fn(arg) and then _exit(0): it dies with its parent and
 * leaves Ctrl-C to the parent, which reaps it in teardown. Returns the pid,
 * or -1 with errno set. */
pid_t os_spawn(void (*fn)(void *arg), void *arg);
/* Kills (SIGKILL) and reaps a child os_spawn started; pid <= 0 is a no-op. */
void os_reap(pid_t pid);

/* write/read the whole buffer, retrying short transfers and EINTR;
 * 0, or -1 on error or end of file. */
int os_write_all(int fd, const void *buf, size_t len);
int os_read_all(int fd, void *buf, size_t len);

/* Where the processes of an exchange run, from a cpu= parameter (why: on a
 * VM a wake-up across CPUs costs 10x one on the same CPU, so a result whose
 * ends the scheduler places differs 10x from process to process):
 *   same    both ends on the first CPU this process may use (respects --cpu
 *           and taskset)
 *   spread  this process on the first, the peer on the second
 *   N       both on CPU N
 *   any     where the scheduler puts them (-1 in both)
 * Returns PG_OK, or a skip/error with the reason. */
struct os_place {
	int self, peer;
};
int os_place(struct pg_ctx *ctx, const char *how, struct os_place *p);
/* The check hook of a benchmark with a cpu= parameter. */
int os_check_cpu(const struct pg_args *a, char *err, size_t len);
/* Pins the calling thread, and so the children it forks afterwards, to CPU
 * `cpu` (-1: leaves it be). The peer is placed by calling this with
 * p.peer before forking it and with p.self after. */
int os_run_on(struct pg_ctx *ctx, int cpu);
/* The placement in words, for a note. */
void os_place_text(const struct os_place *p, char *buf, size_t len);

/* os_spawn of a peer placed by the benchmark's cpu= parameter, this process
 * placed too, and the placement in ctx->note. Returns PG_OK, or a skip or
 * error with the reason. */
int os_spawn_peer(struct pg_ctx *ctx, void (*fn)(void *arg), void *arg, pid_t *pid);

/* Pins the calling thread (and the children it forks) to one CPU given as
 * for os_place ("same", a number, or "any" for none); spread is refused.
 * Returns PG_OK or a skip with the reason. */
int os_pin(struct pg_ctx *ctx, const char *cpu);

extern const struct pg_bench pg_os_syscall_null, pg_os_syscall_read, pg_os_syscall_write,
	pg_os_syscall_stat, pg_os_syscall_fstat, pg_os_syscall_open;
extern const struct pg_bench pg_os_sig_install, pg_os_sig_catch, pg_os_sig_prot;
extern const struct pg_bench pg_os_proc_fork, pg_os_proc_exec, pg_os_proc_shell;
/* The helper process os.proc's children are forked from (proc.c): started
 * as `perfguide __lat-proc-helper KIND PROG`. */
#define OS_HELPER_LAT_PROC "__lat-proc-helper"
int os_proc_helper(int argc, char **argv);
extern const struct pg_bench pg_os_ctx;
extern const struct pg_bench pg_os_pipe_lat, pg_os_pipe_bw, pg_os_unix_lat, pg_os_unix_bw,
	pg_os_tcp_lat, pg_os_tcp_bw, pg_os_connect;
extern const struct pg_bench pg_os_select, pg_os_sem;
extern const struct pg_bench pg_os_pagefault, pg_os_mmap;
extern const struct pg_bench pg_os_fs_create, pg_os_fs_delete, pg_os_file_rd_io,
	pg_os_file_rd_o2c, pg_os_mmap_rd_mo, pg_os_mmap_rd_o2c;
extern const struct pg_bench pg_os_boot_kernel, pg_os_boot_userspace;

/* The guide's tables: LMBench, and Boot time for os.boot.*. */
extern const struct pg_section pg_os_sec_lmbench, pg_os_sec_boot;

#endif
