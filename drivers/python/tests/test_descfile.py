# SPDX-License-Identifier: MIT
"""Descriptors at run time: Descriptor.from_file (libjointer's
jointer_descfile_load) equals the compiled-in descriptor (lib<name>.so) field
by field; Monitor.open finds the descriptor of a device through
jointer_desc_resolve (desc=, $JOINTER_DESC, the search path by config hash);
bad files and missing descriptors are one-line JointerErrors; the PYNQ driver
takes a .jdesc, or reads a descriptor ROM through PYNQ's mapping."""
import errno
import os
import struct
import sys
import zlib

import pytest
from conftest import BUILD, HERE, REGS, cli_json, y9_device

import jointer
from jointer import _lib

Y9_VALUES = {"bytes_written": 4096, "compute_cycles": (2 << 32) + 5, "forward_fires": 7, "mac_fires": 1023}


def jdesc(name):
    """The fixture's .jdesc, written by jointer-gen next to its C (make's fixtures)."""
    return os.path.join(BUILD, "drivers", "fixtures", name, name + ".jdesc")


def fields(d):
    return (d.name, d.config_hash, d.version, d.info, d.span, d.base_address, d.bus_clock_hz, d.num_dcapfs,
            d.lmics, d.sniffers, d.metrics, d.traces, d.vlnv)


@pytest.mark.parametrize("name", sorted(REGS))
def test_file_equals_the_compiled_descriptor(name, descs):
    d = jointer.Descriptor.from_file(jdesc(name))
    assert fields(d) == fields(descs[name])
    assert d.config_hash == REGS[name][name.upper() + "_CONFIG_HASH"]
    assert d.source == "file " + jdesc(name)
    for m in d.metrics:     # names -> indices through libjointer's jointer_find_* on the loaded tables
        assert d.metric(m.name).index == m.index


def test_open_with_the_file_reads_what_the_cli_reads(tmp_path):
    d = y9_device(tmp_path)
    for kw in ({"desc": jdesc("accel_mon")}, {"descriptor": jdesc("accel_mon")}):
        with jointer.Monitor.open("uio:" + d.path, sysfs_root=d.sysfs, **kw) as m:
            assert m.metrics() == Y9_VALUES
            assert m.metrics() == cli_json("accel_mon", d, "read", "--format", "json")["metrics"]
            assert m.descriptor.source == "file " + jdesc("accel_mon")


def test_open_finds_the_descriptor(tmp_path, monkeypatch):
    d = y9_device(tmp_path)
    dirs = [tmp_path / "a", tmp_path / "b"]
    for p in dirs:
        p.mkdir()
    (dirs[0] / "relay_mon.jdesc").write_bytes(open(jdesc("relay_mon"), "rb").read())    # another hash
    (dirs[1] / "y9.jdesc").write_bytes(open(jdesc("accel_mon"), "rb").read())
    for v in ("JOINTER_DESC", "JOINTER_UIO_SYSFS", "JOINTER_DEVMEM_PATH"):
        monkeypatch.delenv(v, raising=False)
    monkeypatch.setenv("JOINTER_DESC_PATH", "%s:%s" % tuple(dirs))
    with jointer.Monitor.open("uio:" + d.path, sysfs_root=d.sysfs) as m:
        assert m.name == "accel_mon" and m.metrics() == Y9_VALUES
        assert m.descriptor.source == "search %s" % (dirs[1] / "y9.jdesc")
    assert "JOINTER_UIO_SYSFS" not in os.environ             # set for the C side during the open only
    with jointer.Monitor.open("devmem:0x0", mem_path=d.path) as m:    # /dev/mem: the same search
        assert m.metrics() == Y9_VALUES and m.descriptor.source == "search %s" % (dirs[1] / "y9.jdesc")
    monkeypatch.setenv("JOINTER_DESC", jdesc("accel_mon"))          # before the search path
    monkeypatch.setenv("JOINTER_DESC_PATH", str(dirs[0]))
    with jointer.Monitor.open("uio:" + d.path, sysfs_root=d.sysfs) as m:
        assert m.metrics() == Y9_VALUES and m.descriptor.source == "file " + jdesc("accel_mon")


