# SPDX-License-Identifier: MIT
"""jointer_collect_global against a cycle model of doc/internals/collect.md.

Random register-port traffic (every word of the window, unmapped ones
included, random write data, random gaps), random LMIC irq levels, and a
timestamp input that crosses a 2^32 boundary every 50 cycles while the host
reads TIMESTAMP_LO/HI pairs. The register port has two phases: a write is
performed on rp_commit (driven in the cycle of its answer, or later, or - an
abort - never: then it has no effect). Every cycle the outputs (ack, irq,
mark_valid/mark_data) are compared with the model; the answer (rdata, err)
from the ack cycle until the next request, as the DCI reads it (held); every
LO/HI pair must equal the timestamp of the LO read (never torn). The
optional registers (TIMESTAMP, MARK, SCRATCH, the descriptor ROM's
DESC_INDEX/DESC_DATA) are present or absent by the generics: absent, their
words are unmapped (0; SLVERR when strict). DESC_INDEX gets random values
(beyond the ROM too: it keeps min(value, words)), DESC_DATA answers the ROM
word (0 beyond). A second test reads the whole ROM word by word. The
answer goes to 0 when an access to another target starts (rp_start without
rp_req): the DCI takes it ungated. A hard reset happens mid-test.
"""
import random

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from collect_util import MASK32, layout, params, params_env, start_clock
from jointer_sim import run, slv

ID, VERSION = 0x4A4E5452, 0x00020000
R = layout.GLOBAL_REGS
CYCLES = 6000


class GlobalModel:
    def __init__(self, words, strict, config_hash, info, num_lmics, ts_on, mark_on, scratch_on, rom):
        self.words, self.strict = words, strict
        self.config_hash, self.info, self.n = config_hash, info, num_lmics
        self.rom = rom
        self.present = {a for a in R.values()}
        for name, on in (("TIMESTAMP_LO", ts_on), ("TIMESTAMP_HI", ts_on), ("MARK", mark_on),
                         ("SCRATCH", scratch_on), ("DESC_INDEX", rom), ("DESC_DATA", rom)):
            if not on:
                self.present.discard(R[name])
        self.reset()

    def reset(self):
        self.enable, self.scratch, self.ts_hi, self.desc_index = 0, 0, 0, 0
        self.ack = self.irq = self.mark_valid = 0
        self.rdata = self.err = 0       # the held answer

    def value(self, addr, lmic_irq, ts):
        if addr not in self.present:
            return 0
        return {R["ID"]: ID, R["VERSION"]: VERSION, R["CONFIG_HASH"]: self.config_hash,
                R["INFO"]: self.info, R["IRQ_STATUS"]: lmic_irq, R["IRQ_ENABLE"]: self.enable,
                R["TIMESTAMP_LO"]: ts & MASK32, R["TIMESTAMP_HI"]: self.ts_hi,
                R["SCRATCH"]: self.scratch, R["DESC_INDEX"]: self.desc_index,
                R["DESC_DATA"]: self.rom[self.desc_index] if self.desc_index < len(self.rom) else 0,
                }.get(addr, 0)

    def step(self, req, start, commit, we, addr, wdata, lmic_irq, ts):
        """One cycle; afterwards the attributes are the outputs of the next cycle,
        except mark_valid, which is this cycle's (combinational on the commit).
        start: an access starts (this block's own request, or one to another
        target: the answer shows 0 from then on)."""
        rd, wr = req and not we, commit and we
        self.ack = req
        if start:
            self.rdata = 0
        self.mark_valid = int(wr and addr == R["MARK"] and addr in self.present)
        if req:
            self.rdata = self.value(addr, lmic_irq, ts) if rd else 0
            self.err = int(addr not in self.present and self.strict)
        self.irq = int(lmic_irq & self.enable != 0)
        if rd and addr == R["TIMESTAMP_LO"] and addr in self.present:
            self.ts_hi = ts >> 32
        if wr and addr == R["IRQ_ENABLE"]:
            self.enable = wdata & ((1 << self.n) - 1)
        if wr and addr == R["SCRATCH"] and addr in self.present:
            self.scratch = wdata
        if wr and addr == R["DESC_INDEX"] and addr in self.present:
            self.desc_index = min(wdata, len(self.rom))


def transactions(words, rom_words):
    """Endless random accesses: (we, addr, wdata); LO/HI pairs and DESC_INDEX
    writes followed by DESC_DATA reads are frequent."""
    while True:
        r = random.random()
        if r < 0.25:
            yield 0, R["TIMESTAMP_LO"], random.getrandbits(32)
            yield 0, R["TIMESTAMP_HI"], random.getrandbits(32)
        elif r < 0.4:
            index = random.choice([random.randrange(rom_words + 2), random.getrandbits(32),
                                   random.getrandbits(random.randrange(1, 32))])
            yield 1, R["DESC_INDEX"], index
            yield 0, R["DESC_DATA"], random.getrandbits(32)
        elif r < 0.85:
            yield random.getrandbits(1), random.randrange(max(R.values()) + 1), random.getrandbits(32)
        else:
            yield random.getrandbits(1), random.randrange(words), random.getrandbits(32)


