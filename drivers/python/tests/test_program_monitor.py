# SPDX-License-Identifier: MIT
"""The program monitor through the binding, on configs/program_monitor.yaml
(Descriptor.from_yaml: jointer_gen + gcc -shared): pm_program's bus sequence
recorded by a Python register seam equals the one jointer_pm.h documents,
and profile() of records read back from the seam."""
import os

import pytest
from conftest import REPO

import jointer

INFO_REG = 0xC


@pytest.fixture(scope="module")
def pm_desc(tmp_path_factory):
    return jointer.Descriptor.from_yaml(os.path.join(REPO, "configs", "program_monitor.yaml"),
                                        str(tmp_path_factory.mktemp("pmdesc")))


def seam(desc):
    regs = {0x0: 0x4A4E5452, 0x4: 0x00020000, 0x8: desc.config_hash}
    writes = []

    def wr(off, v):
        writes.append((off, v))
        regs[off] = v
    return regs, writes, wr


def test_pm_program_bus_sequence(pm_desc):
    regs, writes, wr = seam(pm_desc)
    c = pm_desc.cfg_ptr.contents
    regs[INFO_REG] = c.info
    m = jointer.Monitor.attach(pm_desc, read32=lambda off: regs.get(off, 0), write32=wr)
    lbase = c.lmics[0].base
    m.set_mode("mb_pc", "no_filtering")
    m.run()
    writes.clear()
    syms = [("main", 0x100, 0x1F0), ("isr", 0x400, None)]
    m.pm_program("mb_pc", jointer.pm_table(syms))
    init = lbase + 0x10            # INIT of sniffer 0
    nd = c.sniffers[0].num_dcapfs
    bounds = []
    for k in range(nd):            # the DCAPFs' reset bounds, from the descriptor
        t = [c.traces[i] for i in range(c.num_traces) if c.traces[i].dcapf == k]
        mt = [c.metrics[i] for i in range(c.num_metrics) if c.metrics[i].dcapf == k]
        x = (t or mt)[0]
        bounds += [x.low_reset, x.high_reset]
    assert writes == [(lbase, 1 | (1 << 2))] + [(init, v) for v in bounds + [0b111, 0x100, 0x1F0, 0x400]] + \
        [(lbase, 1 | (3 << 2))]    # CONTROL: INIT with RUN kept, then NO_FILTERING again
    with pytest.raises(jointer.JointerError) as e:
        m.pm_program("mb_pc", list(range(33)))
    assert e.value.errno == 34     # ERANGE: above the 32-entry table


def test_profile_of_a_trace_read_back(pm_desc):
    regs, writes, wr = seam(pm_desc)
    c = pm_desc.cfg_ptr.contents
    regs[INFO_REG] = c.info
    t = c.traces[0]
    recs = [(100, 0), (130, 2), (135, 1), (300, 0), (340, 1)]       # main 0/1, isr 2 (entry only)
    regs[t.reg_offset + 0x4] = len(recs)                             # FILL
    regs[t.reg_offset + 0x0] = len(recs)                             # WPTR
    for k, (ts, d) in enumerate(recs):
        regs[t.ram_offset + 8 * k] = ts
        regs[t.ram_offset + 8 * k + 4] = d
    m = jointer.Monitor.attach(pm_desc, read32=lambda off: regs.get(off, 0), write32=wr)
    a = m.trace("pc_trace")
    assert list(zip(a["timestamp"].tolist(), a["data"].tolist())) == recs
    st = jointer.profile(a, [("main", 0x100, 0x1F0), ("isr", 0x400, None)])
    assert st["main"] == {"calls": 2, "total": 35 + 40, "min": 35, "max": 40, "unmatched_entries": 0,
                          "unmatched_exits": 0}
    assert st["isr"]["calls"] == 1
