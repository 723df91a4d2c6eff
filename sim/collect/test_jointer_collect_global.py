"""jointer_collect_global against a cycle model of doc/internals.md 3.

Random register-port traffic (every word of the window, unmapped ones
included, random write data, random gaps), random LMIC irq levels, and a
timestamp input that crosses a 2^32 boundary every 50 cycles while the host reads
TIMESTAMP_LO/HI pairs: every output (ack, rdata, err, irq, mark_valid,
mark_data) is compared every cycle, and every LO/HI pair must equal the
timestamp of the LO read (never torn). A hard reset happens mid-test.
"""
import random

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from collect_util import MASK32, layout, params, params_env, start_clock
from jointer_sim import run, slv

ID, VERSION = 0x4A4E5452, 0x00010000
R = layout.GLOBAL_REGS
CYCLES = 6000


class GlobalModel:
    def __init__(self, words, strict, config_hash, info, num_lmics):
        self.words, self.strict = words, strict
        self.config_hash, self.info, self.n = config_hash, info, num_lmics
        self.reset()

    def reset(self):
        self.enable, self.scratch, self.ts_hi = 0, 0, 0
        self.ack = self.err = self.irq = self.mark_valid = 0
        self.rdata = 0

    def value(self, addr, lmic_irq, ts):
        return {R["ID"]: ID, R["VERSION"]: VERSION, R["CONFIG_HASH"]: self.config_hash,
                R["INFO"]: self.info, R["IRQ_STATUS"]: lmic_irq, R["IRQ_ENABLE"]: self.enable,
                R["TIMESTAMP_LO"]: ts & MASK32, R["TIMESTAMP_HI"]: self.ts_hi,
                R["SCRATCH"]: self.scratch}.get(addr, 0)

    def step(self, req, we, addr, wdata, lmic_irq, ts):
        """One cycle; afterwards the attributes are the outputs of the next cycle."""
        rd, wr = req and not we, req and we
        self.ack = req
        self.rdata = self.value(addr, lmic_irq, ts) if rd else 0
        self.err = int(req and addr > R["SCRATCH"] and self.strict)
        self.mark_valid = int(wr and addr == R["MARK"])
        self.irq = int(lmic_irq & self.enable != 0)
        if rd and addr == R["TIMESTAMP_LO"]:
            self.ts_hi = ts >> 32
        if wr and addr == R["IRQ_ENABLE"]:
            self.enable = wdata & ((1 << self.n) - 1)
        if wr and addr == R["SCRATCH"]:
            self.scratch = wdata


def transactions(words):
    """Endless random accesses: (we, addr, wdata); LO/HI pairs are frequent."""
    while True:
        r = random.random()
        if r < 0.3:
            yield 0, R["TIMESTAMP_LO"], random.getrandbits(32)
            yield 0, R["TIMESTAMP_HI"], random.getrandbits(32)
        elif r < 0.85:
            yield random.getrandbits(1), random.randrange(R["SCRATCH"] + 1), random.getrandbits(32)
        else:
            yield random.getrandbits(1), random.randrange(words), random.getrandbits(32)


@cocotb.test()
async def random_access(dut):
    addr_w, n = len(dut.rp_addr), len(dut.lmic_irq)
    p = params()
    strict, config_hash, info = p["strict"], p["config_hash"], p["info"]
    model = GlobalModel(1 << addr_w, strict, config_hash, info, n)
    start_clock(dut.clk, 10)
    ts = (1 << 32) - 2500 - random.randrange(500)  # crosses 2^32 mid-test
    for s in ("rp_req", "rp_we", "rp_addr", "rp_wdata", "lmic_irq"):
        getattr(dut, s).value = 0
    dut.timestamp.value = ts
    dut.rst.value = 1
    for _ in range(3):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    gen = transactions(1 << addr_w)
    cur = None          # transaction in flight: (we, addr, wdata)
    gap = 0
    lmic_irq = 0
    checked = marks = pairs = crossing_pairs = 0
    last_lo = None      # (timestamp at the LO read) awaiting its HI read
    reset_at = CYCLES // 2
    for cycle in range(CYCLES):
        await FallingEdge(dut.clk)
        rst = int(reset_at <= cycle < reset_at + 3)
        dut.rst.value = rst
        if random.random() < 0.03:
            lmic_irq = random.getrandbits(n)
        if cycle % 50 == 0:  # the input may jump: cross a 2^32 boundary often
            ts = (random.randrange(1, 1 << 32) << 32) - random.randrange(1, 8)
        req = 0
        if cur is None and not rst:
            if gap:
                gap -= 1
            else:
                cur = next(gen)
                req = 1
                gap = random.choice([0, 0, 1, 2, 5])
        we, addr, wdata = cur if cur is not None else (0, random.getrandbits(addr_w), 0)
        dut.rp_req.value = req
        dut.rp_we.value = we
        dut.rp_addr.value = addr
        dut.rp_wdata.value = wdata
        dut.lmic_irq.value = lmic_irq
        dut.timestamp.value = ts & ((1 << 64) - 1)
        if rst:
            model.reset()
            last_lo = None  # the snapshot is reset too
        else:
            model.step(req, we, addr, wdata, lmic_irq, ts)
        if req and not we and addr == R["TIMESTAMP_LO"]:
            last_lo = ts
        ts += 1
        await RisingEdge(dut.clk)
        await ReadOnly()
        got = (int(dut.rp_ack.value), int(dut.irq.value), int(dut.mark_valid.value))
        assert got == (model.ack, model.irq, model.mark_valid), (cycle, got)
        if model.ack:
            checked += 1
            assert int(dut.rp_err.value) == model.err, (cycle, addr)
            rdata = int(dut.rp_rdata.value)
            assert rdata == model.rdata, (cycle, we, addr, hex(rdata), hex(model.rdata))
            if not we and addr == R["TIMESTAMP_HI"] and last_lo is not None:
                # the pair (LO, HI) is the timestamp of the LO read
                assert (rdata << 32) | lo_value == last_lo, (cycle, hex(last_lo))
                pairs += 1
                crossing_pairs += (last_lo >> 32) != ((ts - 1) >> 32)
                last_lo = None
            if not we and addr == R["TIMESTAMP_LO"]:
                lo_value = rdata
            cur = None
        if model.mark_valid:
            marks += 1
            assert int(dut.mark_data.value) == wdata, cycle
    assert ts > 1 << 32 and pairs > 100, (ts, pairs)
    dut._log.info("checked %d random accesses (%d MARK events, %d LO/HI pairs, %d of them "
                  "read while TIMESTAMP_HI changed)", checked, marks, pairs, crossing_pairs)


@pytest.mark.parametrize("strict,num_lmics,addr_w", [(False, 1, 4), (True, 3, 6)])
def test_global(strict, num_lmics, addr_w):
    config_hash = 0x5EED0000 | num_lmics
    info = num_lmics | ((addr_w + 2) << 8) | (int(strict) << 16)
    run("jointer_collect_global", __name__,
        {"addr_w_g": addr_w, "strict_g": strict, "config_hash_g": slv(config_hash),
         "info_g": slv(info), "num_lmics_g": num_lmics},
        extra_env=params_env(strict=strict, config_hash=config_hash, info=info))
