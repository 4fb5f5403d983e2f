// SPDX-License-Identifier: GPL-2.0
/* The sonde type system: fixed base types, and derived types (strings of
 * a capacity, pointers) allocated once and freed with types_free(). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lang/types.h"

struct type t_void = { .k = TY_VOID, .name = "void" };
struct type t_s8 = { .k = TY_INT, .size = 1, .sign = 1, .name = "int8_t" };
struct type t_u8 = { .k = TY_INT, .size = 1, .name = "uint8_t" };
struct type t_s16 = { .k = TY_INT, .size = 2, .sign = 1, .name = "int16_t" };
struct type t_u16 = { .k = TY_INT, .size = 2, .name = "uint16_t" };
struct type t_s32 = { .k = TY_INT, .size = 4, .sign = 1, .name = "int32_t" };
struct type t_u32 = { .k = TY_INT, .size = 4, .name = "uint32_t" };
struct type t_s64 = { .k = TY_INT, .size = 8, .sign = 1, .name = "int64_t" };
struct type t_u64 = { .k = TY_INT, .size = 8, .name = "uint64_t" };
struct type t_voidp = { .k = TY_PTR, .size = 8, .name = "void *" };
struct type t_uvoidp = { .k = TY_PTR, .size = 8, .user = 1, .name = "void *" };
struct type t_usymoff = { .k = TY_SYM, .size = 8, .user = 1, .fmt = TF_SYMOFF, .name = "uaddr" };
struct type t_stack = { .k = TY_STACK, .size = 8 * STACK_DEPTH, .name = "stack" };
struct type t_ustack = { .k = TY_USTACK, .size = 8 * (STACK_DEPTH + 1), .name = "ustack" };

static struct type *allocated;

struct type *type_alloc(const struct type *proto)
{
	struct type *t = malloc(sizeof(*t));

	if (!t)
		abort();
	*t = *proto;
	t->next_alloc = allocated;
	allocated = t;
	return t;
}

void types_free(void)
{
	while (allocated) {
		struct type *t = allocated;

		allocated = t->next_alloc;
		if (t->fields) {
			for (int i = 0; i < t->nfields; i++)
				free(t->fields[i].name);
			free(t->fields);
			free((char *)t->name);
		}
		free(t);
	}
}

struct type *type_str(int cap, int padded)
{
	for (struct type *t = allocated; t; t = t->next_alloc)
		if (t->k == TY_STR && t->size == cap && t->padded == padded && !t->user)
			return t;
	return type_alloc(
		&(struct type){ .k = TY_STR, .size = cap, .padded = padded, .name = "string" });
}

struct type *type_ptr(struct type *ref, int user)
{
	if (!ref || ref->k == TY_VOID)
		return user ? &t_uvoidp : &t_voidp;
	for (struct type *t = allocated; t; t = t->next_alloc)
		if (t->k == TY_PTR && t->ref == ref && t->user == user)
			return t;
	return type_alloc(&(struct type){ .k = TY_PTR, .size = 8, .ref = ref, .user = user });
}

struct type *type_int(int size, int sign)
{
	switch (size) {
	case 1:
		return sign ? &t_s8 : &t_u8;
	case 2:
		return sign ? &t_s16 : &t_u16;
	case 4:
		return sign ? &t_s32 : &t_u32;
	default:
		return sign ? &t_s64 : &t_u64;
	}
}

int type_is_int(const struct type *t)
{
	return t && t->k == TY_INT;
}

int type_is_scalar(const struct type *t)
{
	return t && (t->k == TY_INT || t->k == TY_PTR);
}

static const struct {
	const char *name;
	struct type *t;
} int_names[] = {
	{ "char", &t_s8 },
	{ "signed char", &t_s8 },
	{ "unsigned char", &t_u8 },
	{ "short", &t_s16 },
	{ "unsigned short", &t_u16 },
	{ "int", &t_s32 },
	{ "signed int", &t_s32 },
	{ "unsigned int", &t_u32 },
	{ "unsigned", &t_u32 },
	{ "signed", &t_s32 },
	{ "long", &t_s64 },
	{ "unsigned long", &t_u64 },
	{ "long long", &t_s64 },
	{ "unsigned long long", &t_u64 },
	{ "int8_t", &t_s8 },
	{ "int16_t", &t_s16 },
	{ "int32_t", &t_s32 },
	{ "int64_t", &t_s64 },
	{ "uint8_t", &t_u8 },
	{ "uint16_t", &t_u16 },
	{ "uint32_t", &t_u32 },
	{ "uint64_t", &t_u64 },
	{ "s8", &t_s8 },
	{ "s16", &t_s16 },
	{ "s32", &t_s32 },
	{ "s64", &t_s64 },
	{ "u8", &t_u8 },
	{ "u16", &t_u16 },
	{ "u32", &t_u32 },
	{ "u64", &t_u64 },
	{ "size_t", &t_u64 },
	{ "ssize_t", &t_s64 },
	{ "pid_t", &t_s32 },
	{ "uid_t", &t_u32 },
	{ "gid_t", &t_u32 },
	{ "uintptr_t", &t_u64 },
	{ "intptr_t", &t_s64 },
	{ "bool", &t_u8 },
	{ "void", &t_void },
};

struct type *type_parse_name(const char *name, char *err, size_t errlen)
{
	char base[200];
	int stars = 0;
	size_t n = strlen(name);
	struct type *t = NULL;

	while (n > 0 && (name[n - 1] == '*' || name[n - 1] == ' ')) {
		stars += name[n - 1] == '*';
		n--;
	}
	if (n >= sizeof(base)) {
		snprintf(err, errlen, "type name too long");
		return NULL;
	}
	memcpy(base, name, n);
	base[n] = 0;
	if (!strcmp(base, "string") && !stars)
		return type_str(128, 0);
	for (size_t i = 0; i < sizeof(int_names) / sizeof(int_names[0]); i++)
		if (!strcmp(base, int_names[i].name))
			t = int_names[i].t;
	if (!t && !strncmp(base, "struct ", 7)) {
		if (lbtf_load(err, errlen))
			return NULL;
		t = lbtf_struct(base + 7);
		if (!t) {
			snprintf(err, errlen,
				 "unknown type '%s': no such struct in the kernel's BTF", base);
			return NULL;
		}
	}
	if (!t) {
		snprintf(err, errlen, "unknown type '%s'", name);
		return NULL;
	}
	if (stars == 1 && t == &t_s8)
		return type_ptr(t, 0); /* char *: a kernel string pointer */
	while (stars--)
		t = type_ptr(t, 0);
	return t;
}

