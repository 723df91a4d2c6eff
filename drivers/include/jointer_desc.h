/* SPDX-License-Identifier: MIT */
/*
 * jointer_desc.h - hardware facts about one monitor: the descriptor tables
 * that jointer-gen writes into <name>.c and libjointer reads.
 *
 * Everything here is constant and known at generation time (the YAML);
 * where the monitor is mapped is separate (jointer_init's io argument).
 * All offsets are byte offsets from the monitor's base address; the
 * generator computed them (gen/jointer_gen/model/layout.py), nothing else does.
 */
#ifndef JOINTER_DESC_H
#define JOINTER_DESC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__) && __GNUC__ >= 4   /* libjointer's ABI: what this header declares */
#pragma GCC visibility push(default)
#endif

#define JOINTER_ID_VALUE       0x4A4E5452u /* "JNTR" */
/* the hardware VERSION register: the version of the register map (2.0.0,
 * major<<16 | minor<<8 | patch), not jointer's release (jointer_version.h);
 * it changes only with the register map, and a driver accepts the same major */
#define JOINTER_VERSION_VALUE  0x00020000u
#define JOINTER_NO_OFFSET      0xFFFFFFFFu

/* INFO register bits: what a monitor has (jointer_cfg.info holds the value it was generated with) */
#define JOINTER_INFO_LMICS_MASK  0x000000FFu /* number of LMICs */
#define JOINTER_INFO_WINDOW_MASK 0x0000FF00u /* log2 of the window in bytes */
#define JOINTER_INFO_STRICT      0x00010000u /* unmapped addresses answer SLVERR */
#define JOINTER_INFO_TIMESTAMP   0x00020000u /* TIMESTAMP_LO/HI exist (monitor.global.timestamp) */
#define JOINTER_INFO_MARK        0x00040000u /* MARK exists (a mark sniffer) */
#define JOINTER_INFO_SCRATCH     0x00080000u /* SCRATCH exists (monitor.global.scratch) */
#define JOINTER_INFO_DESC_ROM    0x00100000u /* DESC_INDEX/DESC_DATA: the .jdesc in a ROM
                                                (monitor.global.descriptor: rom) */
/* the optional registers (jointer_selftest compares them with the descriptor's, as well as
 * the LMIC count and the window) */
#define JOINTER_INFO_FEATURES    (JOINTER_INFO_TIMESTAMP | JOINTER_INFO_MARK | JOINTER_INFO_SCRATCH \
                                  | JOINTER_INFO_DESC_ROM)

/* global block (window 0), byte offsets */
#define JOINTER_REG_ID           0x00u
#define JOINTER_REG_VERSION      0x04u
#define JOINTER_REG_CONFIG_HASH  0x08u
#define JOINTER_REG_INFO         0x0Cu
#define JOINTER_REG_IRQ_STATUS   0x10u
#define JOINTER_REG_IRQ_ENABLE   0x14u
#define JOINTER_REG_TIMESTAMP_LO 0x18u
#define JOINTER_REG_TIMESTAMP_HI 0x1Cu
#define JOINTER_REG_MARK         0x20u
#define JOINTER_REG_SCRATCH      0x24u
#define JOINTER_REG_DESC_INDEX   0x28u  /* rw: word index into the descriptor ROM */
#define JOINTER_REG_DESC_DATA    0x2Cu  /* ro: ROM word at DESC_INDEX (file byte 4i+k = bits 8k+7..8k),
                                           0 beyond the ROM */

/* LMIC window, byte offsets from the LMIC base */
#define JOINTER_LMIC_CONTROL     0x00u
#define JOINTER_LMIC_STATUS      0x04u
#define JOINTER_LMIC_IRQ_STATUS  0x08u
#define JOINTER_LMIC_IRQ_ENABLE  0x0Cu
#define JOINTER_LMIC_INIT(s)     (0x10u + 4u * (uint32_t)(s))

/* CONTROL fields */
#define JOINTER_CONTROL_RUN        0x1u
#define JOINTER_CONTROL_SOFT_RESET 0x2u
#define JOINTER_PROG_SHIFT(s)      (2u + 2u * (uint32_t)(s))
#define JOINTER_PROG_MASK(s)       (0x3u << JOINTER_PROG_SHIFT(s))

/* STATUS fields */
#define JOINTER_STATUS_VALID(s)    (1u << (uint32_t)(s))
#define JOINTER_STATUS_OVERFLOW(s) (1u << (16u + (uint32_t)(s)))

