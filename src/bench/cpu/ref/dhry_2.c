/* SPDX-License-Identifier: MIT */
/*
 * Dhrystone 2.1, second translation unit: procedures 6 to 8 and functions 1
 * to 3, as the original's dhry_2.c holds them. Being apart from their
 * callers is what keeps a compiler without LTO from inlining them.
 */
#include <string.h>

#include "dhry.h"

void dhry_proc_6(enum dhry_ident enum_val_par, enum dhry_ident *enum_ref_par)
{
	*enum_ref_par = enum_val_par;
	if (!dhry_func_3(enum_val_par))
		*enum_ref_par = IDENT_4;
	switch (enum_val_par) {
	case IDENT_1:
		*enum_ref_par = IDENT_1;
		break;
	case IDENT_2:
		if (dhry_int_glob > 100)
			*enum_ref_par = IDENT_1;
		else
			*enum_ref_par = IDENT_4;
		break;
	case IDENT_3:
		*enum_ref_par = IDENT_2;
		break;
	case IDENT_4:
		break;
	case IDENT_5:
		*enum_ref_par = IDENT_3;
		break;
	}
}

void dhry_proc_7(dhry_int int_1_par_val, dhry_int int_2_par_val, dhry_int *int_par_ref)
{
	dhry_int int_loc = int_1_par_val + 2;
	*int_par_ref = int_2_par_val + int_loc;
}

void dhry_proc_8(dhry_arr1 arr_1_par_ref, dhry_arr2 arr_2_par_ref, dhry_int int_1_par_val,
		 dhry_int int_2_par_val)
{
	dhry_int int_loc = int_1_par_val + 5;

	arr_1_par_ref[int_loc] = int_2_par_val;
	arr_1_par_ref[int_loc + 1] = arr_1_par_ref[int_loc];
	arr_1_par_ref[int_loc + 30] = int_loc;
	for (dhry_int i = int_loc; i <= int_loc + 1; ++i)
		arr_2_par_ref[int_loc][i] = int_loc;
	arr_2_par_ref[int_loc][int_loc - 1] += 1;
	arr_2_par_ref[int_loc + 20][int_loc] = arr_1_par_ref[int_loc];
	dhry_int_glob = 5;
}

enum dhry_ident dhry_func_1(char ch_1_par_val, char ch_2_par_val)
{
	char ch_1_loc = ch_1_par_val;
	char ch_2_loc = ch_1_loc;

	if (ch_2_loc != ch_2_par_val)
		return IDENT_1;
	dhry_ch_1_glob = ch_1_loc;
	return IDENT_2;
}

int dhry_func_2(dhry_str30 str_1_par_ref, dhry_str30 str_2_par_ref)
{
	dhry_int int_loc = 2;
	char ch_loc = 0;

	while (int_loc <= 2)
		if (dhry_func_1(str_1_par_ref[int_loc], str_2_par_ref[int_loc + 1]) == IDENT_1) {
			ch_loc = 'A';
			int_loc += 1;
		}
	if (ch_loc >= 'W' && ch_loc < 'Z')
		int_loc = 7;
	if (ch_loc == 'R')
		return 1;
	if (strcmp(str_1_par_ref, str_2_par_ref) > 0) {
		int_loc += 7;
		dhry_int_glob = int_loc;
		return 1;
	}
	return 0;
}

int dhry_func_3(enum dhry_ident enum_par_val)
{
	enum dhry_ident enum_loc = enum_par_val;
	return enum_loc == IDENT_3;
}
