# SPDX-License-Identifier: MIT
"""python3 -m jointer fake-device: a monitor on a PC, before the board.

    python3 -m jointer fake-device DIR --desc NAME.jdesc [--values V.json] [--uio N]

writes, in DIR, what the UIO port of libjointer opens (drivers/README.md,
"Ports"):
  DIR/uioN                          the register file: the monitor's span,
                                    ID, VERSION, CONFIG_HASH and INFO of the
                                    descriptor, every metric's value
  DIR/sysfs/uioN/name               the monitor's name (uio:name=NAME)
  DIR/sysfs/uioN/maps/map0/{addr,size,offset}
  DIR/env.sh                        JOINTER_UIO_SYSFS, JOINTER_UIO_DEV,
                                    JOINTER_DEVICE and JOINTER_DESC for it
so that `jointer`, the Python package (Monitor.open) and the exporter open it
as uio:DIR/uioN (or uio:name=NAME), unchanged: a dashboard or a notebook is
developed against it. The values come from a JSON file: {metric: value},
a histogram [count, ...] (or `jointer read --format json`'s [{low, high,
count}]), a mean {"sum": S, "count": C}; `jointer read --format json` output
and a co-simulation's report.json ({"metrics": {...}}, histogram buckets as
"<metric>.bucket<k>") are read as they are. Registers are laid out from the
descriptor's own offsets (libjointer's jointer_cfg): nothing is recomputed.
A write by a program (CONTROL, SCRATCH...) lands in the file; nothing
counts by itself.
"""
import json
import os
import struct

from . import _lib
from .descriptor import Descriptor
from .errors import JointerError

ID, VERSION, CONFIG_HASH, INFO = 0x00, 0x04, 0x08, 0x0C   # the global block (jointer_desc.h)


def _load_values(path, d):
    """{metric index: [int...]} (one item: a value; a histogram: its buckets; a mean: sum, count)."""
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise JointerError(e.errno or 2, "%s: %s" % (path, e.strerror)) from None
    except ValueError as e:
        raise JointerError(22, "%s: not JSON: %s" % (path, e)) from None
    if isinstance(data, dict) and isinstance(data.get("metrics"), dict):
        data = data["metrics"]                      # jointer read --format json, a report.json
    if not isinstance(data, dict):
        raise JointerError(22, "%s: expected a JSON object {metric: value} (or {\"metrics\": {...}})" % path)
    names = {m.name: m for m in d.metrics}
    out, buckets = {}, {}
    for key, v in data.items():
        base, _, b = key.rpartition(".bucket")
        if base in names and b.isdigit():
            buckets.setdefault(base, {})[int(b)] = v
        elif key in names:
            out[names[key].index] = _as_words(path, names[key], v)
        elif "." not in key:                         # report.json also holds status.*, mem.*...
            raise JointerError(22, "%s: no metric \"%s\" in %s (it has: %s)"
                               % (path, key, d.name, ", ".join(names) or "none"))
    for base, bs in buckets.items():
        out[names[base].index] = _as_words(path, names[base], [bs.get(k, 0) for k in range(max(bs) + 1)])
    return out


def _as_words(path, m, v):
    """A value as the list of numbers of its slots (a histogram's buckets, a mean's sum and count)."""
    if isinstance(v, dict) and set(v) == {"sum", "count"}:
        v = [v["sum"], v["count"]]
    if isinstance(v, list):
        v = [x["count"] if isinstance(x, dict) else x for x in v]
    vals = v if isinstance(v, list) else [v]
    slots = max(1, m.buckets)
    if len(vals) != slots or not all(isinstance(x, int) and not isinstance(x, bool) for x in vals):
        raise JointerError(22, "%s: metric %s: expected %s, not %r" % (
            path, m.name, "%d integers (its %s)" % (slots, "buckets" if m.aggregator == "histogram" else "sum, count")
            if slots > 1 else "one integer", v))
    for x in vals:
        if not 0 <= x < (1 << m.width):
            raise JointerError(34, "%s: metric %s: %d does not fit its %d bits" % (path, m.name, x, m.width))
    return vals


def _registers(d, values):
    """{byte offset: u32} of the register file."""
    c = d.cfg_ptr.contents
    regs = {ID: _lib.ID_VALUE, VERSION: d.version, CONFIG_HASH: d.config_hash, INFO: d.info}
    for i, vals in values.items():
        md = c.metrics[i]
        words = (md.width + 31) // 32
        for k, v in enumerate(vals):                 # slot k: bucket k (or the mean's sum, count)
            for w in range(words):
                regs[md.result_offset + 4 * (k * words + w)] = (v >> (32 * w)) & 0xFFFFFFFF
    return regs


def _write(path, text):
    with open(path, "w") as f:
        f.write(text)


def make_fake_device(out_dir, desc, values=None, uio=0):
    """The register file and sysfs tree of desc's monitor in out_dir; returns {what: path}."""
    d = desc if isinstance(desc, Descriptor) else Descriptor.load(desc)
    vals = _load_values(values, d) if values else {}
    page = os.sysconf("SC_PAGE_SIZE")
    size = (d.span + page - 1) // page * page
    out_dir = os.path.abspath(out_dir)
    dev = os.path.join(out_dir, "uio%d" % uio)
    sysfs = os.path.join(out_dir, "sysfs")
    mp = os.path.join(sysfs, "uio%d" % uio, "maps", "map0")
    os.makedirs(mp, exist_ok=True)
    buf = bytearray(size)
    for off, v in _registers(d, vals).items():
        struct.pack_into("<I", buf, off, v)
    with open(dev, "wb") as f:
        f.write(buf)
    _write(os.path.join(sysfs, "uio%d" % uio, "name"), d.name + "\n")
    for k, v in (("addr", "0x%x\n" % d.base_address), ("size", "0x%x\n" % size), ("offset", "0x0\n")):
        _write(os.path.join(mp, k), v)
    env = os.path.join(out_dir, "env.sh")
    desc_path = os.path.abspath(d.path) if d.path else ""
    _write(env, "# SPDX-License-Identifier: MIT\n# written by python3 -m jointer fake-device: . %s\n"
                "export JOINTER_UIO_SYSFS=%s\nexport JOINTER_UIO_DEV=%s\nexport JOINTER_DEVICE=uio:%s\n%s"
           % (env, sysfs, out_dir, dev, "export JOINTER_DESC=%s\n" % desc_path if desc_path else ""))
    return {"device": dev, "sysfs": sysfs, "env": env, "metrics": len(vals), "name": d.name}


def main_args(a):
    """python3 -m jointer fake-device (the arguments of __main__)."""
    r = make_fake_device(a.dir, a.desc, a.values, a.uio)
    print("fake device of monitor %s: %s (%d metric%s set)\n"
          "  registers: %s\n  sysfs:     %s (JOINTER_UIO_SYSFS)\n"
          "  use it:    . %s; jointer read; python3 -c 'import jointer; print(jointer.Monitor.open("
          "\"uio:%s\").metrics())'"
          % (r["name"], a.dir, r["metrics"], "" if r["metrics"] == 1 else "s", r["device"], r["sysfs"], r["env"],
             r["device"]))
