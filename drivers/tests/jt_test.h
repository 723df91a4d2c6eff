/* SPDX-License-Identifier: MIT */
/*
 * jt_test.h - a tiny test runner (no dependency): TEST(name) defines a case,
 * CHECK/CHECK_EQ fail it with file:line and the values; RUN_TESTS runs the
 * table and returns the exit status. Works native, under qemu-user and the
 * sanitizers.
 */
#ifndef JT_TEST_H
#define JT_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef struct jt_case {
    const char *name;
    void (*fn)(void);
} jt_case;

extern int jt_failed;

#define TEST(name) static void name(void)
#define CHECK(c)                                                                 \
    do {                                                                         \
        if (!(c)) {                                                              \
            printf("  FAIL %s:%d: %s\n", __FILE__, __LINE__, #c);                \
            jt_failed = 1;                                                       \
            return;                                                              \
        }                                                                        \
    } while (0)
#define CHECK_EQ(a, b)                                                           \
    do {                                                                         \
        long long jt_a = (long long)(a), jt_b = (long long)(b);                  \
        if (jt_a != jt_b) {                                                      \
            printf("  FAIL %s:%d: %s == %s (0x%llx != 0x%llx, %lld != %lld)\n",  \
                   __FILE__, __LINE__, #a, #b, (unsigned long long)jt_a,         \
                   (unsigned long long)jt_b, jt_a, jt_b);                        \
            jt_failed = 1;                                                       \
            return;                                                              \
        }                                                                        \
    } while (0)
#define CHECK_OK(e) CHECK_EQ((e), 0)
#define CHECK_STR(a, b)                                                          \
    do {                                                                         \
        const char *jt_s = (a), *jt_t = (b);                                     \
        if (strcmp(jt_s, jt_t) != 0) {                                           \
            printf("  FAIL %s:%d: %s == \"%s\" (\"%s\")\n", __FILE__, __LINE__,  \
                   #a, jt_t, jt_s);                                              \
            jt_failed = 1;                                                       \
            return;                                                              \
        }                                                                        \
    } while (0)

static inline int jt_run(const char *suite, const jt_case *cases, size_t n, int argc, char **argv)
{
    int bad = 0;
    size_t ran = 0;
    for (size_t i = 0; i < n; i++) {
        if (argc > 1 && strstr(cases[i].name, argv[1]) == NULL)
            continue;
        jt_failed = 0;
        cases[i].fn();
        ran++;
        if (jt_failed) {
            printf("FAIL %s.%s\n", suite, cases[i].name);
            bad++;
        }
    }
    printf("%s: %zu test cases, %d failed\n", suite, ran, bad);
    return bad != 0;
}

#define JT_CASE(f) {#f, f}

#endif
