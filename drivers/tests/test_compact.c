// SPDX-License-Identifier: MIT
/*
 * test_compact.c - jointer_compact_decode against the Python model
 * (compact_vectors.h, written by gen_compact_vectors.py from
 * sim/jointer_sim/compact.py): whole streams, chunked calls with small
 * output buffers, a reader starting in the middle, units computed by hand,
 * argument and malformed-unit errors.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "jointer.h"
#include "jointer_compact.h"
#include "jt_test.h"
#include "compact_vectors.h"

int jt_failed;

#define NV (sizeof cv_vectors / sizeof cv_vectors[0])
static jointer_trace_record buf[1024];

static int same_recs(const jointer_trace_record *got, const uint32_t *want, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (got[i].timestamp != want[2 * i] || got[i].data != want[2 * i + 1]) {
            printf("  record %u: %08x %08x, model %08x %08x\n", (unsigned)i,
                   (unsigned)got[i].timestamp, (unsigned)got[i].data, (unsigned)want[2 * i],
                   (unsigned)want[2 * i + 1]);
            return 0;
        }
    return 1;
}

TEST(whole_streams)
{
    for (size_t v = 0; v < NV; v++) {
        const cv_vector *cv = &cv_vectors[v];
        jointer_compact_state st;
        uint32_t n = 0, skipped = 0;
        jointer_compact_reset(&st);
        CHECK(cv->n_recs <= 1024);
        CHECK_EQ(jointer_compact_decode(&st, cv->units, cv->n_units, buf, 1024, &n, &skipped),
                 cv->n_units);
        CHECK_EQ(n, cv->n_recs);
        CHECK_EQ(skipped, 0);
        CHECK(same_recs(buf, cv->recs, n));
        CHECK_EQ(st.ts, cv->recs[2 * n - 2]);
        CHECK_EQ(st.data, cv->recs[2 * n - 1]);
    }
}

/* max = 1..4 records per call: every call stops before a unit that does not
 * fit, consumes at least one unit when one fits, and the concatenation is
 * the whole stream */
TEST(chunked_calls)
{
    for (size_t v = 0; v < NV; v++) {
        const cv_vector *cv = &cv_vectors[v];
        for (uint32_t max = 1; max <= 4; max++) {
            jointer_compact_state st;
            uint32_t pos = 0, total = 0, n;
            jointer_compact_reset(&st);
            while (pos < cv->n_units) {
                int r = jointer_compact_decode(&st, cv->units + pos, cv->n_units - pos, buf + total,
                                               max, &n, NULL);
                CHECK(r >= 0);
                CHECK(n <= max);
                if (r == 0) { /* only when the next unit holds more than max records */
                    CHECK(jointer_compact_unit_records(cv->units[pos]) > max);
                    break;
                }
                if (pos + (uint32_t)r < cv->n_units)
                    CHECK(n + jointer_compact_unit_records(cv->units[pos + (uint32_t)r]) > max);
                pos += (uint32_t)r;
                total += n;
            }
            if (max >= 3) {
                CHECK_EQ(pos, cv->n_units);
                CHECK_EQ(total, cv->n_recs);
            }
            CHECK(same_recs(buf, cv->recs, total));
        }
    }
}

TEST(reader_in_the_middle)
{
    for (size_t v = 0; v < NV; v++) {
        const cv_vector *cv = &cv_vectors[v];
        jointer_compact_state st;
        uint32_t n = 0, skipped = 0, k = cv->n_recs - cv->start_recs;
        jointer_compact_reset(&st);
        CHECK_EQ(jointer_compact_decode(&st, cv->units + cv->start, cv->n_units - cv->start, buf,
                                        1024, &n, &skipped), cv->n_units - cv->start);
        CHECK_EQ(skipped, cv->start_skipped);
        CHECK_EQ(n, cv->start_recs);
        /* same data; timestamps equal modulo 2^30 (the first SYNC carries 30 bits) */
        for (uint32_t i = 0; i < n; i++) {
            CHECK_EQ(buf[i].data, cv->recs[2 * (k + i) + 1]);
            CHECK_EQ((buf[i].timestamp - cv->recs[2 * (k + i)]) & 0x3FFFFFFFu, 0);
        }
    }
}

