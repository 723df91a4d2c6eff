# SPDX-License-Identifier: MIT
"""The command line: -o, the default folder, --check, replacing a previous
output, --version, python -m, and `make gen` through gen/gen.mk."""
import os
import shutil
import subprocess
import sys

from gentest_util import CONFIGS, REPO, generated, run_cli
from jointer_gen import __version__
from jointer_gen.output import existing_files


def _copy(tmp_path, name="two_clock_bus"):
    shutil.copy(CONFIGS / f"{name}.yaml", tmp_path / "m.yaml")
    return "m.yaml"


def test_default_output_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, out, err = run_cli([_copy(tmp_path)])
    assert rc == 0 and err == ""
    files = existing_files(tmp_path / "build" / "two_clock_bus")
    assert out == f"jointer-gen: wrote {len(files)} files to build/two_clock_bus (config hash 0xCEE40516)\n"
    assert "hdl/two_clock_bus_monitor.vhd" in files
    assert sorted(os.listdir(tmp_path / "build")) == ["libjointer", "two_clock_bus"]   # no temporary folder left


def test_check(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = _copy(tmp_path)
    assert run_cli([cfg, "-o", "out", "--check"])[0] == 1          # nothing generated yet
    assert run_cli([cfg, "-o", "out"])[0] == 0
    rc, out, err = run_cli([cfg, "-o", "out", "--check"])
    assert (rc, err) == (0, "") and "jointer-gen: out/two_clock_bus is up to date (" in out
    dest = tmp_path / "out" / "two_clock_bus"
    reg = dest / "c" / "two_clock_bus_regs.h"
    reg.write_text(reg.read_text().replace("0x", "0X", 1))
    (dest / "doc" / "extra.txt").write_text("stale")
    (dest / "doc" / "two_clock_bus.html").unlink()
    rc, out, err = run_cli([cfg, "-o", "out", "--check"])
    assert rc == 1 and "two_clock_bus" not in out          # (libjointer/ is up to date)
    assert err.splitlines() == [
        "jointer-gen: out/two_clock_bus: differs: c/two_clock_bus_regs.h",
        "jointer-gen: out/two_clock_bus: not generated (stale): doc/extra.txt",
        "jointer-gen: out/two_clock_bus: missing: doc/two_clock_bus.html",
        "jointer-gen: out/two_clock_bus is out of date (3 differences); run jointer-gen m.yaml -o out"]
    # --check writes nothing
    assert (dest / "doc" / "extra.txt").read_text() == "stale"


def test_regeneration_replaces_the_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = _copy(tmp_path)
    assert run_cli([cfg, "-o", "out", "-q"]) == (0, "", "")
    (tmp_path / "out" / "two_clock_bus" / "stale.vhd").write_text("old")
    first = existing_files(tmp_path / "out" / "two_clock_bus")
    assert run_cli([cfg, "-o", "out", "-q"])[0] == 0
    second = existing_files(tmp_path / "out" / "two_clock_bus")
    assert "stale.vhd" not in second
    assert {k: v for k, v in first.items() if k != "stale.vhd"} == second
    assert sorted(os.listdir(tmp_path / "out")) == ["libjointer", "two_clock_bus"]


def test_unwritable_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = _copy(tmp_path)
    (tmp_path / "out").write_text("a file, not a folder")
    rc, out, err = run_cli([cfg, "-o", "out"])
    assert rc == 1 and err.startswith("jointer-gen: cannot write out/two_clock_bus: ")


def test_version():
    r = subprocess.run([sys.executable, "-m", "jointer_gen", "--version"], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=str(REPO / "gen")))
    assert (r.returncode, r.stdout) == (0, f"jointer-gen {__version__}\n")


def test_usage_error_status_2():
    r = subprocess.run([sys.executable, "-m", "jointer_gen"], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=str(REPO / "gen")))
    assert r.returncode == 2 and "usage: jointer-gen" in r.stderr


def test_make_gen(tmp_path):
    """make gen CONFIG=... OUT=... (deps taken as done: no installer run in a test)."""
    r = subprocess.run(["make", "--no-print-directory", "-o", "deps", "gen",
                        f"CONFIG={CONFIGS / 'arm_timestamps.yaml'}", f"OUT={tmp_path}"],
                       cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    n = len(generated("arm_timestamps")[1])
    assert r.stdout.startswith(f"jointer-gen: wrote {n} files to {tmp_path}/arm_timestamps")
    assert (tmp_path / "arm_timestamps" / "manifest.json").is_file()


def test_pyproject_console_script():
    text = (REPO / "gen" / "pyproject.toml").read_text()
    assert 'jointer-gen = "jointer_gen.cli:main"' in text
    from jointer_gen.cli import main
    assert callable(main)


def test_pyproject_tools_scripts():
    """The tools installed with the generator (and with the host package):
    each entry point names a main()."""
    import importlib
    import re
    text = (REPO / "gen" / "pyproject.toml").read_text()
    scripts = dict(re.findall(r'^(jointer-[\w-]+) = "([\w.]+:\w+)"$', text, re.M))
    assert set(scripts) == {"jointer-gen", "jointer-cdc-check"}
    host = (REPO / "drivers" / "python" / "pyproject.toml").read_text()
    host_scripts = dict(re.findall(r'^(jointer-[\w-]+) = "([\w.]+:\w+)"$', host, re.M))
    assert host_scripts == {"jointer-topology": "jointer.topology:main"}
    for target in {**scripts, **host_scripts}.values():
        module, func = target.split(":")
        assert callable(getattr(importlib.import_module(module), func)), target


def test_readme_example_generates(tmp_path, monkeypatch):
    """The annotated example of the README is a valid description using every key."""
    import re
    from gentest_util import readme_yaml
    example = readme_yaml("## Every key, annotated")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ex.yaml").write_text(example)
    rc, out, err = run_cli(["ex.yaml", "-o", "out", "-q"])
    assert (rc, err) == (0, "")
    from jointer_gen.load.schema_check import schema
    keys = set()

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.get("properties", {}).items():
                keys.add(k)
                walk(v)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(schema())
    written = set(re.findall(r"^\s*-?\s*\{?(\w+):", example, re.M)) | set(re.findall(r"[{,]\s*(\w+):", example))
    assert keys - written == set()      # every key of the schema appears in the example


def test_readme_y9_example_is_the_y9_config(tmp_path, monkeypatch):
    """The Y9 example at the top of the README describes the same hardware as
    configs/selective_accumulations.yaml (same config hash)."""
    from gentest_util import readme_yaml
    monkeypatch.chdir(tmp_path)
    (tmp_path / "y9.yaml").write_text(readme_yaml("## Describe a monitor"))
    rc, out, err = run_cli(["y9.yaml", "-o", "a"])
    assert (rc, err) == (0, "")
    rc, out2, err = run_cli([str(REPO / "configs" / "selective_accumulations.yaml"), "-o", "b"])
    assert rc == 0
    import json
    ha = json.loads((tmp_path / "a" / "selective_accumulations" / "manifest.json").read_text())["config_hash"]
    hb = json.loads((tmp_path / "b" / "selective_accumulations" / "manifest.json").read_text())["config_hash"]
    assert ha == hb
