# SPDX-License-Identifier: MIT
"""`monitor.platform: zynq7000` (the default): Zynq-7000, processing_system7.

32-bit physical addresses; the PL is reached through M_AXI_GP0
(0x4000_0000..0x7FFF_FFFF) and M_AXI_GP1 (0x8000_0000..0xBFFF_FFFF)
(UG585, "System Addresses"). Clocks FCLK_CLK0..3, reset FCLK_RESET0_N,
fabric interrupts IRQ_F2P (IRQ_F2P[0..7] = GIC interrupts 61..68), DDR
through S_AXI_HP0. Device tree as the kernel's zynq-7000.dtsi: one address
and one size cell, GIC `intc`, PL clocks `<&clkc 15..18>` (fclk0..3), PS bus
`amba`.
"""

from __future__ import annotations

from .base import Aperture, Platform

PLATFORM = Platform(
    name="zynq7000",
    title="Zynq-7000",
    address_bits=32,
    apertures=(Aperture("M_AXI_GP0", 0x4000_0000, 0x7FFF_FFFF),
               Aperture("M_AXI_GP1", 0x8000_0000, 0xBFFF_FFFF)),
    part="xc7z020clg484-1",
    ps_vlnv="xilinx.com:ip:processing_system7:5.5",
    ps_cell="ps7",
    pl_clocks=4,
    clock_pin="FCLK_CLK{i}",
    reset_pin="FCLK_RESET0_N",
    irq_pin="IRQ_F2P",
    master_clocks=(("M_AXI_GP0", "M_AXI_GP0_ACLK"), ("M_AXI_GP1", "M_AXI_GP1_ACLK")),
    hp_port="S_AXI_HP0",
    hp_clock="S_AXI_HP0_ACLK",
    ddr_segments=("S_AXI_HP0/HP0_DDR_LOWOCM",),
    ddr_segments_high=(),
    address_cells=1,
    gic="intc",
    pl_irq=29,
    pl_irq_text="IRQ_F2P[0..7] = GIC interrupts 61..68 -> N 29..36 (IRQ_F2P[8..15] = 84..91 -> N 52..59)",
    clock_provider="clkc",
    pl_clock=15,
    clock_text="<&clkc 15..18> = FCLK_CLK0..3 (fclk0..3)",
    ps_bus="amba",
)
