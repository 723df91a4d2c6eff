# SPDX-License-Identifier: MIT
"""What a platform is to the generator: the facts of one processing system
(PS) that the integration outputs depend on, in one frozen record per
platform module (platforms/<name>.py: `PLATFORM = Platform(...)`).

- the base addresses a YAML may use: `address_bits` (the PS's physical
  address width) and `apertures` (the windows its masters reach the PL
  through; `check_base()` words the errors);
- the example block design: the PS IP and its cell, its clock, reset and
  interrupt pins, its master ports (one per aperture) and its HP slave port
  with the DDR segments a master reaches through it; the PS's own creation
  and configuration is the template `templates/vivado/ps/<name>.tcl.j2`;
- the device tree: address and size cells of the PL bus, the interrupt
  controller's label and the first PL interrupt, the PL clocks' provider,
  the label of the PS bus a runtime overlay adds nodes to.

Nothing here imports another stage: the records are data, read by
load/validate.py (the base address) and the backends (vivado/, linux.py).
"""

from __future__ import annotations

from dataclasses import dataclass

PAGE = 4096                     # Vivado's smallest address segment (4K) and a UIO page


@dataclass(frozen=True)
class Aperture:
    """A window of the PS's address map that reaches the PL through one master port."""
    port: str                   # the PS's master interface (block design pin)
    low: int
    high: int                   # last byte

    def holds(self, base: int, size: int) -> bool:
        return self.low <= base and base + size - 1 <= self.high

    @property
    def text(self) -> str:
        return f"{self.port} 0x{self.low:X}..0x{self.high:X}"


@dataclass(frozen=True)
class Platform:
    name: str                   # the YAML value of monitor.platform
    title: str                  # for people: "Zynq-7000"
    address_bits: int           # the PS's physical addresses
    apertures: tuple[Aperture, ...]   # the first: the default master port
    # example block design (ip/example_bd.tcl)
    part: str                   # the example project's default part
    ps_vlnv: str
    ps_cell: str
    pl_clocks: int              # clock outputs to the PL (clock i of the YAML: the i-th)
    clock_pin: str              # format with {i}
    reset_pin: str              # the PS's fabric reset (active low)
    irq_pin: str                # fabric interrupts into the PS
    master_clocks: tuple[tuple[str, str], ...]   # (master port, its clock pin)
    hp_port: str                # the slave port DMA masters and trace sinks write DDR through
    hp_clock: str
    ddr_segments: tuple[str, ...]       # its DDR segments below 4 GB (cell-relative)
    ddr_segments_high: tuple[str, ...]  # and above, for masters wider than 32 bits
    # device tree
    address_cells: int          # of the PL bus (and the root): 1 or 2, size cells alike
    gic: str                    # label of the interrupt controller
    pl_irq: int                 # interrupts = <0 pl_irq 4>: the first PL interrupt (GIC SPI - 32)
    pl_irq_text: str            # how the PS's PL interrupts map to SPIs, for the comments
    clock_provider: str         # label of the PL clocks' provider
    pl_clock: int               # its index of PL clock 0 (clock i: pl_clock + i)
    clock_text: str             # the PL clocks' names, for the comments
    ps_bus: str                 # label of the PS bus in the kernel's .dtsi (overlays add to it)

    @property
    def template(self) -> str:
        """The PS's part of the example block design."""
        return f"vivado/ps/{self.name}.tcl.j2"

    def aperture(self, base: int, size: int = PAGE) -> Aperture | None:
        return next((a for a in self.apertures if a.holds(base, size)), None)

    def master(self, base: int, size: int = PAGE) -> str:
        """The master port that reaches [base, base + size): the default one when none does."""
        a = self.aperture(base, size)
        return (a or self.apertures[0]).port

    def master_clock(self, port: str) -> str:
        return dict(self.master_clocks)[port]

    def check_reach(self, base: int, size: int) -> str | None:
        """Why the PS cannot reach [base, base + size) in the PL, in words
        (None when it can)."""
        if base >= 1 << self.address_bits:
            return (f"bus.base_address 0x{base:X} is beyond the {self.address_bits}-bit address space of "
                    f"platform {self.name} ({self.title})")
        if self.aperture(base, size) is None:
            where = "; ".join(a.text for a in self.apertures)
            return (f"bus.base_address 0x{base:X} (0x{size:X} bytes) is outside the PL apertures of "
                    f"platform {self.name} ({self.title}): expected an address in {where}")
        return None

    def cells(self, value: int) -> str:
        """A number as address (or size) cells of the PL bus: '0x43c00000' or '0x0 0xa0000000'."""
        if self.address_cells == 1:
            return f"0x{value:08x}"
        return f"0x{value >> 32:x} 0x{value & 0xFFFFFFFF:08x}"
