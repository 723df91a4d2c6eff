# SPDX-License-Identifier: MIT
"""python3 -m jointer: the Python host tools.

  convert FILE... --format vcd|perfetto|csv|json|spans [-o OUT] [--clock [NAME=]FREQ]... [--symbols SYMFILE]
          [--watch W.csv] [--descriptor D.jdesc]
  exporter --listen [HOST]:PORT --monitor SPEC=DESCRIPTOR [--monitor ...]
  dashboard --descriptor DESCRIPTOR [--monitor LABEL] -o OUT.json  (Grafana, EXPORTER.md)
  plot histogram FILE.json [METRIC] -o OUT.png|svg     (jointer read --format json)
  plot watch FILE.csv -o OUT.png|svg                   (jointer watch --output)
  plot profile FILE.csv -o OUT.png|svg                 (jointer profile --format csv)
  topology SAMPLES... [options]                        (doc/topology.md; jointer-topology --help)
  fake-device DIR --desc NAME.jdesc [--values V.json]  a monitor's registers and sysfs tree on a PC
                                                       (doc/integration.md, "A fake device")

Errors print one line (or a line and a hint) to stderr and exit 1: no
traceback, no half-written output (jointer.safeio). A missing optional
module (matplotlib, prometheus_client) says which extra to install.
"""
import argparse
import sys

from .errors import JointerError

# optional modules -> the extra of drivers/python/pyproject.toml that installs them
EXTRAS = {"matplotlib": "plot", "prometheus_client": "exporter", "networkx": "topology",
          "graphviz": "topology"}


def _convert(a):
    from .descriptor import Descriptor
    from .export import convert
    expect = Descriptor.load(a.descriptor).config_hash if a.descriptor else None
    out = convert(a.files, a.format, a.output, a.symbols, a.watch, expect,
                  warn=lambda w: print("jointer: warning: %s" % w, file=sys.stderr), clocks=a.clock)
    print("wrote %s" % out)


def _exporter(a):
    import prometheus_client  # noqa: F401  (missing: the install hint before any monitor opens)
    from .exporter import serve
    serve(a.listen, a.monitor, a.sysfs_root, once=False)


def _dashboard(a):
    from .dashboard import write_dashboard
    out = write_dashboard(a.descriptor, a.output, a.monitor)
    print("wrote %s" % out)


def _plot(a):
    from .plot import plot
    out = plot(a.kind, a.input, a.output, a.metric)
    print("wrote %s" % out)


def _fake_device(a):
    from .fake_device import main_args
    main_args(a)


def _topology(argv):
    """The topology tool has its own command line (jointer-topology)."""
    try:
        from .topology import main as topology_main
    except ModuleNotFoundError as ex:
        extra = EXTRAS.get((ex.name or "").split(".")[0])
        if extra is None:
            raise
        print("jointer: the Python module %s is missing: pip install 'jointer[%s]'" % (ex.name, extra),
              file=sys.stderr)
        return 1
    return topology_main(argv)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["topology"]:
        return _topology(argv[1:])
    p = argparse.ArgumentParser(prog="python3 -m jointer", description="jointer host tools (Python)")
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("convert", help="trace files (jointer trace --follow -o) to VCD, Perfetto JSON, CSV, JSON")
    c.add_argument("files", nargs="+", metavar="FILE")
    c.add_argument("--format", required=True, help="vcd | perfetto | csv | json | spans (a CSV of the spans: start, "
                                                    "end, duration)")
    c.add_argument("-o", "--output", help="output file (default: FILE with .vcd / .json / .csv / .records.json / "
                                          ".spans.csv)")
    c.add_argument("--clock", action="append", default=[], metavar="[NAME=]FREQ",
                   help="the real frequency of clock NAME (the YAML's clocks:) or of every file's clock, in Hz "
                        "(200000000, 200e6, 200MHz): times in seconds from it instead of the YAML's period")
    c.add_argument("--symbols", help="perfetto: a program monitor symbol file (calls as slices)")
    c.add_argument("--watch", help="perfetto: a `jointer watch --output` CSV (counter tracks)")
    c.add_argument("--descriptor", help="<name>.jdesc (or lib<name>.so): refuse trace files of another monitor "
                                        "(config hash)")
    c.set_defaults(fn=_convert)
    e = sub.add_parser("exporter", help="Prometheus exporter of every metric of every monitor")
    e.add_argument("--listen", default=":9464", help="[HOST]:PORT (default :9464)")
    e.add_argument("--monitor", action="append", required=True, metavar="SPEC=DESCRIPTOR",
                   help="e.g. uio:/dev/uio0=selective_accumulations.jdesc (or lib<name>.so); a DESCRIPTOR with a "
                        "slash is a path, a bare name is looked up in $JOINTER_DESC_PATH (default "
                        "/usr/share/jointer/desc:/usr/local/share/jointer/desc), then the checkout's build")
    e.add_argument("--sysfs-root", help=argparse.SUPPRESS)
    e.set_defaults(fn=_exporter)
    g = sub.add_parser("dashboard", help="a Grafana dashboard (JSON model) of one monitor's exported families")
    g.add_argument("--descriptor", required=True, help="<name>.jdesc or lib<name>.so (a path, or a bare name as "
                                                       "for exporter)")
    g.add_argument("--monitor", help="the exporter's monitor label (default: the monitor's name)")
    g.add_argument("-o", "--output", required=True, help="OUT.json")
    g.set_defaults(fn=_dashboard)
    pl = sub.add_parser("plot", help="histogram / watch / profile plots (PNG or SVG)")
    pl.add_argument("kind", choices=("histogram", "watch", "profile"))
    pl.add_argument("input")
    pl.add_argument("metric", nargs="?", help="histogram: one metric (default: every histogram)")
    pl.add_argument("-o", "--output", required=True, help="OUT.png or OUT.svg")
    pl.set_defaults(fn=_plot)
    fd = sub.add_parser("fake-device", help="a monitor's register file and sysfs tree on a PC: the CLI, the "
                                            "package and the exporter open it as uio:DIR/uio0")
    fd.add_argument("dir", metavar="DIR")
    fd.add_argument("--desc", required=True, help="<name>.jdesc (or lib<name>.so) of the monitor")
    fd.add_argument("--values", help="JSON {metric: value}, `jointer read --format json` output or a "
                                     "co-simulation's report.json")
    fd.add_argument("--uio", type=int, default=0, help="N of uioN (default 0)")
    fd.set_defaults(fn=_fake_device)
    sub.add_parser("topology", help="the topology of a platform from counter samples (jointer-topology)",
                   add_help=False)
    a = p.parse_args(argv)
    try:
        a.fn(a)
    except JointerError as ex:
        print("jointer: %s" % ex, file=sys.stderr)
        return 1
    except OSError as ex:
        print("jointer: %s%s" % (ex.strerror or ex, (": " + ex.filename) if ex.filename else ""), file=sys.stderr)
        return 1
    except ModuleNotFoundError as ex:
        extra = EXTRAS.get((ex.name or "").split(".")[0])
        if extra is None:
            raise
        print("jointer: the Python module %s is missing: pip install 'jointer[%s]'" % (ex.name.split(".")[0], extra),
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
