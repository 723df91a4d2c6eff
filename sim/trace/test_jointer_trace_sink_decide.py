# SPDX-License-Identifier: MIT
"""jointer_trace_sink_decide: the trace sink's next burst, from its
definition. Each trial holds random inputs (a ring of 1..16 pages, the next
offset and the host's read pointer anywhere in it or, now and then, beyond
it, FIFO pointers, the flush timeout) for four clock edges, after which the
four stages are current: the outputs must then be
  free  = (rptr - next_off - 1) mod size records
  limit = min(max burst in records, records to the 4 KB page end, free),
          0 when rptr is beyond the ring
  recs  = min(written - assigned, limit), due when the records waiting reach
          the limit or on the flush timeout (and neither is 0)
  len   = AWLEN of recs records; 128 bits: an odd offset or a single record
          goes alone in one 64-bit beat, else an even number of records.
(jointer_trace_sink_axi's test runs it inside the sink.)"""
import json
import os
import random

import cocotb
import pytest
from cocotb.triggers import FallingEdge

from cocotb.clock import Clock

from jointer_sim import run

PARAMS_ENV = "SINK_DECIDE_PARAMS"

RING_LOG2, FIFO_LOG2 = 16, 5
OW = RING_LOG2 - 3              # offset bits, in 64-bit records
PAGE = 512                      # records in 4 KB
TRIALS = 400


def expected(p, next_off, written, assigned, timed_out, rptr, rptr_high, size):
    """(recs, len, due, narrow, last_page) from the definitions."""
    data_w, max_burst = p["data_w"], p["max_burst"]
    beats_per_rec = 2 if data_w == 32 else 1
    max_recs = max_burst * (2 if data_w == 128 else 1) // beats_per_rec
    beyond = rptr_high or rptr >= size
    free = (rptr - next_off - 1) % size
    limit = 0 if beyond else min(max_recs, PAGE - next_off % PAGE, free)
    waiting = (written - assigned) % (1 << (FIFO_LOG2 + 1))
    recs = min(waiting, limit)
    due = waiting >= limit or timed_out
    narrow = data_w == 128 and (next_off % 2 == 1 or recs == 1)
    if narrow:
        recs, length, due = 1, 0, due or next_off % 2 == 1
    elif data_w == 128:
        recs, length = recs & ~1, (recs // 2 - 1) % 256
    else:
        length = (recs * beats_per_rec - 1) % 256
    due = due and waiting != 0 and limit != 0
    last_page = next_off // PAGE * PAGE + PAGE == size
    # recs and len mean nothing when the burst is not due
    return (recs, length) if due else None, int(due), int(narrow), int(last_page)


def outputs(dut):
    due = int(dut.due.value)
    return ((int(dut.recs.value), int(dut.len.value)) if due else None, due, int(dut.narrow.value),
            int(dut.last_page.value))


@cocotb.test()
async def decides(dut):
    p = json.loads(os.environ[PARAMS_ENV])
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    await FallingEdge(dut.clk)        # inputs change between rising edges
    dues, narrows, limited = 0, 0, 0
    for trial in range(TRIALS):
        size = random.randint(1, 1 << (OW - 9)) * PAGE
        next_off = random.randrange(size)
        rptr = random.randrange(size) if random.random() < 0.9 else random.randrange(size, 1 << OW) \
            if size < 1 << OW else random.randrange(size)
        if random.random() < 0.3:      # the reader right behind or ahead of the writer
            rptr = (next_off + random.choice([0, 1, 2, 3, 100])) % size
        rptr_high = int(random.random() < 0.05)
        assigned = random.randrange(1 << (FIFO_LOG2 + 1))
        written = (assigned + random.choice([0, 1, 2, 7, 16, 31, 32])) % (1 << (FIFO_LOG2 + 1))
        timed_out = int(random.random() < 0.2)
        ins = (next_off, written, assigned, timed_out, rptr, rptr_high, size)
        for sig, val in zip(("next_off", "written", "assigned", "timed_out", "rptr", "rptr_high", "size"), ins):
            getattr(dut, sig).value = val
        want = expected(p, *ins)
        for _ in range(4):            # four stages: current after four edges
            await FallingEdge(dut.clk)
        got = outputs(dut)
        assert got == want, (trial, ins, got, want)
        dues += want[1]
        narrows += want[2]
        limited += want[1] and want[0] is not None and want[0][0] < (written - assigned) % 64
    assert dues > TRIALS // 5 and limited > 10 and (narrows > 10 or p["data_w"] != 128), (dues, narrows, limited)
    dut._log.info("%d trials (data_w %d, max_burst %d): %d due, %d limited by space or page, %d narrow",
                  TRIALS, p["data_w"], p["max_burst"], dues, limited, narrows)


@pytest.mark.parametrize("data_w,max_burst", [(32, 16), (64, 16), (64, 256), (128, 8)])
def test_sink_decide(data_w, max_burst):
    run("jointer_trace_sink_decide", __name__,
        {"data_w_g": data_w, "fifo_depth_log2_g": FIFO_LOG2, "max_burst_g": max_burst, "ring_log2_g": RING_LOG2},
        extra_env={PARAMS_ENV: json.dumps({"data_w": data_w, "max_burst": max_burst})})
