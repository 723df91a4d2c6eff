# SPDX-License-Identifier: MIT
"""Reference model of the Selective Accumulations demo coprocessor (sa_accel +
sa_mem): what it computes and exactly how many cycles it takes.

The same model is written in C for the demo application
(sim/cosim/apps/sa_reference.c); both follow sa_accel.vhd's header.
"""

COEFS = (3, 5, 7)          # mac_16 constants of actors 0, 1, 2
BURST = 256                # inputs per AXI4 read burst
RESULT_STRIDE = 0x1000     # actor k writes at OUT_BASE + k * 0x1000
MAX_LENGTH = 1024


def actor_of(x: int):
    """forward: 0 if x > 5, 1 if 0 <= x <= 4, 2 if x < 0, None for x == 5."""
    if x > 5:
        return 0
    if 0 <= x <= 4:
        return 1
    if x < 0:
        return 2
    return None


def to_s32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v & 0x80000000 else v


def run(inputs):
    """Return a dict with the results per actor and every observable count."""
    inputs = list(inputs)[:MAX_LENGTH]
    tokens = [[], [], []]
    for x in inputs:
        k = actor_of(x)
        if k is not None:
            tokens[k].append(x)
    results = []
    for k in range(3):
        groups = len(tokens[k]) // 16
        results.append([to_s32(sum(x * COEFS[k] for x in tokens[k][16 * g:16 * g + 16]))
                        for g in range(groups)])
    n = len(inputs)
    bursts = (n + BURST - 1) // BURST
    write_cycles = sum(len(r) + 3 if r else 1 for r in results)
    # read: AR + beats per burst; drain 3; write phase; end-of-list check 1; finish 1
    cycles = n + bursts + 3 + write_cycles + 1 + 1
    return {
        "results": results,
        "forward_fires": n,
        "mac_fires": sum(len(t) for t in tokens),
        "bytes_written": 4 * sum(len(r) for r in results),
        "bursts_written": sum(1 for r in results if r),
        "cycles": cycles,
    }
