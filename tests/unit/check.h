/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal unit-test harness. A test file defines functions with TEST(name)
 * and lists them in main() with RUN(name). Each test prints "ok - name" or
 * "not ok - name"; tests/run.sh counts those lines. CHECK() records a failure
 * with its location and carries on, so one run reports every broken
 * assertion of a test.
 */
#ifndef SONDE_TEST_CHECK_H
#define SONDE_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failed_;
static int check_any_failed_;

#define TEST(name) static void test_##name(void)

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "%s:%d: CHECK(%s) failed\n",         \
				__FILE__, __LINE__, #cond);                  \
			check_failed_ = 1;                                   \
		}                                                            \
	} while (0)

#define CHECK_EQ_INT(a, b)                                                   \
	do {                                                                 \
		long long a_ = (long long)(a), b_ = (long long)(b);          \
		if (a_ != b_) {                                              \
			fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", \
				__FILE__, __LINE__, #a, a_, b_);             \
			check_failed_ = 1;                                   \
		}                                                            \
	} while (0)

#define CHECK_EQ_STR(a, b)                                                   \
	do {                                                                 \
		const char *a_ = (a), *b_ = (b);                             \
		if (!a_ || !b_ || strcmp(a_, b_)) {                          \
			fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", \
				__FILE__, __LINE__, #a, a_ ? a_ : "(null)",  \
				b_ ? b_ : "(null)");                         \
			check_failed_ = 1;                                   \
		}                                                            \
	} while (0)

#define RUN(name)                                                            \
	do {                                                                 \
		check_failed_ = 0;                                           \
		test_##name();                                               \
		printf("%s - %s\n", check_failed_ ? "not ok" : "ok", #name); \
		fflush(stdout);                                              \
		check_any_failed_ |= check_failed_;                          \
	} while (0)

#define CHECK_EXIT() return check_any_failed_ ? 1 : 0

#endif
