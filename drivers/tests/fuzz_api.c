// SPDX-License-Identifier: MIT
/*
 * fuzz_api.c - libFuzzer harness: random sequences of API calls with random
 * (mostly near-valid) arguments against the emulated monitor, with injected
 * bus errors. Checks: no crash or UB (ASan+UBSan), every return value is 0
 * or one of the documented negative errnos, results fit their width, the
 * mode shadow agrees with what was set, trace reads stay within bounds,
 * jointer_initialize succeeds only on a DCAPF with a filter.
 */
#include <stdint.h>
#include <string.h>

#include "jointer.h"
#include "jointer_recorder.h"
#include "mock/jointer_mock.h"

#include "accel_mon.h"
#include "trace_mon.h"
#include "two_lmic.h"

typedef struct {
    const uint8_t *p;
    size_t n;
} bytes;

static uint8_t u8(bytes *b)
{
    if (b->n == 0)
        return 0;
    b->n--;
    return *b->p++;
}

static uint32_t u32(bytes *b)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v = v << 8 | u8(b);
    return v;
}

/* an index that is valid most of the time */
static unsigned idx(bytes *b, unsigned count)
{
    uint8_t x = u8(b);
    return (x & 0x80) ? x : x % (count + 2u);
}

static void check_rc(int r)
{
    switch (-r) {
    case 0: case EINVAL: case ERANGE: case ENOBUFS: case ENOTSUP: case EIO:
    case ETIMEDOUT: case ENODEV: case EPROTONOSUPPORT: case ESTALE: case ENOTCONN:
        return;
    default:
        __builtin_trap();
    }
}

/* DCAPF m of sniffer (l, s) is described with a filter */
static int has_filter(const jointer_cfg *cfg, unsigned l, unsigned s, unsigned m)
{
    unsigned i, sd = cfg->lmics[l].first_sniffer + s;
    for (i = 0; i < cfg->num_metrics; i++)
        if (cfg->metrics[i].sniffer == sd && cfg->metrics[i].dcapf == m)
            return (cfg->metrics[i].flags & JOINTER_METRIC_FILTER) != 0;
    for (i = 0; i < cfg->num_traces; i++)
        if (cfg->traces[i].sniffer == sd && cfg->traces[i].dcapf == m)
            return cfg->traces[i].filter != 0;
    return 0;
}

static uint32_t ms;
static uint32_t clock_ms(void *ctx)
{
    (void)ctx;
    return ms++;
}

