# SPDX-License-Identifier: MIT
"""jointer_collect_lmic_port (the LMIC request pipeline) against a cycle model.

The register port has two phases (doc/internals/collect.md). The test is
the host and the register blocks at once:
- host: one access at a time, rp_req a one-cycle pulse, rp_we/rp_addr/
  rp_wdata held from the request through the answer (random in the other
  cycles: the port must use its captured copies); a write's rp_commit comes
  in the answer's cycle, a few cycles later, or never (an abort), sometimes
  twice; stray commits follow reads; a hard reset lands now and then on an
  armed write (and on requests: the pipeline still answers in reset).
- blocks: rd_data/rd_hit/rd_ram are a random table of rd_addr (the table
  moves over time); ram_data is a registered RAM model (ram_data of cycle
  n+1 = mem[rd_addr of cycle n]) whose words are rewritten all the time.
Every cycle the model checks rd_addr (the address captured by rp_req), rd
(the cycle after a read's request), wr / wr_addr / wr_data (combinational:
only with rp_commit and an armed write; the captured address and the held
word), rp_ack (two cycles after rp_req for a write, three for a read: the
blocks' rd_data / rd_hit / rd_ram and ram_data of the read's second cycle),
rp_rdata/rp_err (the held answer, constant from the ack until the next
request; err = unmapped and strict_g, or a reset at any edge from the request
to the answer) and that writes keep only the
wmask_g bits of the rp_wdata the master holds. Parametrised over strict_g, wmask_g (a
std_logic_vector generic, passed by run() as a literal) and addr_w_g.
"""
import random

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge, Timer

from collect_util import MASK32, params, params_env, start_clock
from jointer_sim import run, slv

CYCLES = 4000


class PortModel:
    """The pipeline's state; step() = one clock edge."""

    def __init__(self, strict, wmask):
        self.strict, self.wmask = strict, wmask
        self.held = None        # the held word (undefined until the first request)
        self.err = None
        self.ack = 0
        self.addr, self.we = 0, 0   # captured by the request
        self.pend = False       # the cycle after a request
        self.read_second = False  # a read's second cycle: it is answered
        self.armed = None       # [addr, data] of a captured write
        self.cut = False        # a reset since the last request: the answer is SLVERR

    def wr(self, commit):
        """(wr, wr_addr, wr_data) of this cycle (combinational)."""
        if commit and self.armed is not None:
            return 1, self.armed[0], self.armed[1]
        return 0, None, None

    def rd(self):
        """rd of this cycle."""
        return int(self.pend and not self.we)

    def step(self, rst, req, we, addr, wdata, commit, rd_data, rd_hit, rd_ram, ram_data):
        """rd_* are the blocks' answer for self.addr (the captured address)."""
        was_pend, was_read = self.pend, self.read_second
        self.ack, self.pend, self.read_second = 0, False, False
        if was_pend and self.we:
            self.err = int((not (rd_hit or rd_ram) and self.strict) or self.cut or rst)
            self.held = wdata & self.wmask      # the master still holds it
            if self.armed is not None:
                self.armed[1] = self.held
            self.ack = 1
        elif was_pend:
            self.read_second = True
        if was_read:                            # a read's second cycle: the answer
            self.err = int((not (rd_hit or rd_ram) and self.strict) or self.cut or rst)
            self.held, self.ack = (ram_data if rd_ram else rd_data), 1
        if req:
            self.addr, self.we, self.pend = addr, we, True
            self.armed = [addr, None] if we else None
            self.cut = False
        if commit or rst:
            self.armed = None
        if rst:
            self.cut = True


