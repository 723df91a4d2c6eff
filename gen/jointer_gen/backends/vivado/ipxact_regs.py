# SPDX-License-Identifier: MIT
"""The registers of a monitor as IP-XACT (IEEE 1685-2009) `<spirit:register>`
entries of component.xml's address block: the same rows as the C header and
the register-map documentation (Design.register_map, written by regmap.py),
with their fields, access and reset values, so that Vivado's address editor,
its hardware handoff and tools that build register maps from the IP (PYNQ)
see every register.

- names: the register map's (`accel.CONTROL`, `accel.COMPUTE_CYCLES[1]`) as
  IP-XACT names (`accel_CONTROL`, `accel_COMPUTE_CYCLES_1`);
- a trace RAM window is one register with `spirit:dim` = its words;
- fields: CONTROL (RUN, SOFT_RESET, PROG_<sniffer>), STATUS (VALID_<sniffer>,
  OVERFLOW_<sniffer>), IRQ_STATUS (one write-1-to-clear bit per source),
  INFO; every other register is one field `value` of 32 bits.
"""

from __future__ import annotations

from ...model import layout as layout_mod

ACCESS = {"ro": "read-only", "wo": "write-only", "rw": "read-write", "rw1c": "read-write"}


def ipxact_name(name: str) -> str:
    return name.replace(".", "_").replace("[", "_").replace("]", "")


def _field(name, offset, width, access, desc, one_to_clear=False) -> dict:
    return {"name": name, "offset": offset, "width": width, "access": ACCESS[access], "desc": desc,
            "one_to_clear": one_to_clear}


def _fields(d, row: dict) -> list[dict]:
    name, acc = row["name"], row["access"]
    lmic = next((lv for lv in d.lmics if name.startswith(lv.model.name + ".")), None)
    reg = name.split(".", 1)[1] if lmic else name
    if lmic is not None and reg == "CONTROL":
        out = [_field("RUN", 0, 1, "rw", "run every FILTERING/NO_FILTERING sniffer"),
               _field("SOFT_RESET", 1, 1, "wo", "write 1: clear the results of every sniffer not IDLE")]
        out += [_field(f"PROG_{sv.model.name}", layout_mod.prog_shift(sv.index), 2, "rw",
                       f"sniffer {sv.model.name}: 0 IDLE, 1 INIT, 2 FILTERING, 3 NO_FILTERING")
                for sv in lmic.sniffers]
        return out
    if lmic is not None and reg == "STATUS":
        out = [_field(f"VALID_{sv.model.name}", sv.index, 1, "ro", f"a result of {sv.model.name} caught")
               for sv in lmic.sniffers]
        out += [_field(f"OVERFLOW_{sv.model.name}", layout_mod.STATUS_OVERFLOW_SHIFT + sv.index, 1, "ro",
                       f"a result of {sv.model.name} overflowed (sticky)") for sv in lmic.sniffers]
        return out
    if lmic is not None and reg == "IRQ_STATUS" and lmic.layout.num_irq:
        return [_field(f"SOURCE_{i}", i, 1, "rw", f"interrupt source {i} pending (write 1 to clear)", True)
                for i in range(lmic.layout.num_irq)]
    if lmic is None and reg == "INFO":
        return [_field("LMICS", 0, 8, "ro", "number of LMICs"),
                _field("WINDOW_LOG2", 8, 8, "ro", "log2 of the window bytes"),
                _field("STRICT", 16, 1, "ro", "unmapped addresses answer SLVERR"),
                _field("TIMESTAMP", 17, 1, "ro", "TIMESTAMP_LO/HI present"),
                _field("MARK", 18, 1, "ro", "MARK present"),
                _field("SCRATCH", 19, 1, "ro", "SCRATCH present")]
    return [_field("value", 0, 32, acc if acc != "rw1c" else "rw", row["desc"], acc == "rw1c")]


def registers(d) -> list[dict]:
    """[{name, offset, dim, access, reset, desc, fields}] in address order."""
    out = []
    for row in d.register_map:
        dim = (row["end"] - row["offset"]) // 4 + 1 if "end" in row else 0
        out.append({"name": ipxact_name(row["name"]), "offset": f"0x{row['offset']:X}", "dim": dim,
                    "access": ACCESS[row["access"]], "reset": f"0x{row.get('reset', 0):08X}",
                    "desc": row["desc"], "fields": _fields(d, row)})
    return out
