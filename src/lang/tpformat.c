// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint records typed from tracefs format files
 * (events/CATEGORY/NAME/format), the record layout the kernel writes:
 *
 *	field:const char * filename;	offset:24;	size:8;	signed:0;
 *	field:__data_loc char[] name;	offset:8;	size:4;	signed:0;
 *
 * Each field becomes a member of a synthetic struct type (type_field).
 * A __data_loc field holds a u32 locating variable-length data inside
 * the record: offset from the record start in the low 16 bits, length in
 * the high 16. `char[]` ones read as strings, others as a pointer to the
 * first element. The syscalls category (sys_enter_NAME/sys_exit_NAME)
 * stores each argument in an 8-byte slot; pointers there are user
 * addresses (copyinstr(args->filename)).
 */
#include <stdlib.h>
#include <string.h>

#include "lang/prov.h"

/* Type of a declaration without its name ("const char *", "pid_t"). */
static struct type *decl_type(char *decl, int size, int sign, int user)
{
	char err[128];
	struct type *t;

	while (!strncmp(decl, "const ", 6) || !strncmp(decl, "volatile ", 9))
		decl += decl[0] == 'c' ? 6 : 9;
	t = type_parse_name(decl, err, sizeof(err));
	if (t && t->k == TY_PTR && user)
		return type_ptr(t->ref, 1);
	if (t && (t->k == TY_PTR || (t->k == TY_INT && t->size <= size)))
		return t;
	if (strchr(decl, '*'))
		return user ? &t_uvoidp : &t_voidp;
	/* typedefs the type parser does not know (umode_t, gfp_t...) */
	return type_int(size == 1 || size == 2 || size == 4 ? size : 8, sign);
}

/* Parses "DECL NAME[N]" into the field f; 0 or -1 (not a field line). */
static int field_parse(char *line, struct type_field *f, int strsize, int user)
{
	char *decl = strstr(line, "field:"), *semi, *name, *br;
	int off, size, sign = 0;
	char *o = strstr(line, "offset:"), *s = strstr(line, "size:"), *g = strstr(line, "signed:");

	if (!decl || !o || !s || sscanf(o, "offset:%d", &off) != 1 ||
	    sscanf(s, "size:%d", &size) != 1)
		return -1;
	if (g)
		sscanf(g, "signed:%d", &sign);
	decl += 6;
	semi = strchr(decl, ';');
	if (!semi)
		return -1;
	*semi = 0;
	br = strchr(decl, '[');
	f->dataloc = !strncmp(decl, "__data_loc ", 11);
	if (f->dataloc)
		decl += 11;
	name = strrchr(decl, ' ');
	if (!name)
		return -1;
	*name++ = 0;
	if (f->dataloc && br)
		*br = 0; /* "char[]" -> "char" */
	else if ((br = strchr(name, '[')))
		*br = 0; /* "comm[16]" */
	f->name = strdup(name);
	f->offset = off;
	if (f->dataloc) {
		struct type *et = decl_type(decl, 8, 0, 0);

		f->t = et == &t_s8 ? type_str(strsize, 1) : type_ptr(et, 0);
	} else if (br && !strcmp(decl, "char")) {
		f->t = type_str(size, 0); /* char comm[16] */
	} else if (br) {
		struct type *et = decl_type(decl, 8, sign, 0);

		f->t = type_alloc(&(struct type){ .k = TY_ARRAY,
						  .size = size,
						  .nelem = et->size ? size / et->size : 0,
						  .ref = et,
						  .name = "array" });
	} else {
		f->t = decl_type(decl, size, sign, user);
	}
	return 0;
}

struct type *tpformat_struct(struct lcc *cc, const char *cat, const char *ev)
{
	const char *dir = prov_tracefs_dir();
	struct type proto = { .k = TY_STRUCT };
	char path[512], line[512];
	FILE *f;

	if (!dir) {
		prov_tracefs_error(cc, (struct loc){ 0, 0 });
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, cat, ev);
	f = fopen(path, "re");
	if (!f) {
		cc_error(cc, (struct loc){ 0, 0 },
			 "cannot read the format of tracepoint %s:%s (%s)", cat, ev, path);
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		struct type_field fl = { 0 };

		if (field_parse(line, &fl, cc->o->strsize, !strcmp(cat, "syscalls")))
			continue;
		proto.fields = realloc(proto.fields, (proto.nfields + 1) * sizeof(fl));
		if (!proto.fields)
			abort();
		proto.fields[proto.nfields++] = fl;
		if (fl.offset + 8 > proto.size)
			proto.size = fl.offset + 8;
	}
	fclose(f);
	if (!proto.nfields) {
		cc_error(cc, (struct loc){ 0, 0 }, "no fields in %s", path);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s:%s", cat, ev);
	proto.name = strdup(path); /* freed with the fields by types_free */
	return type_alloc(&proto);
}
