/* SPDX-License-Identifier: MIT */
/*
 * sa_reference.h - C reference of the Selective Accumulations coprocessor
 * (sim/cosim/accel): what it computes and exactly what jointer should
 * measure. Mirrors sim/cosim/accel/sa_model.py (tested against the RTL).
 */
#ifndef SA_REFERENCE_H
#define SA_REFERENCE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SA_MAX_LENGTH     1024u
#define SA_MAX_RESULTS    64u      /* per actor */
#define SA_RESULT_STRIDE  0x1000u  /* actor k writes at OUT_BASE + k * 0x1000 */

typedef struct sa_prediction {
    int32_t results[3][SA_MAX_RESULTS];
    uint32_t num_results[3];
    uint64_t bytes_written;   /* transaction level: 4 bytes per result */
    uint64_t compute_cycles;  /* task level: task_start cycle to task_done cycle */
    uint64_t forward_fires;   /* operation level, event 0 */
    uint64_t mac_fires;       /* operation level, event 1 */
} sa_prediction;

/* actor of an input: 0 if x > 5, 1 if 0 <= x <= 4, 2 if x < 0, -1 for 5 */
int sa_actor_of(int32_t x);

/* predict everything for n inputs (n <= SA_MAX_LENGTH) */
void sa_predict(const int32_t *inputs, uint32_t n, sa_prediction *p);

/* a counter of `width` bits as jointer saturates it */
uint64_t sa_saturate(uint64_t value, unsigned width);

#ifdef __cplusplus
}
#endif

#endif
