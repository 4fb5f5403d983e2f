// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target for the sonde language front end: lexing, parsing,
 * probe matching (providers that would open files are skipped), type
 * checking, code generation and register allocation over arbitrary bytes.
 * Never loads BPF. Scripts are hostile input: any crash, leak or UBSan
 * report is a bug. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lang/lang.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *src, err[1024];

	if (size > 1 << 16)
		return 0;
	src = malloc(size + 1);
	if (!src)
		return 0;
	memcpy(src, data, size);
	src[size] = 0;
	lang_check(src, err, sizeof(err));
	free(src);
	return 0;
}
