# SPDX-License-Identifier: MIT
"""libjointer's bundle (<OUT>/libjointer/) and the monitors' C bundles
(<OUT>/<name>/c/), built, installed and run where users do it.

- Two monitors generated into one <OUT> leave one libjointer/, the bytes of
  drivers/ (sources.mk's lists), the same whichever monitor.
- Cross-built (aarch64, armhf) with WERROR=1: libjointer.so.<version> with
  the SONAME libjointer.so.<major>, exporting exactly the functions the
  public headers declare; each monitor's self-check under qemu.
- Installed each into its own DESTDIR: the exact trees, no path in two of
  them. All three into one root: pkg-config in that sysroot, an application
  linked against both monitors (shared libraries) opens two fake UIO devices
  by name under qemu; the installed generic CLI reads both.
- A changed CC rebuilds (no "file in wrong format" until make clean).
- doc/integration.md "Linux: the C bundle": its shell block and the two
  Yocto recipes (UNPACKDIR; a stand-in for bitbake runs do_compile and
  do_install with a Yocto-like environment, the monitor against libjointer
  in its recipe sysroot) run as written.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from gentest_util import REPO, generated, readme_section
from jointer_gen.backends import libbundle
from jointer_gen.output import write_tree

NAMES = ["selective_accumulations", "trace_sink"]
ARCH = {"armhf": ("arm-linux-gnueabihf-gcc", ["qemu-arm", "-L", "/usr/arm-linux-gnueabihf"]),
        "aarch64": ("aarch64-linux-gnu-gcc", ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"])}
DRV = REPO / "drivers"
RELEASE = __import__("jointer_gen").__version__
MAJOR = RELEASE.split(".")[0]


def sh(cmd, cwd, env=None, **kw):
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, **kw)
    assert p.returncode == 0, f"{cmd} failed ({p.returncode}):\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    return p.stdout


def generate(out: Path, names=NAMES) -> Path:
    """jointer-gen of every name into one OUT, as the command line writes it."""
    for name in names:
        sh(["python3", "-m", "jointer_gen", str(REPO / "configs" / f"{name}.yaml"), "-o", str(out), "-q"], REPO,
           env=dict(os.environ, PYTHONPATH=str(REPO / "gen")))
    return out


def fake_uio(tmp: Path, regs: dict, prefix: str, n: int = 5) -> bytearray:
    """A fake UIO device uio<n> (JOINTER_UIO_SYSFS layout, as drivers/tests/test_cli.py):
    its sysfs map0 and the identity of the generated monitor."""
    mp = tmp / "sys" / f"uio{n}" / "maps" / "map0"
    mp.mkdir(parents=True)
    for k, v in (("size", "0x4000\n"), ("addr", "0x43c00000\n"), ("offset", "0x0\n")):
        (mp / k).write_text(v)
    img = bytearray(0x4000)
    for off, v in ((0x0, 0x4A4E5452), (0x4, 0x00020000), (0x8, regs[f"{prefix}_CONFIG_HASH"]),
                   (0xC, regs[f"{prefix}_INFO"])):
        img[off:off + 4] = struct.pack("<I", v)
    return img


def regs_of(text: str) -> dict:
    return {m.group(1): int(m.group(2), 0)
            for m in re.finditer(r"#define (\w+)\s+(0x[0-9A-Fa-f]+|\d+)u", text)}


def shell_blocks(section: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", readme_section(section), re.S)




def files_of(root: Path) -> list[str]:
    """Every file and symbolic link under root, relative."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() or p.is_symlink())


def uio_device(tmp: Path, n: int, node: str, name: str, values: dict) -> Path:
    """/sys/class/uio/uio<n> (name = node) and /dev/uio<n> of a fake monitor `name`:
    its identity, metric i's RESULT = 1000 * (i + 1) + 7 + n."""
    design, files = generated(name)
    regs = regs_of(files[f"c/{name}_regs.h"])
    img = fake_uio(tmp, regs, design.NAME, n)
    for i, m in enumerate(design.metrics):
        off = regs[f"{design.NAME}_{m['NAME']}_RESULT"]
        img[off:off + 4] = struct.pack("<I", 1000 * (i + 1) + 7 + n)
        values[(name, m["name"])] = 1000 * (i + 1) + 7 + n
    (tmp / "sys" / f"uio{n}" / "name").write_text(node + "\n")
    (tmp / "dev").mkdir(exist_ok=True)
    (tmp / "dev" / f"uio{n}").write_bytes(bytes(img))
    return tmp / "dev" / f"uio{n}"