def test_no_descriptor_or_the_wrong_one(tmp_path, monkeypatch):
    d = y9_device(tmp_path)
    (tmp_path / "empty").mkdir()
    monkeypatch.delenv("JOINTER_DESC", raising=False)
    monkeypatch.setenv("JOINTER_DESC_PATH", str(tmp_path / "empty"))
    with pytest.raises(jointer.JointerError) as e:
        jointer.Monitor.open("uio:" + d.path, sysfs_root=d.sysfs)
    assert e.value.errno == errno.ENOENT
    assert str(e.value).splitlines()[0] == ("uio:%s: no descriptor for this device: no descriptor ROM, $JOINTER_DESC "
                                            "unset, and no .jdesc with its config hash in %s"
                                            % (d.path, tmp_path / "empty"))
    monkeypatch.setenv("JOINTER_DESC", jdesc("relay_mon"))
    with pytest.raises(jointer.JointerError) as e:
        jointer.Monitor.open("uio:" + d.path, sysfs_root=d.sysfs)
    assert e.value.errno == errno.ESTALE
    assert "$JOINTER_DESC=%s is the descriptor of another configuration" % jdesc("relay_mon") in str(e.value)
    with pytest.raises(jointer.JointerError) as e:         # an explicit file: the open's identity check
        jointer.Monitor.open("uio:" + d.path, desc=jdesc("relay_mon"), sysfs_root=d.sysfs)
    assert e.value.errno == errno.ESTALE and "config hash mismatch" in str(e.value)
    with pytest.raises(jointer.JointerError) as e:
        jointer.Monitor.open("uio:" + d.path, jdesc("accel_mon"), desc=jdesc("accel_mon"))
    assert e.value.errno == errno.EINVAL and "not both" in str(e.value)
    monkeypatch.delenv("JOINTER_DESC")
    with pytest.raises(jointer.JointerError) as e:
        jointer.Monitor.open("devmem")                    # the base address is the descriptor's
    assert e.value.errno == errno.EINVAL and "desc=FILE.jdesc" in str(e.value)


