# SPDX-License-Identifier: MIT
"""jointer-topology: the topology of a platform from hardware-event counter
samples, after Cazanove et al. ("Extracting the Topology of a Hardware Platform Using
Hardware Events").

Pipeline (every graph algorithm is networkx's):
  1. samples: one row per run, one value per event, each run in a population
     (read_samples: wide CSV, `jointer read --format csv`, `perf stat -x,`);
  2. per population a Metric Affinity Graph (MAG): nodes are the events
     triggered (mean > min_count) and varying in that population, an edge
     joins two events whose Pearson correlation over the population's runs
     is >= the threshold;
  3. the intersection of the MAGs: "shared" (default) keeps an edge when it
     is in every MAG that holds both of its events, "strict" is
     networkx.intersection_all over MAGs on one node set;
  4. Basic Paths = the maximal cliques of the intersection (find_cliques);
  5. a Basic Path appears in a population when all its events are triggered
     there; BP_i -> BP_j when the populations of BP_i are a strict subset of
     those of BP_j (BP_i always appears with BP_j, BP_j also without BP_i);
  6. the topology = the transitive reduction of that DAG; DOT (python
     graphviz), SVG/PNG (Graphviz `dot`), a text table.

Steps 5-6 also run from a table of Basic Paths per population
(read_population_table), as the paper prints it.

The command line is `python3 -m jointer topology` or `jointer-topology` (main()
here; scripts/jointer-topology in a checkout; extra `jointer[topology]`:
networkx, graphviz); doc/topology.md documents the accepted inputs.
"""

import argparse
import os
import statistics
import sys
import tempfile
from dataclasses import dataclass, field

import graphviz
import networkx as nx

from .topology_input import (PROG, InputError, Run, collect, read_basic_path_names,  # noqa: F401
                             read_population_table, read_samples)


# ---------------------------------------------------------------- analysis

@dataclass
class Topology:
    populations: list                  # names, input order
    basic_paths: list                  # [(name, [events])], output order
    appears: dict                      # population -> [bp names]
    implications: list                 # [(bp_i, bp_j)] before reduction
    edges: list                        # [(bp_i, bp_j)] after transitive reduction
    absent: list = field(default_factory=list)      # BPs in no population
    runs: dict = field(default_factory=dict)        # population -> runs
    mags: dict = field(default_factory=dict)        # population -> nx.Graph
    intersection: object = None                     # nx.Graph
    untriggered: list = field(default_factory=list)  # events triggered nowhere
    unmatched_names: list = field(default_factory=list)
    settings: dict = field(default_factory=dict)


def triggered_events(samples, min_count):
    """population -> set of events whose mean over its runs is > min_count."""
    out = {}
    for p in samples.populations:
        rows = samples.rows[p]
        out[p] = {e for i, e in enumerate(samples.events)
                  if statistics.fmean(r[i] for r in rows) > min_count}
    return out


def metric_affinity_graph(samples, population, triggered, threshold, absolute=False):
    """MAG of one population: triggered, varying events; an edge when the
    Pearson correlation (its absolute value with absolute) is >= threshold."""
    rows = samples.rows[population]
    cols = {e: [r[i] for r in rows] for i, e in enumerate(samples.events)}
    nodes = [e for e in samples.events if e in triggered and statistics.pvariance(cols[e]) > 0]
    g = nx.Graph(population=population)
    g.add_nodes_from(nodes)
    for a in range(len(nodes)):
        for b in range(a + 1, len(nodes)):
            r = statistics.correlation(cols[nodes[a]], cols[nodes[b]])
            if (abs(r) if absolute else r) >= threshold:
                g.add_edge(nodes[a], nodes[b], r=r)
    return g


