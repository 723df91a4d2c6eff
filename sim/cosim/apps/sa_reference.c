// SPDX-License-Identifier: MIT
/*
 * sa_reference.c - C reference of the Selective Accumulations coprocessor.
 * The cycle count follows sim/cosim/accel/README.md ("Timing").
 */
#include "sa_reference.h"

static const int32_t coefs[3] = {3, 5, 7};

int sa_actor_of(int32_t x)
{
    if (x > 5)
        return 0;
    if (x >= 0 && x <= 4)
        return 1;
    if (x < 0)
        return 2;
    return -1;
}

void sa_predict(const int32_t *inputs, uint32_t n, sa_prediction *p)
{
    uint32_t tokens[3] = {0, 0, 0};
    uint32_t acc[3] = {0, 0, 0};    /* unsigned: wraps like the 32-bit RTL */
    uint32_t bursts, k, i;
    uint64_t write_cycles = 0;

    if (n > SA_MAX_LENGTH)
        n = SA_MAX_LENGTH;
    p->mac_fires = 0;
    for (k = 0; k < 3; k++)
        p->num_results[k] = 0;
    for (i = 0; i < n; i++) {
        int a = sa_actor_of(inputs[i]);
        if (a < 0)
            continue;
        p->mac_fires++;
        acc[a] += (uint32_t)inputs[i] * (uint32_t)coefs[a];
        if (++tokens[a] % 16u == 0u) {
            uint32_t r = acc[a];
            p->results[a][p->num_results[a]++] =
                r <= 0x7FFFFFFFu ? (int32_t)r : -(int32_t)(~r) - 1;
            acc[a] = 0;
        }
    }
    bursts = (n + 255u) / 256u;
    for (k = 0; k < 3; k++)
        write_cycles += p->num_results[k] ? p->num_results[k] + 3u : 1u;
    p->forward_fires = n;
    p->bytes_written = 4u * (uint64_t)(p->num_results[0] + p->num_results[1] + p->num_results[2]);
    /* read (AR + beats per burst) + drain 3 + write phase + end of list 1 + finish 1 */
    p->compute_cycles = (uint64_t)n + bursts + 3u + write_cycles + 2u;
}

uint64_t sa_saturate(uint64_t value, unsigned width)
{
    uint64_t max = width >= 64u ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1u);
    return value > max ? max : value;
}
