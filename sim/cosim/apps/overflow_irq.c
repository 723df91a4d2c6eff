// SPDX-License-Identifier: MIT
/*
 * overflow_irq.c - counter overflow and threshold interrupts (scenario
 * overflow_irq, scenarios/configs/cosim_events.yaml).
 *
 * - before any traffic, jointer_irq_wait(1 ms) times out (-ETIMEDOUT);
 *   return codes are reported negated (*.wait_errno: 0 or ETIMEDOUT);
 * - ops_count crosses its threshold (LMIC on the bus clock): the irq line
 *   rises, jointer_irq_wait returns 0 with the LMIC's bit, IRQ_STATUS has the
 *   source, the count read then is >= the threshold; jointer_irq_ack drops
 *   the line (jointer_irq_wait(0) times out again);
 * - the same for seq_count, on an LMIC behind a clock crossing (its irq is
 *   synchronised to the bus clock);
 * - sat8 (8 bits) sees 300 events: saturates at 255 with the sticky OVERFLOW
 *   of its sniffer in STATUS, which a soft reset clears.
 * Thresholds: ops_threshold=, seq_threshold= arguments (defaults 100, 50).
 */
#include <stdio.h>

#include "cosim_app.h"

static int metric(const char *name)
{
    int m = jointer_find_metric(cosim_cfg, name);
    if (m < 0)
        fprintf(stderr, "app: no metric %s in %s\n", name, cosim_cfg->name);
    return m;
}

/* wait for the threshold irq of metric m, acknowledge it, check the line drops */
static int threshold_irq(jointer_dev *dev, int m, uint64_t thr, const char *tag)
{
    const jointer_metric_desc *md = &cosim_cfg->metrics[m];
    uint32_t mask = 1u << md->irq_bit, lmics = 0, st = 0;
    uint64_t v;
    char name[64];
    int r;

    COSIM_TRY(jointer_irq_enable(dev, md->lmic, mask));
    r = jointer_irq_wait(dev, 100, &lmics); /* 100 ms -> 100 us simulated */
    snprintf(name, sizeof name, "%s.wait_errno", tag);
    platform_report(name, (uint64_t)-r);
    snprintf(name, sizeof name, "%s.lmics", tag);
    platform_report(name, lmics);
    COSIM_TRY(jointer_irq_status(dev, md->lmic, &st));
    snprintf(name, sizeof name, "%s.irq_status", tag);
    platform_report(name, st);
    COSIM_TRY(jointer_read(dev, (unsigned)m, &v));
    snprintf(name, sizeof name, "%s.count_at_irq", tag); /* timing: both simulators agree */
    platform_report(name, v);
    snprintf(name, sizeof name, "%s.count_ge_threshold", tag);
    platform_report(name, v >= thr);
    COSIM_TRY(jointer_irq_ack(dev, md->lmic, mask));
    platform_wait_ns(100); /* the line is registered and, for a crossing LMIC, synchronised */
    r = jointer_irq_wait(dev, 0, NULL);
    snprintf(name, sizeof name, "%s.line_after_ack", tag);
    platform_report(name, r == 0);
    COSIM_TRY(jointer_irq_status(dev, md->lmic, &st));
    snprintf(name, sizeof name, "%s.irq_status_after_ack", tag);
    platform_report(name, st);
    COSIM_TRY(jointer_irq_enable(dev, md->lmic, 0));
    return 0;
}

int app_main(int argc, char **argv)
{
    jointer_dev dev;
    uint64_t thr_ops = cosim_arg_u64(argc, argv, "ops_threshold", 100);
    uint64_t thr_seq = cosim_arg_u64(argc, argv, "seq_threshold", 50);
    uint64_t v;
    uint32_t st;
    int m_ops, m_seq, m_sat, r;

    COSIM_TRY(cosim_open(&dev));
    COSIM_TRY(cosim_setup(&dev, argc, argv));
    COSIM_TRY(m_ops = metric("ops_count"));
    COSIM_TRY(m_seq = metric("seq_count"));
    COSIM_TRY(m_sat = metric("sat8"));
    COSIM_TRY(jointer_set_threshold(&dev, (unsigned)m_ops, thr_ops));
    COSIM_TRY(jointer_set_threshold(&dev, (unsigned)m_seq, thr_seq));
    COSIM_TRY(jointer_read_threshold(&dev, (unsigned)m_ops, &v));
    platform_expect("ops_threshold_readback", thr_ops);
    platform_report("ops_threshold_readback", v);
    COSIM_TRY(cosim_run_all(&dev));

    /* nothing pending: a 1 ms wait times out */
    COSIM_TRY(jointer_irq_enable(&dev, cosim_cfg->metrics[m_ops].lmic,
                                 1u << cosim_cfg->metrics[m_ops].irq_bit));
    r = jointer_irq_wait(&dev, 1, NULL);
    platform_report("idle.wait_errno", (uint64_t)-r);

    platform_stimulus_start();
    COSIM_TRY(threshold_irq(&dev, m_ops, thr_ops, "ops"));
    COSIM_TRY(threshold_irq(&dev, m_seq, thr_seq, "seq"));
    platform_stimulus_wait();
    platform_wait_ns(500);
    COSIM_TRY(cosim_stop_all(&dev));
    COSIM_TRY(cosim_report_all(&dev));

    /* a soft reset clears the saturated counter and the sticky OVERFLOW */
    COSIM_TRY(jointer_reset(&dev, cosim_cfg->metrics[m_sat].lmic));
    COSIM_TRY(jointer_read(&dev, (unsigned)m_sat, &v));
    platform_report("sat8_after_reset", v);
    COSIM_TRY(jointer_status(&dev, cosim_cfg->metrics[m_sat].lmic, &st));
    platform_report("status_after_reset", st);
    return 0;
}