/* trace register block, byte offsets from jointer_trace_desc.reg_offset */
#define JOINTER_TRACE_WPTR       0x00u
#define JOINTER_TRACE_FILL       0x04u
#define JOINTER_TRACE_STATUS     0x08u
#define JOINTER_TRACE_WATERMARK  0x0Cu
#define JOINTER_TRACE_DEPTH      0x10u
/* relay traces (jointer_trace_desc.relay) only */
#define JOINTER_TRACE_RPTR       0x14u  /* ro: slot of the oldest unread record */
#define JOINTER_TRACE_ACK        0x18u  /* wo: N releases min(N, FILL) records */
#define JOINTER_TRACE_LOST       0x1Cu  /* ro: records dropped while full */
#define JOINTER_TRACE_STATUS_FULL     0x1u
#define JOINTER_TRACE_STATUS_OVERFLOW 0x2u
/* sink traces (jointer_trace_desc.sink_bytes != 0, YAML mode: sink): the
 * records go through an AXI4 master into a ring in memory the host owns.
 * Offsets are bytes from ring BASE; the host may read [RPTR, WPTR) modulo
 * SIZE and then writes RPTR; the sink never writes [RPTR, RPTR + 8). */
#define JOINTER_SINK_WPTR        0x00u  /* ro: offset of the next unit written and acknowledged */
#define JOINTER_SINK_RPTR        0x04u  /* rw: the host's read offset (low 3 bits ignored) */
#define JOINTER_SINK_STATUS      0x08u  /* ro: JOINTER_SINK_STATUS_* */
#define JOINTER_SINK_WATERMARK   0x0Cu  /* rw: IRQ when (WPTR - RPTR) mod SIZE >= it (bytes); 0 off */
#define JOINTER_SINK_BASE        0x10u  /* rw: ring address, 4 KB aligned */
#define JOINTER_SINK_SIZE        0x14u  /* rw: ring bytes, a non-zero multiple of 4 KB */
#define JOINTER_SINK_CONTROL     0x18u  /* rw: JOINTER_SINK_CONTROL_* (CLEAR reads 0) */
#define JOINTER_SINK_LOST        0x1Cu  /* ro: records dropped (FIFO full), saturating */
#define JOINTER_SINK_STATUS_ERROR        0x1u  /* a BRESP other than OKAY: stopped until CLEAR */
#define JOINTER_SINK_STATUS_CONFIG_ERROR 0x2u  /* BASE / SIZE refused: nothing is written */
#define JOINTER_SINK_STATUS_BUSY         0x4u  /* bursts are outstanding */
#define JOINTER_SINK_CONTROL_ENABLE 0x1u  /* records are accepted */
#define JOINTER_SINK_CONTROL_CLEAR  0x2u  /* pulse: drain bursts, then WPTR = 0, LOST = 0, errors 0 */
#define JOINTER_SINK_CONTROL_SYNC   0x4u  /* pulse: a sync record (a trace with sync), reads 0 */
/* record encodings (jointer_trace_desc.encoding, trace file header) */
#define JOINTER_ENCODING_RAW     0u  /* 64-bit records {timestamp, data} */
#define JOINTER_ENCODING_COMPACT 1u  /* 64-bit units, doc/trace-encoding.md */

typedef enum jointer_mode {
    JOINTER_IDLE = 0,         /* ignores RUN and SOFT_RESET, holds results */
    JOINTER_INIT = 1,         /* INIT writes load the filter bounds */
    JOINTER_FILTERING = 2,    /* counts while RUN, using the filters */
    JOINTER_NO_FILTERING = 3  /* counts every event while RUN */
} jointer_mode;

typedef enum jointer_extractor {
    JOINTER_EXTRACTOR_EVENT = 0,
    JOINTER_EXTRACTOR_TIME = 1,
    JOINTER_EXTRACTOR_TRACE = 2
} jointer_extractor;

typedef enum jointer_aggregator {
    JOINTER_AGGREGATOR_SUM = 0,
    JOINTER_AGGREGATOR_MAX = 1,
    JOINTER_AGGREGATOR_MIN = 2,
    JOINTER_AGGREGATOR_LAST = 3,
    JOINTER_AGGREGATOR_HISTOGRAM = 4, /* one counter per bucket */
    JOINTER_AGGREGATOR_MEAN = 5       /* sum and count of the samples, one snapshot */
} jointer_aggregator;