def declared_functions() -> set[str]:
    """The functions libjointer's public headers declare (not static inline)."""
    names = set()
    for h in (DRV / "include").glob("*.h"):
        text = re.sub(r"/\*.*?\*/", "", h.read_text(), flags=re.S)
        names |= set(re.findall(r"^(?!static|typedef|#|\s)[^;{}()#\n]*?\b(jointer_\w+)\s*\(", text, re.M))
    return names


def exported(lib: Path) -> set[str]:
    """The symbols a shared library defines for others (readelf: any target)."""
    out = sh(["readelf", "--dyn-syms", "-W", str(lib)], lib.parent)
    return {f[7] for f in (line.split() for line in out.splitlines())
            if len(f) >= 8 and f[4] in ("GLOBAL", "WEAK") and f[6] != "UND" and f[3] in ("FUNC", "OBJECT")}


def test_one_libjointer_for_every_monitor(tmp_path):
    """Two monitors into one OUT: one libjointer/, drivers/'s bytes, libbundle.files() exactly."""
    out = generate(tmp_path / "out")
    assert sorted(os.listdir(out)) == sorted(["libjointer", *NAMES])
    lib = out / "libjointer"
    got = {rel: (lib / rel).read_bytes() for rel in files_of(lib)}
    assert got == {rel: text.encode() for rel, text in libbundle.files().items()}
    groups = libbundle.cbundle.source_groups()
    want = ([f"include/{p.name}" for p in (DRV / "include").glob("*.h")]
            + [f"src/{f}" for f in groups["DRV_PORTABLE_SRCS"] + groups["DRV_HOSTED_SRCS"]]
            + [f"src/{p.name}" for p in (DRV / "src").glob("*.h")]
            + [f"cli/{p.name}" for p in (DRV / "cli").iterdir() if p.suffix in (".c", ".h")])
    assert sorted(got) == sorted(set(want) | {"Makefile", "LICENSE"})
    for rel in want:
        assert got[rel] == (DRV / rel).read_bytes(), rel


def test_a_monitor_named_libjointer_is_refused(tmp_path):
    y = tmp_path / "libjointer.yaml"
    text = (REPO / "configs" / "selective_accumulations.yaml").read_text()
    y.write_text(re.sub(r"(?m)^(\s*name:\s*)selective_accumulations\s*$", r"\1libjointer", text, count=1))
    p = subprocess.run(["python3", "-m", "jointer_gen", str(y), "-o", str(tmp_path / "out")], cwd=REPO,
                       capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(REPO / "gen")))
    assert p.returncode == 1 and "may not be named libjointer" in p.stderr, p.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


APP = r"""#include <inttypes.h>
#include <stdio.h>
#include "jointer_hosted.h"
#include "selective_accumulations.h"
#include "trace_sink.h"

/* argv: sysfs root, dev root; each monitor opened by its UIO name, every metric printed */
static int show(jointer_dev *dev, const jointer_cfg *cfg, uint32_t *bounds, uint32_t words,
                const char *node, const jointer_uio_params *p)
{
    uint64_t v;
    unsigned i;
    int r = sizeof(jointer_dev) != jointer_dev_size() ? -EPROTO : jointer_uio_open(dev, cfg, node, p, 0);
    if (r == 0)
        r = jointer_attach_bounds(dev, bounds, words);
    for (i = 0; r == 0 && i < cfg->num_metrics; i++)
        if ((r = jointer_read(dev, i, &v)) == 0)
            printf("%s %s %" PRIu64 "\n", cfg->name, cfg->metrics[i].name, v);
    jointer_close(dev);
    return r;
}

int main(int argc, char **argv)
{
    static selective_accumulations_dev a;
    static trace_sink_dev b;
    jointer_uio_params p = {NULL, NULL, 0, NULL};
    int r;
    if (argc != 3)
        return 2;
    p.sysfs_root = argv[1];
    p.dev_root = argv[2];
    printf("libjointer %s\n", jointer_version_string());
    r = show(&a.dev, &selective_accumulations_cfg, a.bounds, 2u * SELECTIVE_ACCUMULATIONS_NUM_DCAPFS,
             "name=y9", &p);
    if (r == 0)
        r = show(&b.dev, &trace_sink_cfg, b.bounds, 2u * TRACE_SINK_NUM_DCAPFS, "name=sink", &p);
    if (r != 0)
        printf("error: %s\n", jointer_strerror(r));
    return r != 0;
}
"""