TEST(units_by_hand)
{
    /* SYNC ts 0x12345678 data 0xCAFEF00D, then a TRIPLE (+1, +2, +3; data low bits 1, 2, 3),
     * a PAIR (+0x1000 data ..ABCD, +0x2000 data ..1234), a LONG (+0x20000, data 0x10000) */
    const uint64_t u[] = {
        0x12345678CAFEF00Dull,
        (3ull << 62) | (((1ull << 10) | 1u) << 40) | (((2ull << 10) | 2u) << 20) | ((3u << 10) | 3u),
        (2ull << 62) | (((0x1000ull << 16) | 0xABCDu) << 31) | ((0x2000u << 16) | 0x1234u),
        (1ull << 62) | (0x20000ull << 32) | 0x10000u,
    };
    const uint32_t want[] = {0x12345678u, 0xCAFEF00Du, 0x12345679u, 0xCAFEF001u,
                             0x1234567Bu, 0xCAFEF002u, 0x1234567Eu, 0xCAFEF003u,
                             0x1234667Eu, 0xCAFEABCDu, 0x1234867Eu, 0xCAFE1234u,
                             0x1236867Eu, 0x00010000u};
    jointer_compact_state st;
    uint32_t n, skipped = 0;
    jointer_compact_reset(&st);
    CHECK_EQ(jointer_compact_decode(&st, u, 4, buf, 16, &n, &skipped), 4);
    CHECK_EQ(n, 7);
    CHECK(same_recs(buf, want, 7));
    /* a later SYNC: T with T mod 2^30 = v and T - ts in [0, 2^30), across the 32-bit wrap */
    st.ts = 0xFFFFFFF0u;
    const uint64_t s = (uint64_t)0x00000010u << 32 | 5u;  /* v = 0x10: T = 0x00000010 */
    CHECK_EQ(jointer_compact_decode(&st, &s, 1, buf, 1, &n, NULL), 1);
    CHECK_EQ(buf[0].timestamp, 0x00000010u);
    st.ts = 0x7FFFFFF0u;                                 /* v = 0x10: T = 0x80000010 */
    CHECK_EQ(jointer_compact_decode(&st, &s, 1, buf, 1, &n, NULL), 1);
    CHECK_EQ(buf[0].timestamp, 0x80000010u);
    /* units before the first SYNC are skipped, whatever they are; *skipped is added to */
    jointer_compact_reset(&st);
    skipped = 10;
    CHECK_EQ(jointer_compact_decode(&st, u + 1, 3, buf, 16, &n, &skipped), 3);
    CHECK_EQ(n, 0);
    CHECK_EQ(skipped, 13);
}

TEST(errors)
{
    jointer_compact_state st;
    const uint64_t u[] = {5ull << 32, 1ull << 62 | 1ull << 32, (3ull << 62) | (1ull << 60), 7ull << 32};
    uint32_t n = 7, skipped = 7;
    jointer_compact_reset(&st);
    CHECK_EQ(jointer_compact_decode(NULL, u, 1, buf, 1, &n, NULL), -EINVAL);
    CHECK_EQ(jointer_compact_decode(&st, NULL, 1, buf, 1, &n, NULL), -EINVAL);
    CHECK_EQ(jointer_compact_decode(&st, u, 1, NULL, 1, &n, NULL), -EINVAL);
    CHECK_EQ(jointer_compact_decode(&st, u, 1, buf, 1, NULL, NULL), -EINVAL);
    CHECK_EQ(jointer_compact_decode(&st, NULL, 0, NULL, 0, &n, NULL), 0);
    CHECK_EQ(n, 0);
    /* a malformed TRIPLE after two good units: they are decoded, the call stops before it */
    CHECK_EQ(jointer_compact_decode(&st, u, 4, buf, 16, &n, &skipped), 2);
    CHECK_EQ(n, 2);
    CHECK_EQ(buf[1].timestamp, 6);
    CHECK_EQ(jointer_compact_decode(&st, u + 2, 2, buf, 16, &n, &skipped), -EILSEQ);
    CHECK_EQ(n, 0);
    CHECK_EQ(st.ts, 6);                           /* unchanged */
    /* skip it, resynchronise at the next SYNC */
    jointer_compact_reset(&st);
    CHECK_EQ(jointer_compact_decode(&st, u + 3, 1, buf, 16, &n, &skipped), 1);
    CHECK_EQ(n, 1);
    CHECK_EQ(buf[0].timestamp, 7);
    /* before the first SYNC a malformed unit is only skipped */
    jointer_compact_reset(&st);
    skipped = 0;
    CHECK_EQ(jointer_compact_decode(&st, u + 2, 2, buf, 16, &n, &skipped), 2);
    CHECK_EQ(skipped, 1);
    CHECK_EQ(n, 1);
    /* max 0: nothing fits, nothing consumed (a SYNC needs one record) */
    jointer_compact_reset(&st);
    CHECK_EQ(jointer_compact_decode(&st, u, 1, NULL, 0, &n, NULL), 0);
    jointer_compact_reset(NULL);                  /* no crash */
}

static const jt_case cases[] = {
    JT_CASE(whole_streams),
    JT_CASE(chunked_calls),
    JT_CASE(reader_in_the_middle),
    JT_CASE(units_by_hand),
    JT_CASE(errors),
};

int main(int argc, char **argv)
{
    return jt_run("test_compact", cases, sizeof cases / sizeof cases[0], argc, argv);
}
