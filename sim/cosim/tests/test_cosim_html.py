# SPDX-License-Identifier: MIT
"""`make demo`'s HTML report (cosim_html.py): the table holds every metric with
its expected value and each simulator's, the chart one bar per metric and
series, and a failing metric is marked."""
import re
import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "flow"))
import cosim_html  # noqa: E402


def test_report_table_and_chart(tmp_path):
    sc = SimpleNamespace(name="demo", config=Path("selective_accumulations.yaml"), app="demo")
    reports = {"verilator": {"metrics": {"bytes_written": 60, "mac_fires": 247}, "expect": {"bytes_written": 60},
                             "app_expect": {"mac_fires": 247}},
               "ghdl": {"metrics": {"bytes_written": 60, "mac_fires": 246}}}
    page = cosim_html.write(tmp_path / "r" / "report.html", sc, reports, False).read_text()
    rows = re.findall(r"<tr><td>(\w+)</td><td>(\d*)</td><td>(\d+)</td><td>(\d+)</td><td>(\w*)</td></tr>", page)
    assert rows == [("bytes_written", "60", "60", "60", "ok"), ("mac_fires", "247", "247", "246", "FAIL")]
    assert "<b>FAIL</b>" in page
    svg = page[page.index("<svg"):]
    for text in ("bytes_written (bytes)", "mac_fires (events)", "expected", "verilator", "ghdl",
                 "metric value, in the unit after its name (symlog scale)",
                 "Scenario demo: metrics per simulator and expected"):   # tick labels, legend, axis, title
        assert f">{text}<" in svg, text
    assert not list((tmp_path / "r").glob(".report-*"))      # no temporary file left
