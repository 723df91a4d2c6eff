# SPDX-License-Identifier: MIT
"""doc/integration.md "On the board: from bitstream to numbers", run as written.

Every fenced block of the section's three subsections is taken from the doc
by heading (LAYOUT: how many blocks each holds, of which language, run
where); a block added, removed or moved fails the layout test before any
runner guesses at it.

  pc     bash `set -euo pipefail` in a temporary folder holding `configs`
         and `drivers` (symlinks to this checkout's), with these stand-ins:
           jointer-gen   this checkout's generator (PYTHONPATH=gen python3 -m jointer_gen)
           python3, pip  this machine's python3 (pip: python3 -m pip)
         pip and build resolve setuptools from a wheelhouse of pinned wheels
         (PIP_NO_INDEX, PIP_FIND_LINKS: the environment, not the doc's text),
         the one drivers/python/install_tests uses under build/.
  board  bash in the board's home folder, the board being BOARD: Debian
         bookworm's arm64 userland (scripts/board-python-sysroot.sh, cached
         under build/board-python; hard-linked into a temporary folder, never
         written) plus what the doc puts on it, a register file as
         BOARD/dev/uio0 and its sysfs entry BOARD/sys/class/uio/uio0. The
         board's programs run under qemu-user with `-L BOARD`, which resolves
         the absolute paths they open inside BOARD when they exist there
         (/dev/uio0, /sys/class/uio/..., /usr/share/jointer/desc/...): no
         JOINTER_UIO_SYSFS or JOINTER_DESC_PATH is set. Stand-ins:
           jointer   qemu-aarch64 -L BOARD BOARD/usr/bin/jointer "$@", its
                     arguments, stdout and the register file after it logged
           python3   qemu-aarch64 -L BOARD BOARD/usr/bin/python3.11 "$@"
           pip       `pip install X.whl`: this machine's pip, --target the
                     board's /usr/local site-packages, --no-deps (numpy is
                     the board's own, Debian's python3-numpy)
           install   coreutils install, absolute paths mapped into BOARD
         The Linux board is the sysroot plus the PC's rootfs/ (copied onto
         /); the PYNQ board is the sysroot alone, the wheel and the .jdesc
         the doc copies to it placed in its home folder.
  pynq   the ```python block: this machine's python3 with the package as the
         PC block's sdist installs it (--target, offline) and the fake
         `pynq` of drivers/python/tests/fake_pynq, in a folder holding the
         .jdesc and design.bit (empty) + design.hwh (the fake's ip_dict:
         the IP's VLNV from the generated component.xml at phys_addr 0 of
         the register file $FAKE_PYNQ_MEM).

The register file holds the identity (ID, VERSION, CONFIG_HASH and INFO
from the generated <name>_regs.h) and VALUES at the metrics' RESULT
offsets; every expected output (the CSV, the metrics dict, the CONTROL
word after each command) is computed here from the _regs.h macros.

Run: make board-doc-test (JOINTER_SKIP_DEPS=1 in a worktree), or
     pytest -q drivers/tests/board_doc
"""
import json
import os
import pathlib
import re
import shlex
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
BUILD = os.path.abspath(os.environ.get("JOINTER_BUILD", os.path.join(REPO, "build")))
DOC = os.path.join(REPO, "doc", "integration.md")
SECTION = "On the board: from bitstream to numbers"
# subsection -> its fenced blocks in order: (language, runner)
LAYOUT = {
    "Bare metal (Vitis)": [],
    "Linux: the CLI and C": [("sh", "pc"), ("sh", "board")],
    "PYNQ: Python": [("sh", "pc"), ("sh", "board"), ("python", "pynq")],
}
NAME = "selective_accumulations"
P = NAME.upper() + "_"
SETUPTOOLS = "setuptools==80.9.0"        # as drivers/python/install_tests: the sdist's build backend
WHEELHOUSE = os.path.join(BUILD, "drivers", "pyinstall", "wheelhouse", "build")
SPAN = 0x1000                            # the UIO map (one page), the register file's size
VALUES = {"bytes_written": 0x123456, "compute_cycles": (0x1ABCD << 32) + 0x89ABCDEF,
          "forward_fires": 0x2A5, "mac_fires": 1023}
QEMU = "qemu-aarch64"