#define JOINTER_METRIC_WRAP      0x01u /* on_overflow: wrap */
#define JOINTER_METRIC_THRESHOLD 0x02u /* has a THRESHOLD register and an IRQ bit */
#define JOINTER_METRIC_FILTER    0x04u /* has a filter (Init DCAPF + comparator); without it
                                        * (YAML filter: none) FILTERING counts as NO_FILTERING,
                                        * the DCAPF ignores its 2 INIT words and
                                        * jointer_initialize returns -ENOTSUP */

/* One metric = one result DCAPF (event or time extractor). */
typedef struct jointer_metric_desc {
    const char *name;          /* DCAPF name, unique in the monitor */
    uint32_t result_offset;    /* least significant RESULT word */
    uint32_t threshold_offset; /* least significant THRESHOLD word, or JOINTER_NO_OFFSET */
    uint64_t low_reset;        /* filter bounds after a hard reset, as wide as the
                                * sniffer's event data (an address: its addr_width) */
    uint64_t high_reset;
    uint16_t sniffer;          /* index into jointer_cfg.sniffers */
    uint8_t lmic;              /* LMIC index */
    uint8_t dcapf;             /* DCAPF index inside its sniffer (INIT order) */
    uint8_t width;             /* result bits, 1..64 */
    uint8_t extractor;         /* jointer_extractor */
    uint8_t aggregator;        /* jointer_aggregator */
    uint8_t flags;             /* JOINTER_METRIC_* */
    int8_t irq_bit;            /* IRQ source bit in its LMIC, or -1 */
    /* histogram (aggregator JOINTER_AGGREGATOR_HISTOGRAM); descriptors written
     * before histograms existed leave these 0/NULL: a single result */
    uint8_t buckets;           /* N, 2..64 (0 or 1: not a histogram; a mean: 2, slot 0
                                * the sum, slot 1 the count); bucket k's
                                * words start at result_offset + k * 4 * ceil(width/32);
                                * reading bucket 0's first word snapshots all others */
    const uint32_t *bounds;    /* N-1 boundaries b(1) < ... < b(N-1); NULL: pow2,
                                * b(k) = 2^(k-1). Bucket 0 = [0, b(1)),
                                * bucket k = [b(k), b(k+1)), bucket N-1 = [b(N-1), 2^64) */
} jointer_metric_desc;

/* A span of a trace (YAML `spans:`): what opens and closes it. The converters
 * (jointer_export.h) turn a trace's records into slices with them. */
#define JOINTER_SPAN_LEVEL       0xFFu /* begin and end: the event value opens (non-zero) and
                                        * closes (zero) the span, a start/done sniffer's */
#define JOINTER_SPAN_BY_ID       0x01u /* an end closes the open span of the same event value
                                        * (else the innermost open span) */
#define JOINTER_SPAN_TRACK_VALUE 0x02u /* one track per event value (else one for the trace) */
#define JOINTER_MAX_LANES        16u   /* lanes one trace records */
#define JOINTER_MAX_SPANS        16u   /* spans of one trace */

typedef struct jointer_span_desc {
    const char *name;
    uint8_t begin;             /* tag bit of the lane that opens it (< num_lanes), or JOINTER_SPAN_LEVEL */
    uint8_t end;               /* tag bit of the lane that closes it, or JOINTER_SPAN_LEVEL */
    uint8_t flags;             /* JOINTER_SPAN_* */
} jointer_span_desc;

/* One trace buffer = one trace DCAPF. */
typedef struct jointer_trace_desc {
    const char *name;
    uint32_t reg_offset;       /* WPTR of its register block */
    uint32_t ram_offset;       /* record 0: word 0 timestamp, word 1 data */
    uint32_t depth;            /* records */
    uint32_t low_reset;
    uint32_t high_reset;
    uint16_t sniffer;          /* index into jointer_cfg.sniffers */
    uint8_t lmic;
    uint8_t dcapf;             /* DCAPF index inside its sniffer (INIT order) */
    uint8_t ring;              /* 1: ring buffer, 0: stops when full */
    int8_t irq_bit;            /* watermark bit; full = irq_bit + 1 */
    uint8_t filter;            /* 1: has a filter; 0: none (as JOINTER_METRIC_FILTER) */
    uint8_t relay;             /* 1: relay mode (the host drains it: RPTR, ACK, LOST) */
    uint32_t clock_hz;         /* frequency of the timestamp clock (its LMIC's), 0 if unknown */
    uint8_t sink_bytes;        /* sink trace: memory data width in bytes (4, 8, 16); 0: BRAM trace.
                                * A sink has reg_offset, no RAM window (ram_offset 0, depth 0) */
    uint8_t encoding;          /* sink: JOINTER_ENCODING_RAW or JOINTER_ENCODING_COMPACT */
    uint8_t sink_ring_log2;    /* sink: log2 of the largest ring in bytes the hardware addresses
                                * (YAML sink: {ring_bytes} rounded up; 12..32); a larger SIZE is
                                * refused (STATUS.CONFIG_ERROR, jointer_sink_start -EINVAL).
                                * 0: no limit known */
    /* several lanes in one trace (YAML `lanes:`); descriptors without these fields
     * describe one-lane traces (the record's data is the event data) */
    uint8_t num_lanes;         /* 0: one lane; 1..16: a record's data word is
                                * (event data << tag bits) | tag, tag bit i (i < num_lanes) =
                                * lane i fired in the record's cycle (jointer_trace_tag_bits) */
    uint8_t sync;              /* 1: host sync records (tag bit num_lanes; a sink's CONTROL.SYNC) */
    uint8_t num_spans;         /* spans (0..16) */
    const char *const *lane_names; /* num_lanes names, NULL when 0 */
    const jointer_span_desc *spans; /* num_spans, NULL when 0 */
    const char *clock;         /* name of its LMIC's clock (YAML clocks:), NULL: unknown */
} jointer_trace_desc;

