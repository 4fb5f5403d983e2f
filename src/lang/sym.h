/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel and user address symbolisation (sym.c). */
#ifndef SONDE_LANG_SYM_H
#define SONDE_LANG_SYM_H

#include <stddef.h>
#include <stdint.h>

#include "lang/types.h"

/* fmt: TF_SYMOFF (module`sym+0xoff), TF_SYMBOL (module`sym), TF_MODULE. */
void sym_kernel(uint64_t a, enum tfmt fmt, char *buf, size_t len);
void sym_user(uint64_t pid, uint64_t a, enum tfmt fmt, char *buf, size_t len);
/* The symbol or module start holding a (TF_SYMBOL, TF_MODULE), else a. */
uint64_t sym_normalize(uint64_t pid, uint64_t a, int user, enum tfmt fmt);
void sym_free(void);

#endif
