# SPDX-License-Identifier: MIT
"""Co-simulation (run.py): paths, constants, progress lines, and the small
build system every step uses: content-hashed stamps, file locks, commands
with their log."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path



FLOW = Path(__file__).resolve().parent
REPO = FLOW.parents[2]
COSIM = REPO / "sim" / "cosim"
APP = COSIM / "apps"
HARNESS = COSIM / "harness"
BUS_TIMING = HARNESS / "bus_timing.yaml"
BUILD = Path(os.environ.get("COSIM_BUILD", REPO / "build" / "cosim"))
DRIVERS = REPO / "drivers"
sys.path.insert(0, str(REPO / "scripts"))
import ghdl_verilog  # noqa: E402  (repairs of GHDL 2.0.0's Verilog)
sys.path.insert(0, str(FLOW))
import soc_top  # noqa: E402  (the demo coprocessor + any monitor)
LIBRARY = "jointer"
ACCEL_SOURCES = ["sa_mac16.vhd", "sa_mem.vhd", "sa_accel.vhd", "sa_soc.vhd"]
import driver_sources  # noqa: E402  (drivers/sources.mk: the one list of driver sources)
DRIVER_SOURCES = [p.name for p in driver_sources.sources("DRV_SIM_SRCS")]
CFLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-O2"]
VL_INCLUDE = Path("/usr/share/verilator/include")
# compared between the two simulators (wall time and x_reads are not)
COMPARED = ["app_rc", "metrics", "app_expect", "monitor_transactions", "accel_transactions",
            "bus_errors", "sim_time_ps", "cycles"]

QUIET = False


def log(msg: str) -> None:
    if not QUIET:
        print(f"[cosim] {msg}", flush=True)


class BuildError(Exception):
    pass


# ---- small build system: content-hashed stamps, file locks ----------------------------

def digest(*parts) -> str:
    h = hashlib.sha1()
    for p in parts:
        if isinstance(p, Path):
            h.update(str(p).encode())
            h.update(p.read_bytes() if p.exists() else b"<missing>")
        else:
            h.update(repr(p).encode())
        h.update(b"\0")
    return h.hexdigest()[:12]


@contextlib.contextmanager
def locked(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def fresh(stamp: Path, key: str) -> bool:
    return stamp.exists() and stamp.read_text() == key


def sh(cmd: list, cwd: Path | None = None, log_file: Path | None = None, env=None,
       progress: str | None = None) -> str:
    """Run a command; raise BuildError with its output when it fails.

    progress: print the lines of the output that match it (build progress)."""
    t0 = time.monotonic()
    proc = subprocess.Popen([str(c) for c in cmd], cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = []
    done = threading.Event()

    def heartbeat():  # a long compile prints nothing for a while
        while not done.wait(15):
            log(f"    {time.monotonic() - t0:5.1f}s  still compiling ...")
    if progress:
        threading.Thread(target=heartbeat, daemon=True).start()
    for line in proc.stdout:
        out.append(line)
        if progress and re.search(progress, line):
            m = re.search(r"(\S+\.(?:cpp|c))\b", line)
            log(f"    {time.monotonic() - t0:5.1f}s  compiling {Path(m.group(1)).name if m else line.strip()[:60]}")
    proc.wait()
    done.set()
    text = "".join(out)
    if log_file is not None:
        log_file.write_text(text)
    if proc.returncode:
        tail = "\n".join(text.splitlines()[-40:])
        raise BuildError(f"command failed ({proc.returncode}): {' '.join(map(str, cmd))}\n{tail}")
    return text