def run(cmd, cwd, env, timeout=600):
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, "%s\n--- stdout\n%s--- stderr\n%s" % (
        cmd if isinstance(cmd, str) else " ".join(cmd), p.stdout[-4000:], p.stderr[-4000:])
    return p.stdout


def clean_env(**extra):
    """This machine's environment without PYTHON*, JOINTER_*, PIP_*: only what is given."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "JOINTER_", "PIP_", "VIRTUAL_ENV"))}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONDONTWRITEBYTECODE="1")
    env.update(extra)
    return env


# ---- the doc -----------------------------------------------------------------------
def subsections():
    """{### heading: (prose, [(language, text)])} of the section, in doc order."""
    with open(DOC) as f:
        text = f.read()
    m = re.search(r"^## %s\n(.*?)(?=^## |\Z)" % re.escape(SECTION), text, re.M | re.S)
    assert m, "%s: no section '## %s'" % (DOC, SECTION)
    parts = re.split(r"^### (.+)\n", m.group(1), flags=re.M)[1:]
    fence = re.compile(r"^```(\S*)\n(.*?)^```", re.M | re.S)
    return {h: (fence.sub("", t), fence.findall(t)) for h, t in zip(parts[::2], parts[1::2])}


def prose(head):
    """The `quoted` words of a subsection's text (its blocks left out)."""
    return re.findall(r"`([^`]+)`", subsections()[head][0])


@pytest.fixture(scope="module")
def blocks():
    """{(subsection, runner): [block text]}; the layout checked first."""
    subs = subsections()
    assert list(subs) == list(LAYOUT), "the section's subsections changed: %s" % list(subs)
    out = {}
    for head, want in LAYOUT.items():
        got = [lang for lang, _ in subs[head][1]]
        assert got == [lang for lang, _ in want], \
            "%s: blocks %s, the test runs %s: give the new block a runner" % (head, got, want)
        for (_, runner), (_, body) in zip(want, subs[head][1]):
            out.setdefault((head, runner), []).append(body)
    return out


def test_layout(blocks):
    """Every block has a runner; the Vitis subsection is prose (no commands)."""
    assert sum(len(v) for v in blocks.values()) == sum(len(v) for v in LAYOUT.values()) == 5
    assert not any(head == "Bare metal (Vitis)" for head, _ in blocks)


# ---- the PC ------------------------------------------------------------------------
def wheelhouse():
    """The pinned build backend's wheel (fetched once, then offline)."""
    if not any(n.startswith("setuptools-80.9.0-") for n in
               (os.listdir(WHEELHOUSE) if os.path.isdir(WHEELHOUSE) else [])):
        run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "-d", WHEELHOUSE,
             SETUPTOOLS], REPO, clean_env())
    return WHEELHOUSE


def regs_of(path):
    """The #define NAME 0x...u values of a generated _regs.h."""
    with open(path) as f:
        return {m.group(1): int(m.group(2), 0)
                for m in re.finditer(r"#define (\w+)\s+(0x[0-9A-Fa-f]+|\d+)u", f.read())}


@pytest.fixture(scope="module")
def pc(blocks, tmp_path_factory):
    """The PC's blocks of both subsections, in doc order, in one folder: its path."""
    root = str(tmp_path_factory.mktemp("pc"))
    os.symlink(os.path.join(REPO, "configs"), os.path.join(root, "configs"))
    os.symlink(os.path.join(REPO, "drivers"), os.path.join(root, "drivers"))
    env = clean_env(HOME=root, PIP_NO_INDEX="1", PIP_FIND_LINKS=wheelhouse())
    env.pop("PKG_CONFIG_PATH", None)
    py = shlex.quote(sys.executable)
    prologue = ("set -euo pipefail\n"
                "jointer-gen() { PYTHONPATH=%s %s -m jointer_gen \"$@\"; }\n"
                "python3() { %s \"$@\"; }\n"
                "pip() { %s -m pip \"$@\"; }\n") % (shlex.quote(os.path.join(REPO, "gen")), py, py, py)
    for head in ("Linux: the CLI and C", "PYNQ: Python"):
        (block,) = blocks[(head, "pc")]
        run(["bash", "-c", prologue + block], root, env)
    return root


def regs_path(pc):
    return os.path.join(pc, "out", NAME, "c", NAME + "_regs.h")


@pytest.fixture(scope="module")
def regs(pc):
    return regs_of(regs_path(pc))