const char *type_name(const struct type *t, char *buf, size_t len)
{
	char sub[160];

	switch (t->k) {
	case TY_STR:
		snprintf(buf, len, "string[%d]", t->size);
		break;
	case TY_PTR:
		if (!t->ref)
			snprintf(buf, len, "%svoid *", t->user ? "user " : "");
		else
			snprintf(buf, len, "%s%s *", t->user ? "user " : "",
				 type_name(t->ref, sub, sizeof(sub)));
		break;
	case TY_ARRAY:
		snprintf(buf, len, "%s[%d]", t->ref ? type_name(t->ref, sub, sizeof(sub)) : "?",
			 t->nelem);
		break;
	default:
		snprintf(buf, len, "%s", t->name ? t->name : "?");
	}
	return buf;
}

int type_slot_size(const struct type *t)
{
	if (t->k == TY_SYM)
		return 16; /* pid, address */
	return (t->k == TY_STR || t->k == TY_STACK || t->k == TY_USTACK) ? (t->size + 7) & ~7 : 8;
}

struct type *type_arith(const struct type *a, const struct type *b)
{
	int size = a->size > b->size ? a->size : b->size;
	int sign;

	if (size < 4)
		return &t_s32; /* integer promotion */
	if (a->size == b->size)
		sign = a->sign && b->sign;
	else
		sign = a->size > b->size ? a->sign : b->sign;
	return type_int(size, sign);
}