def build_all(out: Path, cc: str, qemu: list[str]) -> None:
    """libjointer, then each monitor against it (the sibling bundle), WERROR=1; the self-checks."""
    sh(["make", "-j2", f"CC={cc}", "WERROR=1"], out / "libjointer")
    for name in NAMES:
        sh(["make", "-j2", f"CC={cc}", "WERROR=1"], out / name / "c")
        check = sh(["make", f"CC={cc}", "WERROR=1", "check", f"RUN={' '.join(qemu)}"], out / name / "c")
        assert re.search(rf"^{name}_selfcheck: \d+ checks, 0 failed$", check, re.M), check


def want_trees() -> dict[str, list[str]]:
    lib = (["usr/bin/jointer", f"usr/lib/libjointer.so.{RELEASE}", f"usr/lib/libjointer.so.{MAJOR}",
            "usr/lib/libjointer.so", "usr/lib/libjointer.a", "usr/lib/pkgconfig/libjointer.pc"]
           + [f"usr/include/jointer/{p.name}" for p in (DRV / "include").glob("*.h")])
    out = {"libjointer": sorted(lib)}
    for n in NAMES:
        out[n] = sorted([f"usr/lib/lib{n}.so.{RELEASE}", f"usr/lib/lib{n}.so.{MAJOR}", f"usr/lib/lib{n}.so",
                         f"usr/lib/lib{n}.a", f"usr/lib/pkgconfig/{n}.pc", f"usr/include/jointer/{n}/{n}.h",
                         f"usr/include/jointer/{n}/{n}_regs.h", f"usr/share/jointer/desc/{n}.jdesc"])
    return out


def install_apart(out: Path, dest: Path, cc: str) -> None:
    """Each package into its own DESTDIR: the exact trees, no path in two of them."""
    trees = {}
    for pkg in ["libjointer", *NAMES]:
        folder = out / pkg if pkg == "libjointer" else out / pkg / "c"
        sh(["make", f"CC={cc}", "install", f"DESTDIR={dest / pkg}", "PREFIX=/usr"], folder)
        trees[pkg] = files_of(dest / pkg)
    assert trees == want_trees()
    for a in trees:
        for b in trees:
            assert a == b or not set(trees[a]) & set(trees[b]), (a, b)