def test_pc_outputs(pc):
    """The files the text names: what rootfs/ holds (the Linux subsection's
    absolute paths and header), what is copied to the PYNQ board (its
    out/ and dist/ paths), the sdist and the cross-built wheel."""
    linux = prose("Linux: the CLI and C")
    usr = [w for w in linux if w.startswith("/usr/")]
    assert "/usr/bin/jointer" in usr and "/usr/share/jointer/desc/%s.jdesc" % NAME in usr
    for w in usr:
        assert os.path.isfile(os.path.join(pc, "rootfs", w[1:])), w
    header = NAME + ".h"
    assert header in linux and os.path.isfile(os.path.join(pc, "rootfs", "usr", "include", "jointer", NAME, header))
    assert os.path.islink(os.path.join(pc, "rootfs", "usr", "lib", "libjointer.so.1"))   # libjointer's own bundle
    copied = [w for w in prose("PYNQ: Python") if w.startswith(("out/", "dist/"))]
    assert len(copied) == 2
    for w in copied:
        assert os.path.isfile(os.path.join(pc, w)), w
    assert sorted(os.listdir(os.path.join(pc, "dist"))) == \
        ["jointer-1.0.0-py3-none-linux_aarch64.whl", "jointer-1.0.0.tar.gz"]
    elf = open(os.path.join(pc, "rootfs", "usr", "bin", "jointer"), "rb").read(20)
    assert elf[:4] == b"\x7fELF" and struct.unpack_from("<H", elf, 18)[0] == 183   # EM_AARCH64


def test_pkg_config_of_the_rootfs(pc):
    """`pkg-config --cflags --libs <name>` (the Linux subsection's text) over the installed .pc."""
    (cmd,) = [w for w in prose("Linux: the CLI and C") if w.startswith("pkg-config ")]
    out = run(["bash", "-c", cmd], pc, clean_env(PKG_CONFIG_LIBDIR=os.path.join(pc, "rootfs", "usr", "lib", "pkgconfig"),
                                                 PKG_CONFIG_PATH=""))
    assert "-I/usr/include/jointer" in out.split() and "-l" + NAME in out.split()


def test_vitis_names(pc, tmp_path):
    """The Vitis subsection (prose, no commands): its ip/ paths exist in the
    generated monitor, and the xparameters.h names it gives are what the
    driver's classic Tcl hook writes (gen/tests/test_gen_vitis.py's HSI
    stand-ins, one instance); lopper writes the same names (test_gen_vitis.py)."""
    words = prose("Bare metal (Vitis)")
    paths = [w for w in words if w.startswith("ip/")]
    assert "ip/" in paths and any(w.endswith("_example.c") for w in paths)
    for w in paths:
        assert os.path.exists(os.path.join(pc, "out", NAME, w)), w
    sys.path.insert(0, os.path.join(REPO, "gen", "tests"))
    try:
        from test_gen_vitis import xparameters
    finally:
        sys.path.pop(0)
    got = xparameters(tmp_path, pathlib.Path(pc, "out", NAME, "ip"), NAME, "monitor")
    defined = re.findall(r"^#define (\w+) ", got, re.M)
    xpar = [w for w in words if w.startswith("XPAR_")]
    assert len(xpar) == 2 and set(xpar) <= set(defined), (xpar, defined)
    assert NAME in words and os.path.isdir(os.path.join(pc, "out", NAME, "ip", "drivers", NAME + "_v1_0"))


# ---- the board ---------------------------------------------------------------------
def register_file(path, regs, control=0):
    """The monitor's registers as the UIO map: identity, VALUES, CONTROL."""
    mem = bytearray(SPAN)

    def poke(off, v):
        struct.pack_into("<I", mem, off, v)
    poke(regs[P + "REG_ID"], regs[P + "ID_VALUE"])
    poke(regs[P + "REG_VERSION"], regs[P + "VERSION_VALUE"])
    poke(regs[P + "REG_CONFIG_HASH"], regs[P + "CONFIG_HASH"])
    poke(regs[P + "REG_INFO"], regs[P + "INFO"])
    poke(regs[P + "ACCEL_CONTROL"], control)
    for metric, v in VALUES.items():
        m = metric.upper()
        assert v >> 32 <= regs[P + m + "_MASK_HI"] and v & 0xFFFFFFFF <= regs[P + m + "_MASK_LO"], metric
        poke(regs[P + m + "_RESULT"], v & 0xFFFFFFFF)
        if regs[P + m + "_RESULT_WORDS"] == 2:
            poke(regs[P + m + "_RESULT"] + 4, v >> 32)
    with open(path, "wb") as f:
        f.write(bytes(mem))


