/* SPDX-License-Identifier: MIT */
/*
 * Dhrystone 2.1, first translation unit: the main loop and procedures 1 to 5,
 * as the original's dhry_1.c holds them.
 */
#include <string.h>

#include "dhry.h"

_Thread_local struct dhry_rec *dhry_ptr_glob, *dhry_next_ptr_glob;
_Thread_local dhry_int dhry_int_glob;
_Thread_local int dhry_bool_glob;
_Thread_local char dhry_ch_1_glob, dhry_ch_2_glob;
_Thread_local dhry_arr1 dhry_arr_1_glob;
_Thread_local dhry_arr2 dhry_arr_2_glob;

void dhry_init(struct dhry_rec *glob, struct dhry_rec *next, struct dhry_locals *l)
{
	dhry_next_ptr_glob = next;
	dhry_ptr_glob = glob;
	glob->ptr_comp = next;
	glob->discr = IDENT_1;
	glob->var.v1.enum_comp = IDENT_3;
	glob->var.v1.int_comp = 40;
	strcpy(glob->var.v1.str_comp, "DHRYSTONE PROGRAM, SOME STRING");
	strcpy(l->str_1, "DHRYSTONE PROGRAM, 1'ST STRING");
	dhry_arr_2_glob[8][7] = 10;
}

/*
 * One pass is one Dhrystone. The locals live in registers or on the stack
 * as in the original's main(); they are stored to *l only at the end.
 */
void dhry_loop(long first, long runs, struct dhry_locals *l)
{
	dhry_int int_1 = 0, int_2 = 0, int_3 = 0;
	enum dhry_ident enum_loc = IDENT_1;
	dhry_str30 str_2;
	char ch_index;

	for (long run = first; run < first + runs; run++) {
		dhry_proc_5();
		dhry_proc_4();
		int_1 = 2;
		int_2 = 3;
		strcpy(str_2, "DHRYSTONE PROGRAM, 2'ND STRING");
		enum_loc = IDENT_2;
		dhry_bool_glob = !dhry_func_2(l->str_1, str_2);
		while (int_1 < int_2) {
			int_3 = 5 * int_1 - int_2;
			dhry_proc_7(int_1, int_2, &int_3);
			int_1 += 1;
		}
		dhry_proc_8(dhry_arr_1_glob, dhry_arr_2_glob, int_1, int_3);
		dhry_proc_1(dhry_ptr_glob);
		for (ch_index = 'A'; ch_index <= dhry_ch_2_glob; ++ch_index) {
			if (enum_loc == dhry_func_1(ch_index, 'C')) {
				/* never taken, as in the original */
				dhry_proc_6(IDENT_1, &enum_loc);
				strcpy(str_2, "DHRYSTONE PROGRAM, 3'RD STRING");
				int_2 = (dhry_int)run;
				dhry_int_glob = (dhry_int)run;
			}
		}
		int_2 = int_2 * int_1;
		int_1 = int_2 / int_3;
		int_2 = 7 * (int_2 - int_3) - int_1;
		dhry_proc_2(&int_1);
	}
	l->int_1 = int_1;
	l->int_2 = int_2;
	l->int_3 = int_3;
	l->enum_loc = enum_loc;
	memcpy(l->str_2, str_2, sizeof(str_2));
}

void dhry_proc_1(struct dhry_rec *ptr_val_par)
{
	struct dhry_rec *next_record = ptr_val_par->ptr_comp;

	*ptr_val_par->ptr_comp = *dhry_ptr_glob;
	ptr_val_par->var.v1.int_comp = 5;
	next_record->var.v1.int_comp = ptr_val_par->var.v1.int_comp;
	next_record->ptr_comp = ptr_val_par->ptr_comp;
	dhry_proc_3(&next_record->ptr_comp);
	if (next_record->discr == IDENT_1) {
		next_record->var.v1.int_comp = 6;
		dhry_proc_6(ptr_val_par->var.v1.enum_comp, &next_record->var.v1.enum_comp);
		next_record->ptr_comp = dhry_ptr_glob->ptr_comp;
		dhry_proc_7(next_record->var.v1.int_comp, 10, &next_record->var.v1.int_comp);
	} else {
		*ptr_val_par = *ptr_val_par->ptr_comp;
	}
}

void dhry_proc_2(dhry_int *int_par_ref)
{
	dhry_int int_loc = *int_par_ref + 10;
	enum dhry_ident enum_loc = IDENT_2;

	do {
		if (dhry_ch_1_glob == 'A') {
			int_loc -= 1;
			*int_par_ref = int_loc - dhry_int_glob;
			enum_loc = IDENT_1;
		}
	} while (enum_loc != IDENT_1);
}

void dhry_proc_3(struct dhry_rec **ptr_ref_par)
{
	if (dhry_ptr_glob != NULL)
		*ptr_ref_par = dhry_ptr_glob->ptr_comp;
	dhry_proc_7(10, dhry_int_glob, &dhry_ptr_glob->var.v1.int_comp);
}

void dhry_proc_4(void)
{
	int bool_loc = dhry_ch_1_glob == 'A';
	dhry_bool_glob = bool_loc | dhry_bool_glob;
	dhry_ch_2_glob = 'B';
}

void dhry_proc_5(void)
{
	dhry_ch_1_glob = 'A';
	dhry_bool_glob = 0;
}
