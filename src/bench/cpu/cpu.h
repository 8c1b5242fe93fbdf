/* SPDX-License-Identifier: MIT */
/* The CPU group: Dhrystone, Whetstone, Linpack, the BYTEmark workloads. */
#ifndef PG_BENCH_CPU_H
#define PG_BENCH_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "core/bench.h"

/* The clock in MHz for per-MHz figures, and in how a sentence saying where it
 * came from (cpufreq, or measured and why). */
double pg_cpu_clock_mhz(int cpu, char *how, size_t len);
/* The clock measured with a chain of dependent adds, in MHz. */
double pg_cpu_measure_mhz(void);

/* The copies parameter every cpu.* benchmark shares. */
#define PG_CPU_COPIES_PARAM                                                        \
	{ .name = "copies", .type = PG_P_INT, .def = "1", .min = 1, .max = 1024,    \
	  .help = "copies running at once, one per thread (pinned with --cpu); "    \
		  "the figures add up" }

/* What one Whetstone pass leaves behind in each module. */
struct whet_result {
	double x1[4], e2[4], e3[4], x7, y7, z8, e9[4], x11;
	int j4, j6, k6, l6;
};
/* 0 when r is what a correct pass leaves; else -1 and why. */
int pg_whetstone_check(const struct whet_result *r, char *why, size_t len);

/* max|Ax - b| / (n max|A| max|x| eps) for the LINPACK system; r: n doubles of scratch. */
double pg_linpack_residual(const double *a0, int lda, int n, const double *b0, const double *x,
			   double norma, double *r);

/* The BYTEmark workloads' own checks, for the tests. */
int pg_nbench_numsort_check(const long *a, size_t n, unsigned long sum, unsigned long xr);
int pg_nbench_fourier_check(const double *a, const double *b, int n, char *why, size_t len);

extern const struct pg_bench pg_cpu_dhrystone, pg_cpu_whetstone, pg_cpu_linpack;
/* 0 when IDEA gives the published test vector's ciphertext and back. */
int pg_nbench_idea_selftest(void);
/* 0 when x solves the LU test's system (x_i = 1 + i / n). */
int pg_nbench_lu_check(const double *x, int n);
/* 0 when the string sort's strings are in order and unchanged in sum. */
int pg_nbench_strsort_check(const unsigned long *off, const unsigned char *s, unsigned long n,
			    unsigned long sum);
/* 0 when the assignment test's marks are one zero per row and column. */
int pg_nbench_assign_check(const long *t, const short *a, int n);
/* 0 when the Huffman test decompressed its text back and compressed it. */
int pg_nbench_huffman_check(const char *plain, const char *decomp, long n, long bits);
/* 0 when the bitfield test's bitmap equals the expected one. */
int pg_nbench_bitfield_check(const unsigned long long *map, const unsigned long long *want);

/* The emulator's own check on its data (0 when every result of a pass is
 * what the FPU gives), and a[2], b[2] of that data; one emulated operation
 * ('+', '-', '*', '/') on two integers, as a double. */
int pg_nbench_fpemu_selftest(double *a2, double *b2, char *why, size_t len);
double pg_nbench_fpemu_op(int op, double x, double y);
/* Passes the neural net takes to learn its ten letters; -1 and why if it
 * does not. */
long pg_nbench_nnet_passes(char *why, size_t len);

extern const struct pg_bench pg_cpu_nbench_numsort, pg_cpu_nbench_fourier, pg_cpu_nbench_idea,
	pg_cpu_nbench_lu, pg_cpu_nbench_bitfield, pg_cpu_nbench_huffman,
	pg_cpu_nbench_strsort, pg_cpu_nbench_assign, pg_cpu_nbench_fpemu, pg_cpu_nbench_nnet;

/* The BYTEmark index (0 memory, 1 integer, 2 floating-point) of the ten
 * workloads' rates, in the table order of cpu.nbench.index; NAN when one
 * of its workloads has no rate. */
double pg_nbench_index_of(int which, const double *rates);
extern const struct pg_bench pg_cpu_nbench_index, pg_cpu_scaling;

/* What a composite learns from a benchmark it ran: of its primary metric,
 * the median, the samples' cv, how many there were, and the standard error
 * of the median's log from them (pg_log_median_se; -1: fewer than 2). */
struct pg_cpu_other {
	double median, cv, se;
	int n;
	int copies;
};
/* Runs benchmark id (defaults, or one "name=value" override) through the
 * runner with this run's options; PG_OK, or its status with ctx->msg set. */
int pg_cpu_run_other(struct pg_ctx *ctx, const char *id, const char *override,
		     struct pg_cpu_other *out);

/* The standard error of sum_i w[i] log(o[i].median) over k independent
 * results, from each one's se, and its Welch-Satterthwaite degrees of
 * freedom (each se has n - 1) in *df: what a composite states of its
 * figure's log (pg_state_se). -1 when a result with a weight has no se. */
double pg_cpu_log_se(const struct pg_cpu_other *o, const double *w, int k, double *df);

extern const struct pg_bench pg_cpu_work_listmat, pg_cpu_work_state, pg_cpu_work_dct,
	pg_cpu_work_sha256, pg_cpu_work_lz, pg_cpu_work_parse, pg_cpu_work_fft, pg_cpu_work_nnet,
	pg_cpu_work_linalg, pg_cpu_work_score;
/* SHA-256 of len bytes (cpu.work.sha256's kernel). */
void pg_work_sha256(const void *data, size_t len, uint8_t out[32]);
/* Geometric mean of n positive values; NAN when one is not positive. */
double pg_work_geomean(const double *v, int n);

/* The guide's tables, one per classic suite, and "CPU benchmarks" for the
 * workloads and scaling. */
extern const struct pg_section pg_cpu_sec_dhrystone, pg_cpu_sec_whetstone, pg_cpu_sec_linpack,
	pg_cpu_sec_nbench, pg_cpu_sec_cpu;

#endif