@cocotb.test()
async def random_accesses(dut):
    p = params()
    strict, wmask, addr_w = p["strict"], p["wmask"], p["addr_w"]
    nwords = 1 << addr_w
    start_clock(dut.clk, 10)
    model = PortModel(strict, wmask)

    # the register blocks: a random read table, moving over time
    table = [(random.getrandbits(32), int(random.random() < 0.6), int(random.random() < 0.25))
             for _ in range(nwords)]
    mem = [random.getrandbits(32) for _ in range(nwords)]   # the trace RAMs
    ram_reg = random.getrandbits(32)                        # the RAM's registered output

    for s in ("rp_req", "rp_commit", "rp_we", "rp_addr", "rp_wdata", "rd_data", "rd_hit", "rd_ram",
              "ram_data"):
        getattr(dut, s).value = 0
    dut.rst.value = 1
    for _ in range(2):
        await RisingEdge(dut.clk)
    dut.rst.value = 0

    stats = {"reads": 0, "ram_reads": 0, "writes": 0, "commits": 0, "late_commits": 0,
             "aborts": 0, "second_commits": 0, "stray_commits": 0, "reset_cancels": 0,
             "errs": 0, "oks": 0, "held_checks": 0, "held_not_live": 0, "masked": 0,
             "reset_reqs": 0, "idle_moves": 0}
    phase = "idle"          # idle -> wait (for the ack) -> commit (a write) -> idle
    cur = (0, 0, 0)         # (we, addr, wdata) of the access being answered
    commit_in = None        # cycles from the ack to the commit (None: abort)
    second = False          # a second commit to follow
    answer = None           # (rdata, err) held since the last ack
    rst_left = 0
    gap = 0
    for cycle in range(CYCLES):
        await FallingEdge(dut.clk)
        # the blocks: the table and the RAM move
        if random.random() < 0.1:
            a = random.randrange(nwords)
            table[a] = (random.getrandbits(32), int(random.random() < 0.6), int(random.random() < 0.25))
        for _ in range(2):
            mem[random.randrange(nwords)] = random.getrandbits(32)
        # hard reset: now and then, preferably while a write is armed
        if rst_left == 0 and cycle > 50 and cycle < CYCLES - 20 and random.random() < (
                0.05 if model.armed is not None and phase == "commit" else 0.003):
            rst_left = random.choice([1, 1, 2, 3])
        rst = int(rst_left > 0)
        # the host
        req = commit = 0
        if phase == "commit":
            if commit_in is None:
                stats["aborts"] += 1
                phase = "idle"
            elif commit_in == 0:
                commit, phase = 1, "idle"
                if model.armed is None:     # a reset came between ack and commit
                    stats["reset_cancels"] += 1
                second = random.random() < 0.15
                gap = max(gap, 1) if second else gap
            else:
                commit_in -= 1
        elif phase == "idle" and cycle < CYCLES - 5:
            if gap:
                gap -= 1
                if second or (not cur[0] and random.random() < 0.05):
                    commit = 1      # a second commit, or one after a read: nothing happens
                    stats["second_commits" if second else "stray_commits"] += 1
                    second = False
            else:
                r = random.random()
                addr = random.randrange(nwords)
                if r < 0.2:         # a RAM word
                    ram = [a for a in range(nwords) if table[a][2]]
                    addr = random.choice(ram) if ram else addr
                cur = (int(random.random() < 0.45), addr, random.choice(
                    [random.getrandbits(32), MASK32, 1 << random.randrange(32)]))
                req, phase, answer, second = 1, "wait", None, False
                gap = random.choice([0, 0, 0, 1, 2, 4])
                stats["reset_reqs"] += rst
        if phase in ("wait",) or req:
            we, addr, wdata = cur
        else:               # outside an access the master's lines are anything
            we, addr, wdata = random.getrandbits(1), random.randrange(nwords), random.getrandbits(32)
            stats["idle_moves"] += 1
        rd_data, rd_hit, rd_ram = table[model.addr]     # the blocks see the captured address
        dut.rst.value = rst
        dut.rp_req.value = req
        dut.rp_commit.value = commit
        dut.rp_we.value = we
        dut.rp_addr.value = addr
        dut.rp_wdata.value = wdata
        dut.rd_data.value = rd_data
        dut.rd_hit.value = rd_hit
        dut.rd_ram.value = rd_ram
        dut.ram_data.value = ram_reg
        exp_wr = model.wr(commit)
        await Timer(1, "ns")
        ctx = (cycle, req, we, addr, hex(wdata), commit, rst)
        assert int(dut.rd.value) == model.rd(), ctx
        if model.pend:
            assert int(dut.rd_addr.value) == model.addr, ctx
        assert int(dut.wr.value) == exp_wr[0], (ctx, model.armed)
        if exp_wr[0]:
            assert int(dut.wr_addr.value) == exp_wr[1], (ctx, exp_wr)
            assert int(dut.wr_data.value) == exp_wr[2], (ctx, hex(int(dut.wr_data.value)), exp_wr)
            stats["commits"] += 1
            stats["masked"] += wmask != MASK32 and exp_wr[2] != (cur[2] & MASK32)
        model_addr = model.addr
        model.step(rst, req, we, addr, wdata, commit, rd_data, rd_hit, rd_ram, ram_reg)
        ram_reg = mem[model_addr]   # the RAM registers the word at this cycle's rd_addr
        if random.random() < 0.5:
            mem[model_addr] = random.getrandbits(32)  # rewritten after it was read
        rst_left = max(0, rst_left - 1)
        await RisingEdge(dut.clk)
        await ReadOnly()
        assert int(dut.rp_ack.value) == model.ack, (ctx, model.ack)
        if model.held is not None and not model.read_second:
            got = (int(dut.rp_rdata.value), int(dut.rp_err.value))
            assert got == (model.held, model.err), (ctx, hex(got[0]), got[1], hex(model.held), model.err)
        if answer is not None:
            # held from the ack until the next request, whatever the lines do
            stats["held_checks"] += 1
            got = (int(dut.rp_rdata.value), int(dut.rp_err.value))
            assert got == answer, (ctx, answer)
            stats["held_not_live"] += got[0] != table[model.addr][0]
        if model.ack and phase == "wait":
            answer = (int(dut.rp_rdata.value), int(dut.rp_err.value))
            stats["errs" if answer[1] else "oks"] += 1
            if cur[0]:
                stats["writes"] += 1
                phase = "commit"
                commit_in = random.choice([0, 0, 0, 1, 2, 5, None])
                stats["late_commits"] += commit_in not in (0, None)
            else:
                stats["reads"] += 1
                stats["ram_reads"] += table[cur[1]][2]
                phase = "idle"
    assert stats["commits"] > 100 and stats["late_commits"] > 30 and stats["aborts"] > 30, stats
    assert stats["second_commits"] > 10 and stats["stray_commits"] > 10, stats
    assert stats["reset_cancels"] > 3 and stats["reset_reqs"] > 3, stats
    assert stats["ram_reads"] > 50 and stats["reads"] > 300 and stats["held_not_live"] > 300, stats
    assert stats["oks"] > 100 and (stats["errs"] > 100) == strict, stats
    if wmask != MASK32:
        assert stats["masked"] > 50, stats
    dut._log.info("checked %d cycles: %s", CYCLES, ", ".join(f"{k} {v}" for k, v in stats.items()))


@pytest.mark.parametrize("addr_w,strict,wmask", [
    (6, False, MASK32),
    (6, True, MASK32),
    (3, True, 0x0000_03FF),
    (10, False, 0x8001_FFF3),
])
def test_lmic_port(addr_w, strict, wmask):
    run("jointer_collect_lmic_port", __name__,
        {"addr_w_g": addr_w, "strict_g": strict, "wmask_g": slv(wmask)},
        extra_env=params_env(addr_w=addr_w, strict=strict, wmask=wmask))