def _corrupt(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


def test_bad_files_are_one_line_errors(tmp_path):
    good = open(jdesc("accel_mon"), "rb").read()
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 0x40
    version = bytearray(good)
    version[4:6] = struct.pack("<H", 4)        # a format after 3 (doc/descriptor-file.md)
    cases = [(str(tmp_path / "nope.jdesc"), errno.ENOENT, "no such file"),
             (_corrupt(tmp_path, "magic.jdesc", b"JNTR" + good[4:]), errno.EILSEQ,
              "not a jointer descriptor file (no \"JDSC\" magic)"),
             (_corrupt(tmp_path, "crc.jdesc", bytes(flipped)), errno.EBADMSG,
              "CRC mismatch: the descriptor file is corrupted"),
             (_corrupt(tmp_path, "short.jdesc", good[:40]), errno.EINVAL, "truncated or malformed descriptor file"),
             (_corrupt(tmp_path, "v4.jdesc", bytes(version)), errno.EPROTONOSUPPORT,
              "a descriptor file format this libjointer does not read (another version)"),
             (_corrupt(tmp_path, "big.jdesc", good + bytes(1 << 20)), errno.EFBIG,
              "too large for a descriptor file (1 MiB at most)")]
    os.mkfifo(str(tmp_path / "fifo.jdesc"))
    cases += [(str(tmp_path), errno.EISDIR, "a directory, not a descriptor file (give the <name>.jdesc inside)"),
              (str(tmp_path / "fifo.jdesc"), errno.ESPIPE,
               "a FIFO or socket, not a descriptor file (a regular <name>.jdesc file)"),
              ("/dev/zero", errno.ENODEV, "a device, not a descriptor file (a regular <name>.jdesc file)")]
    for path, err, msg in cases:
        for load in (jointer.Descriptor.from_file, jointer.Descriptor.load):   # a FIFO: refused at once
            with pytest.raises(jointer.JointerError) as e:
                load(path)
            assert (e.value.errno, str(e.value)) == (err, "%s: %s" % (path, msg))


def test_load_takes_a_jdesc_and_says_what_else_it_takes(tmp_path):
    """Descriptor.load: a .jdesc (by its JDSC magic, whatever its name) or lib<name>.so (ELF)."""
    good = open(jdesc("accel_mon"), "rb").read()
    d = jointer.Descriptor.load(_corrupt(tmp_path, "renamed.bin", good))
    assert d.name == "accel_mon" and d.source.startswith("file ")
    text = _corrupt(tmp_path, "libx.so", b"monitor: y9\n")
    with pytest.raises(jointer.JointerError) as e:
        jointer.Descriptor.load(text)
    assert str(e.value) == ("%s: neither a descriptor file (<name>.jdesc, written by jointer-gen beside the monitor) "
                            "nor a descriptor library lib<name>.so (its first bytes are neither JDSC nor ELF)" % text)


# ---- PYNQ -----------------------------------------------------------------------
@pytest.fixture
def fake_pynq(monkeypatch):
    monkeypatch.syspath_prepend(os.path.join(HERE, "fake_pynq"))
    sys.modules.pop("pynq", None)
    import pynq
    import jointer.pynq_driver as jp
    jp._registered.clear()
    yield pynq
    jp._registered.clear()
    sys.modules.pop("pynq", None)


def test_pynq_with_a_jdesc(tmp_path, fake_pynq, monkeypatch):
    import jointer.pynq_driver as jp
    d = y9_device(tmp_path)
    monkeypatch.setenv("FAKE_PYNQ_MEM", d.path)
    cls = jp.register(jdesc("accel_mon"))
    assert cls.bindto == ["jointer:jointer:accel_mon:1.0"]
    ol = fake_pynq.Overlay({"y9": {"type": "jointer:jointer:accel_mon:1.0", "phys_addr": 0, "addr_range": 0x4000}})
    assert ol.y9.metrics() == Y9_VALUES
    with pytest.raises(jointer.JointerError) as e:
        jp.register()
    assert e.value.errno == errno.EINVAL


def rom_mmio(fake_pynq, rom):
    """PYNQ's MMIO over the fake device, plus the descriptor ROM's two
    registers: DESC_INDEX (0x28, rw) and DESC_DATA (0x2C, the ROM word at
    DESC_INDEX, little-endian bytes, 0 beyond the ROM)."""
    words = [int.from_bytes(rom[i:i + 4].ljust(4, b"\0"), "little") for i in range(0, len(rom), 4)]
    plain = fake_pynq.MMIO

    class RomMMIO:
        def __init__(self, base_addr, length):
            self.mem = plain(base_addr, length)
            self.index = 0

        def read(self, offset=0, length=4):
            if offset == 0x2C:
                return words[self.index] if self.index < len(words) else 0
            return self.index if offset == 0x28 else self.mem.read(offset)

        def write(self, offset, data):
            if offset == 0x28:
                self.index = data
            elif offset != 0x2C:
                self.mem.write(offset, data)
    return RomMMIO


def with_rom_bit(data):
    """The .jdesc of the same monitor with a descriptor ROM: INFO (header offset
    24) with bit 20, the CRC-32 (offset 12, over bytes 16..) recomputed
    (doc/descriptor-file.md)."""
    b = bytearray(data)
    struct.pack_into("<I", b, 24, struct.unpack_from("<I", b, 24)[0] | _lib.INFO_DESC_ROM)
    struct.pack_into("<I", b, 12, zlib.crc32(bytes(b[16:])) & 0xFFFFFFFF)
    return bytes(b)


def test_pynq_reads_the_descriptor_rom(tmp_path, fake_pynq, monkeypatch):
    import jointer.pynq_driver as jp
    d = y9_device(tmp_path)
    d.poke(0xC, d.peek(0xC) | _lib.INFO_DESC_ROM)           # INFO bit 20: a descriptor ROM
    rom = with_rom_bit(open(jdesc("accel_mon"), "rb").read())
    (tmp_path / "rom.jdesc").write_bytes(rom)
    monkeypatch.setenv("FAKE_PYNQ_MEM", d.path)
    monkeypatch.setattr(fake_pynq, "MMIO", rom_mmio(fake_pynq, rom + bytes(12)))   # a ROM padded with zeros
    cls = jp.register(name="accel_mon")
    assert cls.bindto == ["jointer:jointer:accel_mon:1.0"]
    desc = {"type": "jointer:jointer:accel_mon:1.0", "phys_addr": 0, "addr_range": 0x4000}
    try:
        ol = fake_pynq.Overlay({"y9": desc})
    except jointer.JointerError as e:
        if e.errno == errno.ENOTSUP and "cannot read it" in str(e):
            pytest.skip("this libjointer's jointer_descrom_read is the placeholder (no ROM reader)")
        raise
    assert ol.y9.monitor.descriptor.source == "rom"
    assert fields(ol.y9.monitor.descriptor) == fields(jointer.Descriptor.from_file(str(tmp_path / "rom.jdesc")))
    assert ol.y9.monitor.descriptor.info & _lib.INFO_DESC_ROM
    assert ol.y9.metrics() == Y9_VALUES
    jp._registered.clear()
    jp.register(name="trace_mon")                             # the ROM holds another monitor
    with pytest.raises(jointer.JointerError) as e:
        fake_pynq.Overlay({"t": dict(desc, type="jointer:jointer:trace_mon:1.0")})
    assert e.value.errno == errno.ESTALE and "holds monitor accel_mon" in str(e.value)


def test_pynq_without_rom_says_so(tmp_path, fake_pynq, monkeypatch):
    import jointer.pynq_driver as jp
    d = y9_device(tmp_path)                                   # INFO bit 20 clear
    monkeypatch.setenv("FAKE_PYNQ_MEM", d.path)
    jp.register(name="accel_mon")
    with pytest.raises(jointer.JointerError) as e:
        fake_pynq.Overlay({"y9": {"type": "jointer:jointer:accel_mon:1.0", "phys_addr": 0, "addr_range": 0x4000}})
    assert e.value.errno == errno.ENOTSUP and "no descriptor ROM" in str(e.value)