@cocotb.test()
async def random_access(dut):
    addr_w, n = len(dut.rp_addr), len(dut.lmic_irq)
    p = params()
    strict, config_hash, info = p["strict"], p["config_hash"], p["info"]
    ts_on, mark_on, scratch_on, rom = p["timestamp"], p["mark"], p["scratch"], p["rom"]
    model = GlobalModel(1 << addr_w, strict, config_hash, info, n, ts_on, mark_on, scratch_on, rom)
    start_clock(dut.clk, 10)
    ts = (1 << 32) - 2500 - random.randrange(500)  # crosses 2^32 mid-test
    for s in ("rp_req", "rp_start", "rp_commit", "rp_we", "rp_addr", "rp_wdata", "lmic_irq"):
        getattr(dut, s).value = 0
    dut.timestamp.value = ts
    dut.rst.value = 1
    for _ in range(3):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    gen = transactions(1 << addr_w, len(rom))
    cur = None          # transaction in flight: (we, addr, wdata)
    phase = "idle"      # idle -> req -> wait (ack) -> commit (writes) -> idle
    gap = commit_delay = 0
    lmic_irq = 0
    checked = marks = pairs = crossing_pairs = aborts = held_checks = foreign = rom_reads = 0
    last_lo = lo_value = None   # (timestamp at the LO read) awaiting its HI read
    held = None                 # the answer the DCI reads until the next request
    reset_at = CYCLES // 2
    for cycle in range(CYCLES):
        await FallingEdge(dut.clk)
        rst = int(reset_at <= cycle < reset_at + 3)
        dut.rst.value = rst
        if random.random() < 0.03:
            lmic_irq = random.getrandbits(n)
        if cycle % 50 == 0:  # the input may jump: cross a 2^32 boundary often
            ts = (random.randrange(1, 1 << 32) << 32) - random.randrange(1, 8)
        req = commit = start = 0
        if phase == "idle" and not rst:
            if gap:
                gap -= 1
                if random.random() < 0.1:
                    start = 1       # an access to another target starts: the answer goes to 0
                    foreign += 1
            else:
                cur = next(gen)
                req, phase = 1, "req"
                gap = random.choice([0, 0, 1, 2, 5])
                commit_delay = random.choice([0, 0, 0, 1, 3, None])  # None: never (abort)
        elif phase == "commit":
            if commit_delay is None:
                aborts += 1
                phase = "idle"
            elif commit_delay == 0:
                commit, phase = 1, "idle"
            else:
                commit_delay -= 1
        if rst:
            phase, cur = "idle", None
        we, addr, wdata = cur if cur is not None else (0, random.getrandbits(addr_w), 0)
        start |= req
        dut.rp_req.value = req
        dut.rp_start.value = start
        dut.rp_commit.value = commit
        dut.rp_we.value = we
        dut.rp_addr.value = addr
        dut.rp_wdata.value = wdata
        dut.lmic_irq.value = lmic_irq
        dut.timestamp.value = ts & ((1 << 64) - 1)
        await ReadOnly()
        if rst:
            model.reset()
            last_lo = held = None  # the snapshot is reset too
        else:
            model.step(req, start, commit, we, addr, wdata, lmic_irq, ts)
            assert int(dut.mark_valid.value) == model.mark_valid, (cycle, addr, commit)
            if model.mark_valid:
                marks += 1
                assert int(dut.mark_data.value) == wdata, cycle
            if held is not None and not req:     # the held answer does not move
                assert (int(dut.rp_rdata.value), int(dut.rp_err.value)) == held, (cycle, held)
                held_checks += 1
        if req and not we and addr == R["TIMESTAMP_LO"] and ts_on:
            last_lo = ts
        ts += 1
        await RisingEdge(dut.clk)
        await ReadOnly()
        if start and not req and not rst:
            held = (0, model.err)
        got = (int(dut.rp_ack.value), int(dut.irq.value))
        assert got == (model.ack, model.irq), (cycle, got)
        if model.ack:
            checked += 1
            assert int(dut.rp_err.value) == model.err, (cycle, addr)
            rdata = int(dut.rp_rdata.value)
            assert rdata == model.rdata, (cycle, we, addr, hex(rdata), hex(model.rdata))
            held = (rdata, model.err)
            if not we and addr == R["TIMESTAMP_HI"] and last_lo is not None and lo_value is not None:
                # the pair (LO, HI) is the timestamp of the LO read
                assert (rdata << 32) | lo_value == last_lo, (cycle, hex(last_lo))
                pairs += 1
                crossing_pairs += (last_lo >> 32) != ((ts - 1) >> 32)
                last_lo = None
            if not we and addr == R["TIMESTAMP_LO"]:
                lo_value = rdata
            rom_reads += not we and addr == R["DESC_DATA"] and rdata != 0
            phase = "commit" if we else "idle"
    assert held_checks > 1000 and aborts > 10 and foreign > 50, (held_checks, aborts, foreign)
    if ts_on:
        assert ts > 1 << 32 and pairs > 100, (ts, pairs)
    if mark_on:
        assert marks > 20, marks
    if any(rom):
        assert rom_reads > 20, rom_reads
    dut._log.info("checked %d random accesses (%d MARK events, %d LO/HI pairs, %d of them read while "
                  "TIMESTAMP_HI changed, %d aborted writes, %d held-answer cycles, %d ROM words read)", checked,
                  marks, pairs, crossing_pairs, aborts, held_checks, rom_reads)


