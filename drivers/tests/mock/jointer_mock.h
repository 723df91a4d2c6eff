/* SPDX-License-Identifier: MIT */
/*
 * jointer_mock.h - an array-backed register file that emulates a jointer
 * monitor well enough for the driver's tests (test code, not the library):
 * global block (ID, VERSION, CONFIG_HASH, INFO, IRQ, TIMESTAMP with LO->HI
 * snapshot, MARK, SCRATCH, the descriptor ROM's DESC_INDEX/DESC_DATA over
 * bytes the test gives with mock_rom), per LMIC CONTROL (RUN, SOFT_RESET pulse, PROG,
 * INIT pointer restart), STATUS, IRQ_STATUS (w1c), IRQ_ENABLE, INIT loader
 * (a DCAPF without a filter takes its 2 words and drops them, and counts in
 * FILTERING as in NO_FILTERING),
 * results (LSW read snapshots the upper word), thresholds (MSW commits),
 * trace blocks and RAM. Events are injected with mock_event/_time/_trace.
 */
#ifndef JOINTER_MOCK_H
#define JOINTER_MOCK_H

#include "jointer.h"

#define MOCK_MAX_METRICS 256
#define MOCK_MAX_TRACES  32
#define MOCK_MAX_DCAPFS  256
#define MOCK_MAX_SNIFFERS 256
#define MOCK_MAX_WORDS   16384

typedef struct mock_hw mock_hw;

struct mock_hw {
    const jointer_cfg *cfg;
    /* identity: defaults from the descriptor, tests may change them */
    uint32_t id, version, config_hash, info;
    uint32_t scratch;
    int scratch_stuck;                /* 1: SCRATCH ignores writes */
    const unsigned char *rom;         /* descriptor ROM bytes (mock_rom), NULL: none */
    uint32_t rom_len, desc_index;     /* its bytes; DESC_INDEX = min(written, words) */
    uint32_t irq_enable;              /* global */
    uint64_t timestamp;               /* +ts_step per bus access */
    uint32_t ts_step, ts_hi_snap;
    uint32_t control[JOINTER_MAX_LMICS];
    uint32_t lirq_status[JOINTER_MAX_LMICS], lirq_enable[JOINTER_MAX_LMICS];
    uint32_t init_ptr[MOCK_MAX_SNIFFERS];
    uint64_t low[MOCK_MAX_DCAPFS], high[MOCK_MAX_DCAPFS]; /* by first_dcapf(sniffer)+dcapf */
    int filter[MOCK_MAX_DCAPFS];      /* the DCAPF has a filter (descriptor flag) */
    uint64_t result[MOCK_MAX_METRICS];
    uint32_t snap[MOCK_MAX_METRICS];
    uint64_t threshold[MOCK_MAX_METRICS];
    uint32_t thr_stage[MOCK_MAX_METRICS];
    int caught[MOCK_MAX_METRICS], overflow[MOCK_MAX_METRICS];
    uint32_t tr_wptr[MOCK_MAX_TRACES], tr_fill[MOCK_MAX_TRACES], tr_status[MOCK_MAX_TRACES];
    uint32_t tr_watermark[MOCK_MAX_TRACES];
    uint32_t tr_rptr[MOCK_MAX_TRACES], tr_lost[MOCK_MAX_TRACES]; /* relay traces */
    uint32_t tr_acks;                 /* ACK writes (relay) */
    uint32_t ram[MOCK_MAX_WORDS];     /* trace RAM words, by byte offset / 4 */
    int mark_sniffer;                 /* descriptor index of the MARK sniffer, -1: none */
    uint32_t marks, last_mark;
    /* bus */
    uint32_t reads, writes, init_writes_ignored;
    uint32_t init_words_dropped;      /* INIT words taken by DCAPFs without a filter */
    int fail_after;                   /* >= 0: accesses number fail_after.. fail */
    int fail_code;                    /* what they return (default -EIO) */
    void (*tick)(mock_hw *m, void *ctx); /* after every access */
    void *tick_ctx;
    void (*on_wait)(mock_hw *m, void *ctx); /* wait_irq: before it looks */
    void *on_wait_ctx;
    uint32_t waits;
};

void mock_init(mock_hw *m, const jointer_cfg *cfg);
/* a descriptor ROM holding len bytes (kept by reference; the last word padded
 * with zeros) and INFO bit JOINTER_INFO_DESC_ROM */
void mock_rom(mock_hw *m, const void *bytes, uint32_t len);
/* an ops seam over the mock: with wait_irq (like UIO/simulation) or polled */
jointer_io mock_io(mock_hw *m);
jointer_io mock_io_polled(mock_hw *m);
int mock_read(void *ctx, uint32_t off, uint32_t *v);
int mock_write(void *ctx, uint32_t off, uint32_t v);

/* one good event at DCAPF `metric` (event extractor): data, increment */
void mock_event(mock_hw *m, unsigned metric, uint64_t data, uint32_t inc);
/* time extractor: `cycles` cycles with data in effect */
void mock_time(mock_hw *m, unsigned metric, uint32_t data, uint32_t cycles);
/* a trace DCAPF sees an event */
void mock_trace_event(mock_hw *m, unsigned trace, uint32_t data);
/* the irq line */
int mock_irq(const mock_hw *m);
/* sniffer mode as the hardware sees it */
jointer_mode mock_mode(const mock_hw *m, unsigned sniffer_desc_index);

#endif