def app_and_cli(tmp: Path, root: Path, cc: str, qemu: list[str]) -> None:
    """An application against both monitors (shared libraries, flags from pkg-config in
    the sysroot) and the installed CLI, under qemu, on two fake UIO devices found by name."""
    env = dict(os.environ, PKG_CONFIG_SYSROOT_DIR=str(root), PKG_CONFIG_LIBDIR=str(root / "usr/lib/pkgconfig"))
    env.pop("PKG_CONFIG_PATH", None)
    flags = sh(["pkg-config", "--cflags", "--libs", *NAMES], tmp, env=env).split()
    assert sorted(f for f in flags if f.startswith("-l")) == sorted(["-ljointer"] + [f"-l{n}" for n in NAMES])
    (tmp / "app.c").write_text(APP)
    sh([cc, "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "app.c", *flags, "-o", "app"], tmp)
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.+)\]", sh(["readelf", "-d", "app"], tmp))
    assert {f"libjointer.so.{MAJOR}", *(f"lib{n}.so.{MAJOR}" for n in NAMES)} <= set(needed), needed
    values = {}
    uio_device(tmp, 3, "y9", "selective_accumulations", values)
    uio_device(tmp, 7, "sink", "trace_sink", values)
    run = qemu + ["-E", f"LD_LIBRARY_PATH={root / 'usr/lib'}"]
    got = sh(run + ["./app", str(tmp / "sys"), str(tmp / "dev")], tmp).splitlines()
    assert got[0] == f"libjointer {RELEASE}"
    assert got[1:] == [f"{n} {m} {v}" for (n, m), v in values.items()]
    cenv = dict(os.environ, JOINTER_UIO_SYSFS=str(tmp / "sys"), JOINTER_UIO_DEV=str(tmp / "dev"),
                JOINTER_DESC_PATH=str(root / "usr/share/jointer/desc"))
    for node, name in (("y9", "selective_accumulations"), ("sink", "trace_sink")):
        rows = sh(run + [str(root / "usr/bin/jointer"), "--device", f"uio:name={node}", "read", "--format", "csv"],
                  tmp, env=cenv).splitlines()
        assert [(r.split(",")[2], int(r.split(",")[4])) for r in rows[1:]] == \
            [(m, v) for (n, m), v in values.items() if n == name]


@pytest.mark.parametrize("arch", sorted(ARCH))
def test_side_by_side(arch, tmp_path):
    cc, qemu = ARCH[arch]
    out = generate(tmp_path / "out")
    build_all(out, cc, qemu)
    so = out / "libjointer" / "build" / f"libjointer.so.{RELEASE}"
    assert f"Library soname: [libjointer.so.{MAJOR}]" in sh(["readelf", "-d", str(so)], tmp_path)
    assert exported(so) == declared_functions()
    install_apart(out, tmp_path / "apart", cc)
    root = tmp_path / "root"
    for folder in [out / "libjointer"] + [out / n / "c" for n in NAMES]:
        sh(["make", f"CC={cc}", "install", f"DESTDIR={root}", "PREFIX=/usr"], folder)
    assert files_of(root) == sorted(sum(want_trees().values(), []))     # one root: the union, nothing lost
    app_and_cli(tmp_path, root, cc, qemu)


def test_changed_cc_rebuilds(tmp_path):
    """make with gcc, then with the aarch64 compiler and no make clean: every object is rebuilt
    (no "file in wrong format"); the same CC again builds nothing."""
    out = generate(tmp_path / "out", NAMES[:1])
    for folder in (out / "libjointer", out / NAMES[0] / "c"):
        sh(["make", "-j2", "CC=gcc"], folder)
        sh(["make", "-j2", "CC=aarch64-linux-gnu-gcc"], folder)
        again = sh(["make", "CC=aarch64-linux-gnu-gcc"], folder)
        assert "aarch64-linux-gnu-gcc" not in again, again
        for lib in (folder / "build").glob("lib*.so.*.*.*"):
            assert "ARM aarch64" in sh(["file", "-L", str(lib)], tmp_path), lib
    assert "ARM aarch64" in sh(["file", str(out / "libjointer" / "build" / "jointer")], tmp_path)


def test_doc_bundle_commands(tmp_path):
    """doc/integration.md "Linux: the C bundle": its shell block runs as written
    (jointer-gen from this checkout, HOME an empty folder with configs/ beside)."""
    [block] = shell_blocks("Linux: the C bundle")[:1]
    (tmp_path / "configs").symlink_to(REPO / "configs")
    env = dict(os.environ, HOME=str(tmp_path))
    env.pop("PKG_CONFIG_PATH", None)
    script = ("set -euo pipefail\n"
              f"jointer-gen() {{ PYTHONPATH={REPO / 'gen'} python3 -m jointer_gen \"$@\"; }}\n" + block)
    out = sh(["bash", "-c", script], tmp_path, env=env)
    root = tmp_path / "root"
    assert (f"-I{root}/usr/include/jointer/selective_accumulations -I{root}/usr/include/jointer "
            f"-L{root}/usr/lib -lselective_accumulations -ljointer") in out, out
    assert (tmp_path / "y9-bundle" / "app").is_file()
    assert "usage: jointer" in sh(ARCH["aarch64"][1] + ["-E", f"LD_LIBRARY_PATH={root}/usr/lib",
                                                        str(root / "usr/bin/jointer"), "--help"], tmp_path)