def sysroot():
    for tool in (QEMU, "dpkg", "apt-get"):
        if shutil.which(tool) is None:
            pytest.fail("%s not found (scripts/install-deps.sh installs qemu-user)" % tool)
    d = os.path.join(BUILD, "board-python", "arm64")
    run(["bash", os.path.join(REPO, "scripts", "board-python-sysroot.sh"), "arm64", d], REPO, clean_env())
    return os.path.join(d, "sysroot")


def make_board(dest, regs):
    """The sysroot hard-linked (copied across file systems) into dest, a
    UIO device: dest/dev/uio0 (the register file) and its sysfs entry."""
    def link(src, dst):
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)
    shutil.copytree(sysroot(), dest, symlinks=True, copy_function=link)
    os.makedirs(os.path.join(dest, "dev"), exist_ok=True)
    register_file(os.path.join(dest, "dev", "uio0"), regs)
    uio = os.path.join(dest, "sys", "class", "uio", "uio0")
    os.makedirs(os.path.join(uio, "maps", "map0"))
    for rel, v in (("name", NAME), ("maps/map0/addr", "0x%x" % regs[P + "BASE_ADDRESS"]),
                   ("maps/map0/size", "0x%x" % SPAN), ("maps/map0/offset", "0x0")):
        with open(os.path.join(uio, rel), "w") as f:
            f.write(v + "\n")
    return dest


def board_prologue(board, log):
    """The stand-ins (module docstring) for a block run on the board."""
    b, q, py = shlex.quote(board), QEMU, shlex.quote(sys.executable)
    return ("set -euo pipefail\n"
            "BOARD=%(b)s\n"
            "_n=0\n"
            "jointer() {\n"
            "  _n=$((_n + 1)); printf '%%s\\n' \"$@\" > %(log)s/$_n.args\n"
            "  %(q)s -L \"$BOARD\" \"$BOARD/usr/bin/jointer\" \"$@\" | tee %(log)s/$_n.out\n"
            "  cp \"$BOARD/dev/uio0\" %(log)s/$_n.regs\n"
            "}\n"
            "python3() { %(q)s -L \"$BOARD\" \"$BOARD/usr/bin/python3.11\" \"$@\"; }\n"
            "pip() {\n"
            "  [ \"$1\" = install ] || { echo \"pip stand-in: only 'pip install X.whl'\" >&2; return 2; }\n"
            "  shift\n"
            "  %(py)s -m pip install -q --no-deps --no-index --only-binary=:all: --platform linux_aarch64 \\\n"
            "      --target \"$BOARD/usr/local/lib/python3.11/dist-packages\" \"$@\"\n"
            "}\n"
            "install() {\n"
            "  local a=() x\n"
            "  for x in \"$@\"; do case \"$x\" in /*) a+=(\"$BOARD$x\") ;; *) a+=(\"$x\") ;; esac; done\n"
            "  command install \"${a[@]}\"\n"
            "}\n") % dict(b=b, q=q, py=py, log=shlex.quote(log))


