# SPDX-License-Identifier: MIT
"""`monitor.platform: zynqmp`: Zynq UltraScale+ MPSoC, zynq_ultra_ps_e.

40-bit physical addresses; the PL is reached through M_AXI_HPM0_FPD
(0xA000_0000..0xAFFF_FFFF, 0x4_0000_0000..0x4_FFFF_FFFF,
0x10_0000_0000..0x47_FFFF_FFFF), M_AXI_HPM1_FPD (0xB000_0000..0xBFFF_FFFF,
0x5_0000_0000..0x5_FFFF_FFFF, 0x48_0000_0000..0x7F_FFFF_FFFF) and
M_AXI_HPM0_LPD (0x8000_0000..0x9FFF_FFFF) (UG1085, "System Addresses").
Clocks pl_clk0..3, reset pl_resetn0, fabric interrupts pl_ps_irq0
(pl_ps_irq0[0..7] = GIC interrupts 121..128), DDR through S_AXI_HP0_FPD
(SAXIGP2: HP0_DDR_LOW below 2 GB, HP0_DDR_HIGH from 0x8_0000_0000 for masters
of more than 32 address bits). Device tree as the kernel's zynqmp.dtsi: two
address and two size cells, GIC `gic`, PL clocks `<&zynqmp_clk 71..74>`
(pl0_ref..pl3_ref), PS bus `amba`.
"""

from __future__ import annotations

from .base import Aperture, Platform

PLATFORM = Platform(
    name="zynqmp",
    title="Zynq UltraScale+",
    address_bits=40,
    apertures=(Aperture("M_AXI_HPM0_FPD", 0xA000_0000, 0xAFFF_FFFF),
               Aperture("M_AXI_HPM1_FPD", 0xB000_0000, 0xBFFF_FFFF),
               Aperture("M_AXI_HPM0_LPD", 0x8000_0000, 0x9FFF_FFFF),
               Aperture("M_AXI_HPM0_FPD", 0x4_0000_0000, 0x4_FFFF_FFFF),
               Aperture("M_AXI_HPM1_FPD", 0x5_0000_0000, 0x5_FFFF_FFFF),
               Aperture("M_AXI_HPM0_FPD", 0x10_0000_0000, 0x47_FFFF_FFFF),
               Aperture("M_AXI_HPM1_FPD", 0x48_0000_0000, 0x7F_FFFF_FFFF)),
    part="xczu9eg-ffvb1156-2-e",
    ps_vlnv="xilinx.com:ip:zynq_ultra_ps_e",
    ps_cell="zynq_ps",
    pl_clocks=4,
    clock_pin="pl_clk{i}",
    reset_pin="pl_resetn0",
    irq_pin="pl_ps_irq0",
    master_clocks=(("M_AXI_HPM0_FPD", "maxihpm0_fpd_aclk"), ("M_AXI_HPM1_FPD", "maxihpm1_fpd_aclk"),
                   ("M_AXI_HPM0_LPD", "maxihpm0_lpd_aclk")),
    hp_port="S_AXI_HP0_FPD",
    hp_clock="saxihp0_fpd_aclk",
    ddr_segments=("SAXIGP2/HP0_DDR_LOW",),
    ddr_segments_high=("SAXIGP2/HP0_DDR_HIGH",),
    address_cells=2,
    gic="gic",
    pl_irq=89,
    pl_irq_text="pl_ps_irq0[0..7] = GIC interrupts 121..128 -> N 89..96 (pl_ps_irq1[0..7] = 136..143 -> N 104..111)",
    clock_provider="zynqmp_clk",
    pl_clock=71,
    clock_text="<&zynqmp_clk 71..74> = pl_clk0..3 (pl0_ref..pl3_ref)",
    ps_bus="amba",
)