def intersect(mags, nodes, mode="shared"):
    """Intersection of the MAGs over `nodes` (the events triggered somewhere).
    shared: an edge stays when every MAG holding both its events has it;
    strict: networkx.intersection_all (every MAG must have it)."""
    if mode == "strict":
        full = []
        for m in mags:
            g = nx.Graph()
            g.add_nodes_from(nodes)
            g.add_edges_from(m.edges)
            full.append(g)
        g = nx.intersection_all(full)
    else:
        g = nx.Graph()
        g.add_nodes_from(nodes)
        union = set()
        for m in mags:
            union.update(tuple(sorted(e)) for e in m.edges)
        for u, v in sorted(union):
            if all(m.has_edge(u, v) for m in mags if m.has_node(u) and m.has_node(v)):
                g.add_edge(u, v)
    return g


def implication_topology(populations, basic_paths, appears):
    """BP_i -> BP_j when pops(BP_i) is a strict subset of pops(BP_j); returns
    (implications, reduced edges, BPs in no population), each ordered as
    basic_paths."""
    order = {name: k for k, (name, _) in enumerate(basic_paths)}
    pops = {name: frozenset(p for p in populations if name in appears[p]) for name, _ in basic_paths}
    present = [name for name, _ in basic_paths if pops[name]]
    absent = [name for name, _ in basic_paths if not pops[name]]
    dg = nx.DiGraph()
    dg.add_nodes_from(present)
    for i in present:
        for j in present:
            if i != j and pops[i] < pops[j]:
                dg.add_edge(i, j)
    red = nx.transitive_reduction(dg)

    def key(e):
        return (order[e[0]], order[e[1]])
    return sorted(dg.edges, key=key), sorted(red.edges, key=key), absent


def topology_from_table(pop_rows, names=None):
    """Steps 5-6 from a Basic-Path-per-population table."""
    populations = [p for p, _ in pop_rows]
    appears = {p: list(bps) for p, bps in pop_rows}
    if names is not None:
        basic_paths = [(n, list(ev)) for n, ev in names]
    else:
        basic_paths = []
        for _, bps in pop_rows:
            for b in bps:
                if b not in [n for n, _ in basic_paths]:
                    basic_paths.append((b, []))
    imp, red, absent = implication_topology(populations, basic_paths, appears)
    return Topology(populations, basic_paths, appears, imp, red, absent,
                    settings={"source": "table"})


def topology_from_samples(samples, threshold=0.9, min_count=0.0, absolute=False,
                          intersection="shared", names=None):
    """The whole pipeline from counter samples."""
    trig = triggered_events(samples, min_count)
    mags = {p: metric_affinity_graph(samples, p, trig[p], threshold, absolute)
            for p in samples.populations}
    col = {e: i for i, e in enumerate(samples.events)}
    active = [e for e in samples.events if any(e in trig[p] for p in samples.populations)]
    inter = intersect([mags[p] for p in samples.populations], active, intersection)
    cliques = [sorted(c, key=col.get) for c in nx.find_cliques(inter)]
    named = {frozenset(ev): n for n, ev in (names or [])}
    npops = {}
    for c in cliques:
        npops[tuple(c)] = sum(1 for p in samples.populations if all(e in trig[p] for e in c))
    cliques.sort(key=lambda c: (-npops[tuple(c)], [col[e] for e in c]))
    taken = set(named.values())
    basic_paths, k = [], 0
    for c in cliques:
        name = named.get(frozenset(c))
        if name is None:
            k += 1
            while "BP%d" % k in taken:
                k += 1
            name = "BP%d" % k
        basic_paths.append((name, c))
    appears = {p: [n for n, ev in basic_paths if all(e in trig[p] for e in ev)]
               for p in samples.populations}
    imp, red, absent = implication_topology(samples.populations, basic_paths, appears)
    found = {n for n, _ in basic_paths}
    return Topology(samples.populations, basic_paths, appears, imp, red, absent,
                    runs={p: len(samples.rows[p]) for p in samples.populations},
                    mags=mags, intersection=inter,
                    untriggered=[e for e in samples.events if e not in active],
                    unmatched_names=[n for n, _ in (names or []) if n not in found],
                    settings={"source": "samples", "threshold": threshold, "min_count": min_count,
                              "absolute": absolute, "intersection": intersection,
                              "events": len(samples.events)})


# ---------------------------------------------------------------- output