class Port:
    """One register-port access at a time, as the DCI makes them."""

    def __init__(self, dut):
        self.dut = dut

    async def access(self, we, addr, wdata=0):
        d = self.dut
        await FallingEdge(d.clk)
        d.rp_req.value = 1
        d.rp_start.value = 1
        d.rp_we.value = we
        d.rp_addr.value = addr
        d.rp_wdata.value = wdata
        await FallingEdge(d.clk)       # answered: ack, rdata, err
        d.rp_req.value = 0
        d.rp_start.value = 0
        assert int(d.rp_ack.value) == 1
        answer = (int(d.rp_rdata.value), int(d.rp_err.value))
        if we and not answer[1]:
            d.rp_commit.value = 1      # phase 2 with the answer
            await FallingEdge(d.clk)
            d.rp_commit.value = 0
        return answer


@cocotb.test()
async def whole_rom(dut):
    """DESC_INDEX = 0, 1, ...: DESC_DATA, word after word, is the ROM's bytes
    exactly (file byte 4i+k = bits 8k+7..8k of word i); two words beyond
    read 0; DESC_INDEX reads back min(value, words). Without a ROM both
    words are unmapped (0, SLVERR when strict)."""
    p = params()
    rom, strict = p["rom"], p["strict"]
    start_clock(dut.clk, 10)
    for s in ("rp_req", "rp_start", "rp_commit", "rp_we", "rp_addr", "rp_wdata", "lmic_irq"):
        getattr(dut, s).value = 0
    dut.rst.value = 1
    for _ in range(3):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    port = Port(dut)
    absent = (0, int(strict and not rom))
    got = bytearray()
    for i in range(len(rom) + 2):
        assert await port.access(1, R["DESC_INDEX"], i) == absent
        data, err = await port.access(0, R["DESC_DATA"])
        assert err == absent[1]
        got += data.to_bytes(4, "little")
    want = b"".join(w.to_bytes(4, "little") for w in rom) + bytes(8)
    assert bytes(got) == (want if rom else bytes(len(got))), (got.hex(), want.hex())
    for value, back in ((0xFFFFFFFF, len(rom)), (len(rom) + 1, len(rom)), (len(rom) - 1, len(rom) - 1),
                        (1 << 31, len(rom))):
        await port.access(1, R["DESC_INDEX"], value)
        assert await port.access(0, R["DESC_INDEX"]) == ((back if rom else 0), absent[1]), hex(value)
    dut._log.info("read the %d-word ROM: %s...", len(rom), bytes(got[:16]).hex())


def rom_words(n: int) -> list[int]:
    """n words: a descriptor-like header ("JDSC", format 1) then random words."""
    rnd = random.Random(n)
    head = [0x4353444A, 0x00400001, 4 * n]
    return (head + [rnd.getrandbits(32) for _ in range(max(0, n - 3))])[:n]


@pytest.mark.parametrize("strict,num_lmics,addr_w,ts,mark,scratch,rom",
                         [(False, 1, 4, True, True, True, 0), (True, 3, 6, True, True, True, 0),
                          (True, 2, 4, False, False, False, 0), (False, 1, 5, False, True, False, 0),
                          (False, 1, 4, False, False, False, 88), (True, 2, 4, True, False, True, 1),
                          (True, 1, 4, False, False, False, 64)])
def test_global(strict, num_lmics, addr_w, ts, mark, scratch, rom):
    config_hash = 0x5EED0000 | num_lmics
    info = (num_lmics | ((addr_w + 2) << 8) | (int(strict) << 16) | (int(ts) << 17) | (int(mark) << 18)
            | (int(scratch) << 19) | (int(rom > 0) << 20))
    words = rom_words(rom)
    run("jointer_collect_global", __name__,
        {"addr_w_g": addr_w, "strict_g": strict, "config_hash_g": slv(config_hash),
         "info_g": slv(info), "num_lmics_g": num_lmics, "has_timestamp_g": ts, "has_mark_g": mark,
         "has_scratch_g": scratch, **({"desc_words_g": rom, "desc_rom_g": [slv(w) for w in words]} if rom else {})},
        extra_env=params_env(strict=strict, config_hash=config_hash, info=info, timestamp=ts, mark=mark,
                             scratch=scratch, rom=words))
