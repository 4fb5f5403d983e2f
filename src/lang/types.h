/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Types of the sonde language. Integers of every width, strings (a buffer
 * of fixed capacity, NUL terminated), pointers (kernel or user memory),
 * kernel structs and arrays resolved from vmlinux BTF, and the opaque
 * stack types. Every type knows how it prints (type_fmt_value), so output
 * is driven by types rather than by special cases per built-in.
 */
#ifndef SONDE_LANG_TYPES_H
#define SONDE_LANG_TYPES_H

#include <stdint.h>
#include <stdio.h>

enum tkind {
	TY_VOID,
	TY_INT,
	TY_STR,	   /* size = capacity, value lives in a buffer */
	TY_PTR,	   /* ref = pointee (NULL: void), user = user-space memory */
	TY_STRUCT, /* kernel struct/union from BTF; never a value, only a place */
	TY_ARRAY,  /* kernel array from BTF (not char: those are strings) */
	TY_STACK,  /* kernel stack: STACK_DEPTH u64 PCs */
	TY_USTACK, /* user stack: pid then STACK_DEPTH u64 PCs */
	TY_SYM,	   /* address to symbolise (usym()...): a scalar in code, a
		    * pid then the address in records and keys; user, fmt */
};

/* How an integer prints besides as a number. */
enum tfmt {
	TF_NONE,
	TF_SYSCALL, /* syscall number: prints its name */
	TF_ERRNO,   /* errno value: prints as a number, named in JSON */
	TF_SYMOFF,  /* TY_SYM: module`symbol+0xoff */
	TF_SYMBOL,  /* TY_SYM: module`symbol */
	TF_MODULE,  /* TY_SYM: module */
};

/* A member of a struct without BTF (tracepoint records, tpformat.c). */
struct type_field {
	char *name;
	struct type *t;
	int offset;
	int dataloc; /* __data_loc: a u32 (len << 16 | offset in the record) */
};

struct type {
	enum tkind k;
	int size;   /* bytes (ints: 1/2/4/8; strings: capacity) */
	int sign;   /* ints: signed */
	int user;   /* pointers and strings read from user memory */
	int padded; /* strings: bytes after the NUL are zero */
	int nelem;  /* arrays */
	int btf_id; /* structs/arrays/pointee in vmlinux BTF, 0 = none */
	enum tfmt fmt;
	struct type *ref;	   /* pointers: pointee; arrays: element */
	const char *name;	   /* for diagnostics and -S */
	struct type_field *fields; /* structs without BTF: owned, name too */
	int nfields;
	struct type *next_alloc;
};

#define STACK_DEPTH 32

extern struct type t_void, t_s8, t_u8, t_s16, t_u16, t_s32, t_u32, t_s64, t_u64, t_voidp, t_uvoidp,
	t_stack, t_ustack, t_usymoff;

/* A new type owned by the pool (freed by types_free). */
struct type *type_alloc(const struct type *proto);
struct type *type_str(int cap, int padded);
struct type *type_ptr(struct type *ref, int user);
struct type *type_int(int size, int sign);
/* Looks up a type name as written in a cast or sizeof: "int", "uint32_t",
 * "unsigned long", "char *", "struct task_struct *", "struct task_struct"
 * (struct values and void are for sizeof; sema refuses them in casts);
 * NULL if unknown. */
struct type *type_parse_name(const char *name, char *err, size_t errlen);
int type_is_int(const struct type *t);
int type_is_scalar(const struct type *t); /* int or pointer */
/* Human-readable name, e.g. "string[128]", "struct task_struct *". */
const char *type_name(const struct type *t, char *buf, size_t len);
/* Bytes a value of t takes in a tuple key or record slot (8-aligned). */
int type_slot_size(const struct type *t);
/* Usual arithmetic conversion of two integer types. */
struct type *type_arith(const struct type *a, const struct type *b);
void types_free(void);

/* --- BTF (src/lang/btf.c): kernel types, loaded on first use --------- */
struct btf_member_info {
	struct type *t;
	int offset;   /* bytes from the start of the struct */
	int bitfield; /* bitfields cannot be read safely: rejected */
	int dataloc;  /* tracepoint __data_loc field */
};
/* Loads /sys/kernel/btf/vmlinux once; 0 or -errno with *err set. */
int lbtf_load(char *err, size_t errlen);
/* Converts a BTF type id into a sonde type. */
struct type *lbtf_type(int id);
/* struct NAME (or union) as a sonde type, NULL if unknown. */
struct type *lbtf_struct(const char *name);
/* Member of the struct type st; 0 or -ENOENT. Looks into anonymous
 * members. */
int lbtf_member(const struct type *st, const char *name, struct btf_member_info *mi);
/* Offset of a member of struct NAME, or -1 (used for runtime layouts). */
int lbtf_offsetof(const char *sname, const char *member);
/* BTF id of the typedef btf_trace_NAME (for tp_btf), or -ENOENT. */
int lbtf_trace_id(const char *tp);
void lbtf_free(void);

#endif