def run_board(board, block, tmp):
    """The block on the board from its home folder tmp/home: (stdout, [(args, out, regs)] per jointer call)."""
    home, log = os.path.join(tmp, "home"), os.path.join(tmp, "log")
    os.makedirs(home, exist_ok=True)
    os.makedirs(log)
    out = run(["bash", "-c", board_prologue(board, log) + block], home, clean_env(HOME=home), timeout=300)
    calls = []
    for i in range(1, len(os.listdir(log)) // 3 + 1):
        with open(os.path.join(log, "%d.args" % i)) as a, open(os.path.join(log, "%d.out" % i)) as o, \
                open(os.path.join(log, "%d.regs" % i), "rb") as r:
            calls.append((a.read().split("\n")[:-1], o.read(), r.read()))
    assert len(os.listdir(log)) == 3 * len(calls)
    return out, calls


def metric_rows(pc, regs):
    """(lmic, sniffer, metric, width) in descriptor order, from the _regs.h
    macros: METRIC_<M> (index), <M>_WIDTH, <S>_LMIC and LMIC_<L> (indices),
    the sniffer S from the metric's comment "/* metric M (S, ...". """
    with open(regs_path(pc)) as f:
        h = f.read()
    lmics = {v: k[len(P + "LMIC_"):].lower() for k, v in regs.items() if k.startswith(P + "LMIC_")}
    sniffer = dict(re.findall(r"^/\* metric (\w+) \((\w+), DCAPF", h, re.M))
    rows = sorted((regs[P + "METRIC_" + m.upper()], m) for m in sniffer)
    assert [i for i, _ in rows] == list(range(regs[P + "NUM_METRICS"]))
    return [(lmics[regs[P + sniffer[m].upper() + "_LMIC"]], sniffer[m], m, regs[P + m.upper() + "_WIDTH"])
            for _, m in rows]


@pytest.fixture(scope="module")
def linux_board(blocks, pc, regs, tmp_path_factory):
    """The Linux subsection's board block on the sysroot + the PC's rootfs/."""
    tmp = str(tmp_path_factory.mktemp("linux-board"))
    board = make_board(os.path.join(tmp, "board"), regs)
    run(["cp", "-a", "--remove-destination", os.path.join(pc, "rootfs") + "/.", board + "/"], tmp, clean_env())
    (block,) = blocks[("Linux: the CLI and C", "board")]
    return board, regs, run_board(board, block, tmp)


def calls_of(linux_board, *argv):
    return [c for c in linux_board[2][1] if c[0][:len(argv)] == list(argv)]


def test_info_names_the_descriptor_found_by_hash(linux_board):
    _, regs, _ = linux_board
    (info,) = calls_of(linux_board, "info")
    lines = info[1].splitlines()
    assert lines[0] == ("monitor %s: config hash 0x%08X, version 0x%08X, base 0x%08X, span 0x%X, window 0x%X"
                        % (NAME, regs[P + "CONFIG_HASH"], regs[P + "VERSION_VALUE"], regs[P + "BASE_ADDRESS"],
                           regs[P + "SPAN"], regs[P + "WINDOW"]))
    assert lines[1] == "descriptor: search /usr/share/jointer/desc/%s.jdesc" % NAME
    assert lines[-1].startswith("device uio:/dev/uio0: ID 0x%08X (JNTR), VERSION 0x%08X, CONFIG_HASH 0x%08X "
                                "(matches), INFO 0x%08X" % (regs[P + "ID_VALUE"], regs[P + "VERSION_VALUE"],
                                                            regs[P + "CONFIG_HASH"], regs[P + "INFO"]))


def test_read_csv_prints_the_poked_values(linux_board, pc):
    _, regs, _ = linux_board
    (read,) = calls_of(linux_board, "read", "--format", "csv")
    want = ["lmic,sniffer,metric,width,value"] + ["%s,%s,%s,%d,%d" % (row + (VALUES[row[2]],))
                                                  for row in metric_rows(pc, regs)]
    assert read[1].splitlines() == want


def test_commands_write_control(linux_board):
    """CONTROL after each command, as the _regs.h fields say: mode S M sets
    S's PROG field to PROG_M, run sets RUN, stop clears it; the rest leave
    the registers as they were. The doc's block runs each kind."""
    _, regs, (_, calls) = linux_board
    off = regs[P + "ACCEL_CONTROL"]
    control, prev = 0, None
    kinds = set()
    for args, _, mem in calls:
        kinds.add(args[0])
        if args[0] == "mode":
            s, m = args[1].upper(), args[2].upper()
            control = (control & ~regs[P + s + "_PROG_MASK"]) | (regs[P + "PROG_" + m] << regs[P + s + "_PROG_SHIFT"])
        elif args[0] == "run":
            control |= regs[P + "CONTROL_RUN"]
        elif args[0] == "stop":
            control &= ~regs[P + "CONTROL_RUN"]
        else:
            assert args[0] in ("info", "read"), args
        assert struct.unpack_from("<I", mem, off)[0] == control, (args, hex(control))
        if prev is not None:    # nothing but CONTROL changes
            assert mem[:off] + mem[off + 4:] == prev[:off] + prev[off + 4:], args
        prev = mem
    assert kinds == {"info", "mode", "run", "read", "stop"}


def test_block_output_is_the_commands_output(linux_board):
    """The block prints what the commands print, nothing else (the export is silent)."""
    _, _, (out, calls) = linux_board
    assert out == "".join(c[1] for c in calls)


def test_another_bitstream_finds_no_descriptor(linux_board, tmp_path):
    """The doc: "a bitstream of another YAML finds none and says so"."""
    board, regs, _ = linux_board
    other = dict(regs)
    other[P + "CONFIG_HASH"] = regs[P + "CONFIG_HASH"] ^ 0x5A5A5A5A
    dev = os.path.join(board, "dev", "uio0")
    saved = open(dev, "rb").read()
    register_file(dev, other)
    try:
        p = subprocess.run([QEMU, "-L", board, os.path.join(board, "usr", "bin", "jointer"), "info"],
                           cwd=str(tmp_path), env=clean_env(JOINTER_DEVICE="uio:/dev/uio0"),
                           capture_output=True, text=True, timeout=120)
    finally:
        with open(dev, "wb") as f:
            f.write(saved)
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr.startswith("jointer: no descriptor for the monitor at uio:/dev/uio0 (config hash 0x%08X): "
                               "no ROM, no matching *.jdesc in /usr/share/jointer/desc:/usr/local/share/jointer/desc"
                               % other[P + "CONFIG_HASH"]), p.stderr


def metrics_repr():
    return "{%s}" % ", ".join("%r: %d" % (k, v) for k, v in VALUES.items())


def test_pynq_board_prints_the_metrics(blocks, pc, regs, tmp_path):
    """The PYNQ subsection's board block: the wheel and the .jdesc copied from
    the PC, the sysroot without the Linux rootfs (the .jdesc is found where
    the block installs it)."""
    assert [r[2] for r in metric_rows(pc, regs)] == list(VALUES)   # VALUES is in descriptor order
    board = make_board(str(tmp_path / "board"), regs)
    home = tmp_path / "home"
    home.mkdir()
    shutil.copy(os.path.join(pc, "dist", "jointer-1.0.0-py3-none-linux_aarch64.whl"), str(home))
    shutil.copy(os.path.join(pc, "out", NAME, NAME + ".jdesc"), str(home))
    (block,) = blocks[("PYNQ: Python", "board")]
    out, calls = run_board(board, block, str(tmp_path))
    assert calls == []
    assert out == metrics_repr() + "\n"
    site = os.path.join(board, "usr", "local", "lib", "python3.11", "dist-packages", "jointer")
    assert os.path.isfile(os.path.join(site, "libjointer.so"))
    assert os.path.isfile(os.path.join(board, "usr", "local", "share", "jointer", "desc", NAME + ".jdesc"))
    assert not os.path.exists(os.path.join(board, "usr", "share", "jointer"))


def vlnv(component_xml):
    ns = {"spirit": "http://www.spiritconsortium.org/XMLSchema/SPIRIT/1685-2009"}
    root = ET.parse(component_xml).getroot()
    return ":".join(root.find("spirit:" + k, ns).text for k in ("vendor", "library", "name", "version"))


def test_pynq_notebook_prints_the_metrics(blocks, pc, regs, tmp_path):
    """The ```python block with this machine's python3, the package the PC's
    sdist installs and the fake pynq; the IP's type is the generated
    component.xml's VLNV, the instance Vivado's default name <name>_0."""
    site = str(tmp_path / "site")
    run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--find-links", wheelhouse(),
         "--target", site, os.path.join(pc, "dist", "jointer-1.0.0.tar.gz")], str(tmp_path), clean_env())
    nb = tmp_path / "notebook"
    nb.mkdir()
    shutil.copy(os.path.join(pc, "out", NAME, NAME + ".jdesc"), str(nb))
    mem = str(tmp_path / "mem")
    register_file(mem, regs)
    (nb / "design.bit").write_bytes(b"")
    ip = {NAME + "_0": {"type": vlnv(os.path.join(pc, "out", NAME, "ip", "component.xml")),
                        "phys_addr": 0, "addr_range": SPAN}}
    (nb / "design.hwh").write_text(json.dumps(ip))
    (block,) = blocks[("PYNQ: Python", "pynq")]
    assert "binds %s" % ip[NAME + "_0"]["type"] in block        # the doc's comment names the VLNV
    (nb / "notebook.py").write_text(block)
    fake = os.path.join(REPO, "drivers", "python", "tests", "fake_pynq")
    out = run([sys.executable, "notebook.py"], str(nb),
              clean_env(PYTHONPATH=fake + os.pathsep + site, FAKE_PYNQ_MEM=mem))
    assert out == metrics_repr() + "\n"