def _wrap(items, per_line=3):
    return "\\n".join(", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line))


def to_dot(topo):
    """The topology as DOT source (python graphviz; deterministic)."""
    g = graphviz.Digraph("topology", graph_attr={"rankdir": "BT"},
                         node_attr={"shape": "box", "fontname": "Helvetica"})
    events = dict(topo.basic_paths)
    for name, _ in topo.basic_paths:
        if name in topo.absent:
            continue
        label = name if not events[name] else name + "\\n" + _wrap(events[name])
        g.node(name, label=label)
    for a, b in topo.edges:
        g.edge(a, b)
    return g.source


def render(dot_source, fmt):
    """SVG or PNG bytes from DOT through Graphviz `dot`."""
    try:
        return graphviz.Source(dot_source).pipe(format=fmt)
    except graphviz.ExecutableNotFound:
        raise InputError("dot", None, "Graphviz `dot` not found (Debian: apt-get install graphviz)") from None
    except graphviz.CalledProcessError as e:
        raise InputError("dot", None, "Graphviz failed: %s" % e) from None


def _table(rows, indent="  "):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    out = []
    for r in rows:
        cells = [c.ljust(w) for c, w in zip(r, widths)] + [r[-1]]
        out.append((indent + "  ".join(cells)).rstrip())
    return out


def to_text(topo):
    """The text report: Basic Paths, populations, implications, topology."""
    s = topo.settings
    out = []
    if s.get("source") == "samples":
        out.append("%s: %d populations, %d runs, %d events; threshold %g (%s), min count %g, "
                   "%s intersection" % (PROG, len(topo.populations), sum(topo.runs.values()),
                                        s["events"], s["threshold"],
                                        "|r|" if s["absolute"] else "r", s["min_count"],
                                        s["intersection"]))
    else:
        out.append("%s: %d populations, Basic Paths from a table" % (PROG, len(topo.populations)))
    out += ["", "Basic Paths"]
    out += _table([("name", "events")] + [(n, ", ".join(ev) if ev else "-") for n, ev in topo.basic_paths])
    out += ["", "Populations"]
    if topo.runs:
        rows = [("population", "runs", "MAG edges", "basic paths")]
        rows += [(p, str(topo.runs[p]), str(topo.mags[p].number_of_edges()),
                  ", ".join(topo.appears[p]) or "-") for p in topo.populations]
    else:
        rows = [("population", "basic paths")] + [(p, ", ".join(topo.appears[p]) or "-")
                                                  for p in topo.populations]
    out += _table(rows)
    if topo.intersection is not None:
        out += ["", "Intersection of the MAGs: %d events, %d edges"
                % (topo.intersection.number_of_nodes(), topo.intersection.number_of_edges())]
    out += ["", "Implications (BP_i -> BP_j: BP_i always appears with BP_j, BP_j also without "
            "BP_i): %d" % len(topo.implications)]
    out += ["  %s -> %s" % e for e in topo.implications]
    out += ["", "Topology (transitive reduction): %d edges" % len(topo.edges)]
    out += ["  %s -> %s" % e for e in topo.edges]
    isolated = [n for n, _ in topo.basic_paths if n not in topo.absent
                and not any(n in e for e in topo.edges)]
    if isolated:
        out.append("  unrelated: %s" % ", ".join(isolated))
    if topo.absent:
        out += ["", "Basic Paths in no population (not in the topology): %s" % ", ".join(topo.absent)]
    if topo.untriggered:
        out += ["", "Events triggered in no population: %s" % ", ".join(topo.untriggered)]
    if topo.unmatched_names:
        out += ["", "Named Basic Paths not found: %s" % ", ".join(topo.unmatched_names)]
    return "\n".join(out) + "\n"


def _umask():
    m = os.umask(0)
    os.umask(m)
    return m


def write_all(outputs):
    """Write {path: bytes} all or nothing (temporary files, then rename)."""
    tmps = []
    path = "output"
    try:
        for path, data in outputs.items():
            d = os.path.dirname(os.path.abspath(path))
            fd, tmp = tempfile.mkstemp(prefix=".jointer-topology-", dir=d)
            tmps.append((tmp, path))
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                os.fchmod(f.fileno(), 0o666 & ~_umask())   # mkstemp makes 0600: the mode open() would give
        for tmp, path in tmps:
            os.replace(tmp, path)
    except OSError as e:
        for tmp, _ in tmps:
            if os.path.exists(tmp):
                os.unlink(tmp)
        raise InputError(path, None, "cannot write: %s" % e.strerror) from None


# ---------------------------------------------------------------- command line

def _parser():
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Topology of a platform from hardware-event counter samples (after Cazanove et al.): "
                    "per population a Metric Affinity Graph, their intersection, maximal "
                    "cliques = Basic Paths, implications between Basic Paths, transitive reduction.",
        epilog="SAMPLES: FILE or POPULATION=FILE; a wide CSV (one row per run, one column per "
               "event, a population column), appended `jointer read --format csv` outputs, or "
               "`perf stat -x,` output. See doc/topology.md.")
    p.add_argument("samples", nargs="*", metavar="SAMPLES", help="[POPULATION=]FILE")
    p.add_argument("--populations", metavar="TSV",
                   help="a Basic-Path-per-population table instead of samples (Population<TAB>BP, BP)")
    p.add_argument("--basic-paths", metavar="TSV",
                   help="names of Basic Paths (Name<TAB>EVENT, EVENT): name the cliques found")
    p.add_argument("--threshold", type=float, default=0.9,
                   help="MAG edge when the correlation is >= this (0 < t <= 1, default 0.9)")
    p.add_argument("--absolute", action="store_true", help="compare |r| (negative correlations too)")
    p.add_argument("--min-count", type=float, default=0.0,
                   help="an event is triggered in a population when its mean is > this (default 0)")
    p.add_argument("--intersection", choices=("shared", "strict"), default="shared",
                   help="shared: an edge stays when every MAG holding both events has it "
                        "(default); strict: every MAG must have it")
    p.add_argument("--population-column", default="population", metavar="NAME",
                   help="the population column of a wide CSV (default 'population')")
    p.add_argument("--ignore-column", action="append", default=[], metavar="NAME",
                   help="a wide CSV column that is no event (repeatable), e.g. time_ms")
    p.add_argument("--dot", metavar="FILE", help="write the topology as DOT")
    p.add_argument("--svg", metavar="FILE", help="write it as SVG (Graphviz dot)")
    p.add_argument("--png", metavar="FILE", help="write it as PNG (Graphviz dot)")
    p.add_argument("--table", metavar="FILE", help="write the text report there, not to stdout")
    return p