def recipes() -> list[str]:
    text = readme_section("Linux: the C bundle")
    return re.findall(r"```\n(SUMMARY = .*?)```", text.split("### PetaLinux / Yocto")[1], re.S)


def bitbake(recipe: str, layer_files: Path, work: Path, env: dict) -> Path:
    """A stand-in for bitbake: the variables of the recipe, file:// SRC_URI unpacked into
    ${UNPACKDIR} (${WORKDIR}/sources, as Yocto since 5.1), LIC_FILES_CHKSUM checked,
    do_compile and do_install run with oe_runmake = make; returns ${D}."""
    var = dict(re.findall(r'^([A-Z_]+) = "(.*)"$', recipe, re.M))
    unpack, d = work / "sources", work / "image"
    src = re.fullmatch(r"file://(.+)/", var["SRC_URI"]).group(1)
    shutil.copytree(layer_files / src, unpack / src)
    s = Path(var["S"].replace("${UNPACKDIR}", str(unpack)))
    lic, md5 = re.fullmatch(r"file://(\S+);md5=([0-9a-f]{32})", var["LIC_FILES_CHKSUM"]).groups()
    assert var["LICENSE"] == "MIT" and hashlib.md5((s / lic).read_bytes()).hexdigest() == md5
    funcs = re.findall(r"^(do_\w+\(\) \{\n.*?\n\})", recipe, re.M | re.S)
    assert [f.split("(")[0] for f in funcs] == ["do_compile", "do_install"]
    script = 'set -e\noe_runmake() { make "$@"; }\n' + "\n".join(funcs) + "\ndo_compile\ndo_install\n"
    sh(["bash", "-c", script], s, env=dict(env, D=str(d), WORKDIR=str(work), UNPACKDIR=str(unpack), S=str(s)))
    return d


def test_doc_yocto_recipes(tmp_path):
    """The two recipes of doc/integration.md: libjointer's, then the monitor's against
    libjointer in its recipe sysroot (DEPENDS, inherit pkgconfig); ${libdir} /usr/lib64."""
    lib_recipe, mon_recipe = recipes()
    assert "DEPENDS = \"libjointer\"" in mon_recipe and "${WORKDIR}" not in lib_recipe + mon_recipe
    out = generate(tmp_path / "out", NAMES[:1])
    layer = tmp_path / "layer"
    shutil.copytree(out / "libjointer", layer / "libjointer")
    shutil.copytree(out / NAMES[0] / "c", layer / NAMES[0])
    env = dict(os.environ, CC="aarch64-linux-gnu-gcc -march=armv8-a", AR="aarch64-linux-gnu-ar",
               CFLAGS="-O2 -pipe -g", LDFLAGS="-Wl,-O1 -Wl,--hash-style=gnu", prefix="/usr",
               libdir="/usr/lib64", datadir="/usr/share")
    env.pop("PKG_CONFIG_PATH", None)
    d_lib = bitbake(lib_recipe, layer, tmp_path / "work-libjointer", env)
    sysroot = dict(env, PKG_CONFIG_SYSROOT_DIR=str(d_lib), PKG_CONFIG_LIBDIR=str(d_lib / "usr/lib64/pkgconfig"))
    d_mon = bitbake(mon_recipe, layer, tmp_path / "work-mon", sysroot)
    lib, mon = files_of(d_lib), files_of(d_mon)
    assert not set(lib) & set(mon) and "usr/bin/jointer" in lib and "usr/bin/jointer" not in mon
    assert f"usr/lib64/libjointer.so.{MAJOR}" in lib and f"usr/share/jointer/desc/{NAMES[0]}.jdesc" in mon
    assert (d_lib / "usr/lib64/pkgconfig/libjointer.pc").read_text().startswith(
        "prefix=/usr\nlibdir=/usr/lib64\nincludedir=/usr/include\n")
    assert "ARM aarch64" in sh(["file", str(d_lib / "usr/bin/jointer")], tmp_path)
