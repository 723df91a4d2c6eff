# SPDX-License-Identifier: MIT
"""Reset edges of the collection layer (tb_collect_core.vhd: DCI + global +
LMIC "near" on the bus clock + LMIC "far" behind the CDC bridge), with the
bus reset through a reset bridge of rst_stages_g flip-flops. No access may be
lost at a reset edge: each is answered within a bound, never hung.

- first_edge_valid: AWVALID+WVALID and/or ARVALID already high when
  s_axi_aresetn rises (the access starts on the first edge after the
  release, which AXI masters may not do but this slave must survive), to
  the global block, the near LMIC and the far LMIC: answered OKAY within
  the bound, the write performed (read back).
- bus_reset_mid_access: s_axi_aresetn pulsed at a random cycle of an access
  to any target: no stale BVALID/RVALID afterwards, and the next accesses to
  every target answer correctly.
- crossing_reset_mid_access: the far LMIC's reset (a1_rst) asserted at a
  random cycle of an access to it: answered (SLVERR or OKAY) within the
  bridge's bound; a write answered SLVERR is not performed; afterwards
  accesses are answered OKAY.
"""
import random

import cocotb
import pytest
from cocotb.triggers import FallingEdge, RisingEdge

from collect_core import TB_SOURCES, core_generics, fixture_layout
from collect_util import OKAY, SLVERR, params, params_env, start_clock
from jointer_sim import run

LAY = fixture_layout()
SCRATCH = LAY.global_reg("SCRATCH")
CDC_TIMEOUT = 64
BOUND = 2 * CDC_TIMEOUT + 40          # bus cycles: the bridge's timeout + the handshake


def thr_word(li):
    """(byte address of the low threshold word, width) of the first threshold of LMIC li."""
    d = next(d for d in LAY.lmics[li].dcapfs if d.threshold_word >= 0)
    return LAY.lmic_reg(li, d.threshold_word), d.width


class Bus:
    """Hand-driven AXI4-Lite master: values change on falling edges."""

    def __init__(self, dut):
        self.dut, self.clk = dut, dut.s_axi_aclk

    def sig(self, name):
        return getattr(self.dut, f"s_axi_{name}")

    def drive_idle(self):
        for s in ("awaddr", "awprot", "awvalid", "wdata", "wstrb", "wvalid", "bready",
                  "araddr", "arprot", "arvalid", "rready"):
            self.sig(s).value = 0

    def post(self, write=None, read=None):
        """Raise the VALIDs of a write (addr, data) and/or a read (addr) now."""
        if write is not None:
            self.sig("awaddr").value, self.sig("wdata").value = write
            self.sig("wstrb").value = 0xF
            self.sig("awvalid").value = 1
            self.sig("wvalid").value = 1
        if read is not None:
            self.sig("araddr").value = read
            self.sig("arvalid").value = 1

    async def finish(self, write, read, bound=BOUND):
        """Complete the posted accesses (READY, then the response with xREADY
        high); (bresp, (rresp, rdata)) of those asked for, within `bound`
        cycles each, else the test fails."""
        want_b, want_r = write is not None, read is not None
        self.sig("bready").value = int(want_b)
        self.sig("rready").value = int(want_r)
        b = r = None
        for _ in range(bound * (int(want_b) + int(want_r))):
            await RisingEdge(self.clk)
            if int(self.sig("awvalid").value) and int(self.sig("awready").value):
                self.sig("awvalid").value = 0
                self.sig("wvalid").value = 0
            if int(self.sig("arvalid").value) and int(self.sig("arready").value):
                self.sig("arvalid").value = 0
            if int(self.sig("bvalid").value) and int(self.sig("bready").value):
                assert want_b and b is None, "a write response nobody asked for"
                b = int(self.sig("bresp").value)
            if int(self.sig("rvalid").value) and int(self.sig("rready").value):
                assert want_r and r is None, "a read response nobody asked for"
                r = (int(self.sig("rresp").value), int(self.sig("rdata").value))
            if (b is not None or not want_b) and (r is not None or not want_r):
                await FallingEdge(self.clk)
                self.drive_idle()
                return b, r
        raise AssertionError(f"no answer within {bound} cycles (write {write}, read {read}): "
                             f"bresp {b}, read {r}")

    async def write(self, addr, data):
        await FallingEdge(self.clk)
        self.post(write=(addr, data))
        b, _ = await self.finish((addr, data), None)
        return b

    async def read(self, addr):
        await FallingEdge(self.clk)
        self.post(read=addr)
        _, r = await self.finish(None, addr)
        return r


async def start(dut):
    bus = Bus(dut)
    bus.drive_idle()
    dut.ts_preset.value = 0
    for p in ("a0_", "a1_"):
        for s in ("ev_good", "ev_data", "ev_inc"):
            getattr(dut, p + s).value = 0
    start_clock(dut.s_axi_aclk, 10)
    start_clock(dut.a1_clk, params()["a1_period"])
    dut.s_axi_aresetn.value = 0
    dut.a1_rst.value = 1
    for _ in range(6):
        await RisingEdge(dut.s_axi_aclk)
    await FallingEdge(dut.a1_clk)
    dut.a1_rst.value = 0
    return bus


async def start_released(dut):
    bus = await start(dut)
    await FallingEdge(dut.s_axi_aclk)
    dut.s_axi_aresetn.value = 1
    for _ in range(4):
        await RisingEdge(dut.s_axi_aclk)
    return bus