def _split_sample_arg(arg):
    pop, sep, path = arg.partition("=")
    if sep and pop and not os.path.exists(arg):
        return pop, path
    return None, arg


def main(argv=None):
    parser = _parser()
    a = parser.parse_args(argv)
    if not 0 < a.threshold <= 1:
        parser.error("--threshold must be in (0, 1], got %g" % a.threshold)
    if a.populations and a.samples:
        parser.error("give counter samples or --populations, not both")
    if not a.populations and not a.samples:
        parser.error("no input: give counter samples ([POPULATION=]FILE ...) or --populations TSV")
    try:
        names = read_basic_path_names(a.basic_paths) if a.basic_paths else None
        if a.populations:
            topo = topology_from_table(read_population_table(a.populations, names), names)
        else:
            runs = []
            for arg in a.samples:
                pop, path = _split_sample_arg(arg)
                runs += read_samples(path, pop, a.population_column, a.ignore_column)
            topo = topology_from_samples(collect(runs), a.threshold, a.min_count, a.absolute,
                                         a.intersection, names)
        text = to_text(topo)
        dot = to_dot(topo)
        outputs = {}
        if a.dot:
            outputs[a.dot] = dot.encode()
        if a.svg:
            outputs[a.svg] = render(dot, "svg")
        if a.png:
            outputs[a.png] = render(dot, "png")
        if a.table:
            outputs[a.table] = text.encode()
        write_all(outputs)
    except InputError as e:
        print("%s: error: %s" % (PROG, e), file=sys.stderr)
        return 1
    if not a.table:
        sys.stdout.write(text)
    return 0