/* low bits of a trace record's data word that tag its lanes and sync (0: one lane) */
static inline unsigned jointer_trace_tag_bits(const jointer_trace_desc *t)
{
    return t->num_lanes != 0u ? (unsigned)t->num_lanes + (t->sync != 0u ? 1u : 0u) : 0u;
}

typedef struct jointer_sniffer_desc {
    const char *name;
    uint8_t lmic;
    uint8_t index;             /* sniffer index inside the LMIC (PROG field) */
    uint8_t num_dcapfs;        /* DCAPFs incl. traces: INIT takes 2 words each */
    uint8_t pm_addresses;      /* program monitor (interfacer pc): addresses of its table, 0: not
                                * a program monitor. The table follows the DCAPFs' INIT words:
                                * word 2 x num_dcapfs = enable mask, word 2 x num_dcapfs + 1 + i =
                                * address i */
    uint8_t pm_pc_width;       /* program monitor: PC bits (addresses must be below 2^pm_pc_width) */
    uint8_t data_width;        /* bits of its event data, 1..64 (0: 32 or fewer, as a descriptor
                                * of format 1 says). Above 32 (an address above 4 GB) every
                                * filter bound is 2 INIT words, bits 31..0 then 63..32, so each
                                * DCAPF takes 4 (jointer_init_words) */
} jointer_sniffer_desc;

/* INIT words per filter bound of a sniffer: 1, or 2 for event data wider than 32 bits */
static inline unsigned jointer_init_words(const jointer_sniffer_desc *s)
{
    return s->data_width > 32u ? 2u : 1u;
}

typedef struct jointer_lmic_desc {
    const char *name;
    uint32_t base;             /* byte offset of the LMIC window */
    uint16_t first_sniffer;    /* index into jointer_cfg.sniffers */
    uint8_t num_sniffers;
    uint8_t num_irq;           /* IRQ source bits used */
    uint32_t clock_hz;         /* frequency of its clock (YAML period_ns), 0 if unknown */
    const char *clock;         /* its clock's name (YAML clocks:), NULL: unknown (an older descriptor) */
} jointer_lmic_desc;

typedef struct jointer_cfg {
    const char *name;          /* monitor name */
    uint32_t config_hash;      /* must match the CONFIG_HASH register */
    uint32_t version;          /* JOINTER_VERSION_VALUE the code was generated for */
    uint32_t info;             /* the INFO register: [7:0] LMICs, [15:8] log2 window, [16] strict,
                                * [17] TIMESTAMP, [18] MARK, [19] SCRATCH present */
    uint32_t span;             /* bytes of the register space */
    uint32_t window;           /* bytes per window (global block, each LMIC) */
    uint64_t base_address;     /* bus.base_address from the YAML (bare-metal default) */
    uint32_t bus_clock_hz;     /* frequency of the bus clock, 0 if unknown */
    const jointer_lmic_desc *lmics;
    const jointer_sniffer_desc *sniffers;
    const jointer_metric_desc *metrics;
    const jointer_trace_desc *traces;
    uint8_t num_lmics;
    uint16_t num_sniffers;
    uint16_t num_metrics;
    uint16_t num_traces;
    uint16_t num_dcapfs;       /* all DCAPFs incl. traces: 2 bound words each */
} jointer_cfg;

#if defined(__GNUC__) && __GNUC__ >= 4
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif

#endif /* JOINTER_DESC_H */