async def release_with(bus, dut, write=None, read=None):
    """Hold the bus in reset, post the accesses, release s_axi_aresetn so that
    the first rising edge after the release sees the VALIDs high."""
    await FallingEdge(dut.s_axi_aclk)
    dut.s_axi_aresetn.value = 0
    for _ in range(3):
        await FallingEdge(dut.s_axi_aclk)
    bus.post(write, read)
    await FallingEdge(dut.s_axi_aclk)
    dut.s_axi_aresetn.value = 1
    return await bus.finish(write, read)


@cocotb.test()
async def first_edge_valid(dut):
    bus = await start(dut)
    targets = [(SCRATCH, 32, "global SCRATCH"), (*thr_word(0), "near THRESHOLD"),
               (*thr_word(1), "far THRESHOLD")]
    n = 0
    for rnd in range(6):
        for addr, width, what in targets:
            data = random.getrandbits(32)
            kind = rnd % 3          # 0 write, 1 read, 2 both together
            if kind == 0:
                b, _ = await release_with(bus, dut, write=(addr, data))
                assert b == OKAY, (what, b)
            elif kind == 1:
                _, r = await release_with(bus, dut, read=addr)
                assert r[0] == OKAY, (what, r)
            else:
                b, r = await release_with(bus, dut, write=(addr, data), read=SCRATCH)
                assert b == OKAY and r[0] == OKAY, (what, b, r)
            n += 1
            if kind != 1 and width <= 32:
                # reset values are not written by the reset: the write landed
                got = await bus.read(addr)
                assert got == (OKAY, data), (what, hex(data), got)
    dut._log.info("%d accesses with VALID on the first edge after reset release: answered "
                  "OKAY, writes performed", n)


@cocotb.test()
async def bus_reset_mid_access(dut):
    bus = await start_released(dut)
    clk = dut.s_axi_aclk
    addrs = [SCRATCH, thr_word(0)[0], thr_word(1)[0]]
    for k in range(30):
        addr = random.choice(addrs)
        await FallingEdge(clk)
        if k % 2:
            bus.post(write=(addr, random.getrandbits(32)))
            bus.sig("bready").value = random.getrandbits(1)
        else:
            bus.post(read=addr)
            bus.sig("rready").value = random.getrandbits(1)
        for _ in range(random.randrange(0, 12)):
            await FallingEdge(clk)
        dut.s_axi_aresetn.value = 0
        bus.drive_idle()        # the master resets too
        for _ in range(random.randrange(1, 4)):
            await FallingEdge(clk)
        dut.s_axi_aresetn.value = 1
        for _ in range(4):
            await RisingEdge(clk)
            assert not int(bus.sig("bvalid").value) and not int(bus.sig("rvalid").value), \
                "a response after the reset"
        for a in addrs:
            data = random.getrandbits(32)
            assert await bus.write(a, data) == OKAY, hex(a)
            if a == SCRATCH or a == thr_word(0)[0]:
                assert await bus.read(a) == (OKAY, data), hex(a)
            else:
                assert (await bus.read(a))[0] == OKAY, hex(a)
    dut._log.info("30 bus resets in the middle of accesses: nothing stale, every later access "
                  "answered")


@cocotb.test()
async def crossing_reset_mid_access(dut):
    bus = await start_released(dut)
    addr, _ = thr_word(1)
    a1 = dut.a1_clk
    answers = {OKAY: 0, SLVERR: 0}
    for k in range(40):
        before = await bus.read(addr)
        assert before[0] == OKAY, before
        data = random.getrandbits(32)
        write = k % 2 == 0
        await FallingEdge(dut.s_axi_aclk)
        bus.post(write=(addr, data)) if write else bus.post(read=addr)
        task = cocotb.start_soon(bus.finish((addr, data) if write else None, None if write else addr))
        for _ in range(random.randrange(0, 14)):
            await FallingEdge(a1)
        dut.a1_rst.value = 1
        for _ in range(random.randrange(1, 6)):
            await FallingEdge(a1)
        dut.a1_rst.value = 0
        b, r = await task
        resp = b if write else r[0]
        assert resp in (OKAY, SLVERR), resp
        answers[resp] += 1
        after = await bus.read(addr)
        assert after[0] == OKAY, after
        if write and resp == SLVERR:
            # not performed: the far LMIC's threshold is its value before, or
            # its reset value (the reset cleared it)
            assert after[1] in (before[1], 0xFFFFFFFF), (hex(before[1]), hex(after[1]), hex(data))
    dut._log.info("40 far-LMIC resets in the middle of crossing accesses: answered (%d OKAY, %d "
                  "SLVERR), never hung", answers[OKAY], answers[SLVERR])


@pytest.mark.parametrize("rst_stages,a1_period", [(1, 37), (3, 7)])
def test_collect_reset(rst_stages, a1_period):
    here = __import__("pathlib").Path(__file__).parent
    g = core_generics(False, cdc_timeout=CDC_TIMEOUT)
    g["rst_stages_g"] = rst_stages
    run("tb_collect_core", __name__, g, extra_sources=[here / s for s in TB_SOURCES],
        name=f"tb_collect_reset_{rst_stages}", extra_env=params_env(a1_period=a1_period))