static mock_hw M;
static jointer_dev D;
static uint32_t bounds[64];
static uint32_t regs[1024];
static jointer_recorder REC;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const jointer_cfg *const cfgs[3] = {&accel_mon_cfg, &trace_mon_cfg, &two_lmic_cfg};
    bytes b = {data, size};
    uint8_t head = u8(&b);
    const jointer_cfg *cfg = cfgs[head % 3];
    jointer_io io, inner;
    int r;

    mock_init(&M, cfg);
    M.mark_sniffer = (head & 0x10) ? 0 : -1;
    switch ((head >> 2) & 3) {
    case 0: io = mock_io(&M); break;
    case 1: io = mock_io_polled(&M); break;
    case 2:
        memset(regs, 0, sizeof regs);
        io = jointer_io_direct(regs);
        break;
    default:
        inner = mock_io(&M);
        if (jointer_recorder_init(&REC, &inner, NULL, 0, &io) != 0)
            __builtin_trap();
        break;
    }
    r = jointer_init(&D, cfg, &io);
    if (r != 0)
        __builtin_trap();
    if (!(head & 0x20) && jointer_attach_bounds(&D, bounds, 64) != 0)
        __builtin_trap();
    jointer_set_clock(&D, (head & 0x40) ? clock_ms : NULL, NULL);

    while (b.n > 0) {
        uint8_t op = u8(&b);
        uint64_t v = 0, vals[40];
        uint32_t x = 0, y = 0;
        jointer_trace_record rec[20];
        jointer_mode mode;
        jointer_ident id;
        unsigned l, s, m;

        if (op & 0x80) /* a bus error soon */
            M.fail_after = (int)(M.reads + M.writes + (u8(&b) & 7));
        else
            M.fail_after = -1;
        switch (op % 24) {
        case 0:
            l = idx(&b, cfg->num_lmics);
            s = idx(&b, 15);
            m = idx(&b, 3);
            x = u32(&b);
            y = u32(&b);
            r = jointer_initialize(&D, l, s, m, x, y);
            check_rc(r);
            if (r == 0 && !has_filter(cfg, l, s, m))
                __builtin_trap();
            break;
        case 1:
            l = idx(&b, cfg->num_lmics);
            s = idx(&b, 15);
            x = u8(&b) % 6;
            r = jointer_set_mode(&D, l, s, (jointer_mode)x);
            check_rc(r);
            if (r == 0 && (jointer_get_mode(&D, l, s, &mode) != 0 || mode != (jointer_mode)x))
                __builtin_trap();
            break;
        case 2: check_rc(jointer_run(&D, idx(&b, cfg->num_lmics))); break;
        case 3: check_rc(jointer_stop(&D, idx(&b, cfg->num_lmics))); break;
        case 4: check_rc(jointer_reset(&D, idx(&b, cfg->num_lmics))); break;
        case 5:
            m = idx(&b, cfg->num_metrics);
            r = jointer_read(&D, m, (op & 0x40) ? NULL : &v);
            check_rc(r);
            if (r == 0 && cfg->metrics[m].width < 64 && (v >> cfg->metrics[m].width) != 0)
                __builtin_trap();
            break;
        case 6: check_rc(jointer_read_all(&D, vals, u8(&b) % 41)); break;
        case 7: check_rc(jointer_set_threshold(&D, idx(&b, cfg->num_metrics), (uint64_t)u32(&b) << (u8(&b) % 40))); break;
        case 8: check_rc(jointer_read_threshold(&D, idx(&b, cfg->num_metrics), &v)); break;
        case 9: check_rc(jointer_timestamp(&D, &v)); break;
        case 10: check_rc(jointer_mark(&D, u32(&b))); break;
        case 11:
            x = u8(&b) % 24;
            r = jointer_trace_read(&D, idx(&b, cfg->num_traces), (op & 0x40) ? NULL : rec, x > 20 ? 20 : x, &y);
            check_rc(r);
            if (r == 0 && (y > x || y > 16))
                __builtin_trap();
            break;
        case 12: check_rc(jointer_trace_status(&D, idx(&b, cfg->num_traces), &x, &y)); break;
        case 13: check_rc(jointer_trace_set_watermark(&D, idx(&b, cfg->num_traces), u8(&b))); break;
        case 14: check_rc(jointer_irq_enable(&D, idx(&b, cfg->num_lmics), u8(&b) % 40)); break;
        case 15: check_rc(jointer_irq_status(&D, idx(&b, cfg->num_lmics), &x)); break;
        case 16: check_rc(jointer_irq_ack(&D, idx(&b, cfg->num_lmics), u8(&b) % 40)); break;
        case 17: check_rc(jointer_irq_wait(&D, u8(&b) % 3, (op & 0x40) ? NULL : &x)); break;
        case 18: check_rc(jointer_selftest(&D, u8(&b) & 3, (op & 0x40) ? NULL : &id)); break;
        case 19: check_rc(jointer_status(&D, idx(&b, cfg->num_lmics), &x)); break;
        case 20: /* the monitor sees events */
            if (cfg->num_metrics != 0) {
                m = u8(&b) % cfg->num_metrics;
                if (cfg->metrics[m].extractor == JOINTER_EXTRACTOR_TIME)
                    mock_time(&M, m, u32(&b), u8(&b));
                else
                    mock_event(&M, m, u32(&b), u8(&b));
            }
            break;
        case 21:
            if (cfg->num_traces != 0)
                mock_trace_event(&M, u8(&b) % cfg->num_traces, u32(&b));
            break;
        case 22: /* the hardware changes under the driver */
            M.config_hash ^= u8(&b) & 1;
            M.scratch_stuck = u8(&b) & 1;
            break;
        default:
            if (jointer_strerror(-(int)u8(&b)) == NULL)
                __builtin_trap();
            break;
        }
    }
    M.fail_after = -1;
    check_rc(jointer_close(&D));
    return 0;
}
