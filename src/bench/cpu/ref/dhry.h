/* SPDX-License-Identifier: MIT */
/*
 * The Dhrystone 2.1 workload, written from Weicker's published description
 * (CACM 1984, SIGPLAN Notices 1988): the same record types, procedures and
 * statement mix, split over two translation units as the original is, so
 * that no procedure can be inlined into another. Every procedure is marked
 * noinline and these files are built without link-time optimisation.
 *
 * The globals are per thread, so that copies running side by side (copies=N)
 * each have their own; on the reference tool they are plain globals.
 */
#ifndef PG_CPU_DHRY_H
#define PG_CPU_DHRY_H

#define DHRY_NOINLINE __attribute__((noinline))

enum dhry_ident { IDENT_1, IDENT_2, IDENT_3, IDENT_4, IDENT_5 };

typedef int dhry_int;
typedef char dhry_str30[31];
typedef int dhry_arr1[50];
typedef int dhry_arr2[50][50];

struct dhry_rec {
	struct dhry_rec *ptr_comp;
	enum dhry_ident discr;
	union {
		struct {
			enum dhry_ident enum_comp;
			dhry_int int_comp;
			dhry_str30 str_comp;
		} v1;
		struct {
			enum dhry_ident e_comp_2;
			dhry_str30 str_2_comp;
		} v2;
		struct {
			char ch_1_comp;
			char ch_2_comp;
		} v3;
	} var;
};

/* The program's global state. */
extern _Thread_local struct dhry_rec *dhry_ptr_glob, *dhry_next_ptr_glob;
extern _Thread_local dhry_int dhry_int_glob;
extern _Thread_local int dhry_bool_glob;
extern _Thread_local char dhry_ch_1_glob, dhry_ch_2_glob;
extern _Thread_local dhry_arr1 dhry_arr_1_glob;
extern _Thread_local dhry_arr2 dhry_arr_2_glob;

/* The main program's locals, kept so their final values can be checked. */
struct dhry_locals {
	dhry_int int_1, int_2, int_3;
	enum dhry_ident enum_loc;
	dhry_str30 str_1, str_2;
};

/* Sets up the records and globals as the main program does before timing. */
void dhry_init(struct dhry_rec *glob, struct dhry_rec *next, struct dhry_locals *l);
/* Runs runs passes of the main loop, numbering them from first. */
void dhry_loop(long first, long runs, struct dhry_locals *l);

/* dhry_1.c */
void dhry_proc_1(struct dhry_rec *ptr_val_par) DHRY_NOINLINE;
void dhry_proc_2(dhry_int *int_par_ref) DHRY_NOINLINE;
void dhry_proc_3(struct dhry_rec **ptr_ref_par) DHRY_NOINLINE;
void dhry_proc_4(void) DHRY_NOINLINE;
void dhry_proc_5(void) DHRY_NOINLINE;

/* dhry_2.c */
void dhry_proc_6(enum dhry_ident enum_val_par, enum dhry_ident *enum_ref_par) DHRY_NOINLINE;
void dhry_proc_7(dhry_int int_1_par_val, dhry_int int_2_par_val, dhry_int *int_par_ref) DHRY_NOINLINE;
void dhry_proc_8(dhry_arr1 arr_1_par_ref, dhry_arr2 arr_2_par_ref, dhry_int int_1_par_val,
		 dhry_int int_2_par_val) DHRY_NOINLINE;
enum dhry_ident dhry_func_1(char ch_1_par_val, char ch_2_par_val) DHRY_NOINLINE;
int dhry_func_2(dhry_str30 str_1_par_ref, dhry_str30 str_2_par_ref) DHRY_NOINLINE;
int dhry_func_3(enum dhry_ident enum_par_val) DHRY_NOINLINE;

#endif
