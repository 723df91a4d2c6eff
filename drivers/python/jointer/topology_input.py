# SPDX-License-Identifier: MIT
"""Input of jointer-topology (topology.py): counter samples (wide CSV,
appended `jointer read --format csv`, `perf stat -x,`) into runs per
population, and the paper's tables of Basic Paths per population; every
problem an InputError naming file:line."""

import csv
import math
from dataclasses import dataclass

PROG = "jointer-topology"
JOINTER_HEADER = ["lmic", "sniffer", "metric", "width", "value"]
MIN_RUNS = 3


class InputError(Exception):
    """Bad input: where (file, line) and what is wrong."""

    def __init__(self, path, line, msg):
        super().__init__(msg)
        self.path, self.line, self.msg = path, line, msg

    def __str__(self):
        where = self.path if self.line is None else "%s:%d" % (self.path, self.line)
        return "%s: %s" % (where, self.msg)


@dataclass
class Run:
    """One run: its population, its values per event, where it starts."""
    population: str
    values: dict
    path: str
    line: int


# ---------------------------------------------------------------- input: samples

def _number(text, path, line, what):
    t = text.strip()
    try:
        v = float(t)
    except ValueError:
        raise InputError(path, line, "%s: %r is not a number" % (what, text)) from None
    if not math.isfinite(v):
        raise InputError(path, line, "%s: %r is not a finite number" % (what, text))
    return v


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _lines(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(path, None, "cannot read: %s" % (e.strerror if isinstance(e, OSError) else e)) from None


def _population_comment(text):
    """'# population: NAME' -> NAME, else None."""
    body = text.lstrip("#").strip()
    key, sep, val = body.partition(":")
    if sep and key.strip().lower() == "population":
        return val.strip()
    return None


def _looks_perf(fields):
    if len(fields) < 5:
        return False
    v = fields[0].strip()
    if v in ("<not counted>", "<not supported>"):
        return True
    try:
        float(v)
        float(fields[3].rstrip("%"))   # run time, or perf stat -r's variance
    except ValueError:
        return False
    return fields[2].strip() != ""


def detect_format(path, lines):
    """'jointer', 'perf' or 'wide', from the first line that is not blank
    (a '# started on' comment also means perf)."""
    for text in lines:
        s = text.strip()
        if not s:
            continue
        if s.startswith("#"):
            if s.lstrip("#").strip().startswith("started on"):
                return "perf"
            continue
        fields = [x.strip() for x in s.split(",")]
        if fields == JOINTER_HEADER:
            return "jointer"
        if _looks_perf(fields):
            return "perf"
        return "wide"
    raise InputError(path, None, "no samples (the file is empty)")


def _read_wide(path, lines, population, pop_column, ignore):
    runs = []
    header = None
    pcol = None
    for n, row in enumerate(csv.reader(lines), 1):
        if not row or not "".join(row).strip() or row[0].lstrip().startswith("#"):
            continue
        row = [x.strip() for x in row]
        if header is None:
            header = row
            if any(_is_number(x) for x in header):
                raise InputError(path, n, "not a header (it has numbers): expected a CSV header "
                                 "(population and event names), `jointer read --format csv` "
                                 "output or `perf stat -x,` lines (without -I/-A/--per-*)")
            seen = set()
            for name in header:
                if name == "":
                    raise InputError(path, n, "empty column name in the header")
                if name in seen:
                    raise InputError(path, n, "column %r appears twice in the header" % name)
                seen.add(name)
            lower = [h.lower() for h in header]
            if pop_column.lower() in lower:
                pcol = lower.index(pop_column.lower())
                if population is not None:
                    raise InputError(path, n, "has a %r column and was also given as %s=%s: use one"
                                     % (header[pcol], population, path))
            elif population is None:
                raise InputError(path, n, "no %r column: add one, or give the file as POPULATION=%s"
                                 % (pop_column, path))
            events = [h for i, h in enumerate(header) if i != pcol and h not in ignore]
            if not events:
                raise InputError(path, n, "no event columns")
            continue
        if row == header:          # a header repeated by appended files
            continue
        if len(row) != len(header):
            raise InputError(path, n, "%d fields, the header has %d" % (len(row), len(header)))
        pop = population if pcol is None else row[pcol]
        if pop == "":
            raise InputError(path, n, "empty population")
        vals = {}
        for i, h in enumerate(header):
            if i == pcol or h in ignore:
                continue
            vals[h] = _number(row[i], path, n, "column %r" % h)
        runs.append(Run(pop, vals, path, n))
    if header is None:
        raise InputError(path, None, "no samples (the file is empty)")
    if not runs:
        raise InputError(path, None, "a header and no runs")
    return runs


def _read_blocks(path, lines, population, fmt):
    """jointer read --format csv (a header line starts a run) and perf stat -x,
    (a '# started on' comment, or an event seen again, starts a run)."""
    runs = []
    cur = None
    pop = population

    def close():
        if cur is not None and cur.values:
            runs.append(cur)

    for n, text in enumerate(lines, 1):
        s = text.strip()
        if not s:
            continue
        if s.startswith("#"):
            p = _population_comment(s)
            if p is not None:
                if p == "":
                    raise InputError(path, n, "empty population name")
                close()
                cur = None
                pop = p
            elif fmt == "perf" and s.lstrip("#").strip().startswith("started on"):
                close()
                cur = None
            continue
        f = [x.strip() for x in s.split(",")]
        if fmt == "jointer":
            if f == JOINTER_HEADER:
                close()
                cur = None
                continue
            if len(f) != 5:
                raise InputError(path, n, "%d fields, `jointer read --format csv` rows have 5 "
                                 "(lmic,sniffer,metric,width,value)" % len(f))
            event, raw = f[2], f[4]
            if not raw.isdigit():
                raise InputError(path, n, "value %r is not an unsigned integer" % raw)
            value = float(int(raw))
        else:
            if len(f) < 5:
                raise InputError(path, n, "%d fields, a `perf stat -x,` line has at least 5 "
                                 "(value,unit,event,run time,percent)" % len(f))
            raw, event = f[0], f[2]
            if raw in ("<not counted>", "<not supported>"):
                raise InputError(path, n, "event %r is %s: drop it from the perf command line "
                                 "or give it its own counter" % (event, raw))
            if f[3].endswith("%"):
                raise InputError(path, n, "a variance column (perf stat -r): record one run per "
                                 "`perf stat` instead")
            if event == "":
                raise InputError(path, n, "empty event name (perf stat -I/-A/--per-* output is "
                                 "not accepted: one line per event and run)")
            value = _number(raw, path, n, "counter value of %r" % event)
            _number(f[3], path, n, "run time of %r" % event)
        if event == "":
            raise InputError(path, n, "empty metric name")
        if cur is not None and event in cur.values:
            if fmt == "jointer":
                raise InputError(path, n, "metric %r twice in one `jointer read` output "
                                 "(run started at line %d)" % (event, cur.line))
            close()
            cur = None
        if cur is None:
            if pop is None:
                raise InputError(path, n, "no population: give the file as POPULATION=%s or put "
                                 "'# population: NAME' before its runs" % path)
            cur = Run(pop, {}, path, n)
        cur.values[event] = value
    close()
    if not runs:
        raise InputError(path, None, "no samples")
    return runs


def read_samples(path, population=None, pop_column="population", ignore=()):
    """The runs of one file, whatever its format (detect_format)."""
    lines = _lines(path)
    fmt = detect_format(path, lines)
    if fmt == "wide":
        return _read_wide(path, lines, population, pop_column, set(ignore))
    return _read_blocks(path, lines, population, fmt)


@dataclass
class Samples:
    """Runs of every file, checked: one event set, enough runs per population."""
    events: list
    populations: list
    rows: dict            # population -> list of value lists (events order)
    where: dict           # population -> (file, line) of its first run


def collect(runs, min_runs=MIN_RUNS):
    if not runs:
        raise InputError("<input>", None, "no runs")
    first = runs[0]
    events = list(first.values)
    ref = set(events)
    rows, where, pops = {}, {}, []
    for r in runs:
        got = set(r.values)
        if got != ref:
            missing = sorted(ref - got)
            extra = sorted(got - ref)
            msg = "the run has not the events of %s:%d" % (first.path, first.line)
            if missing:
                msg += "; missing: %s" % ", ".join(missing)
            if extra:
                msg += "; extra: %s" % ", ".join(extra)
            raise InputError(r.path, r.line, msg)
        if r.population not in rows:
            pops.append(r.population)
            rows[r.population] = []
            where[r.population] = (r.path, r.line)
        rows[r.population].append([r.values[e] for e in events])
    for p in pops:
        if len(rows[p]) < min_runs:
            raise InputError(where[p][0], where[p][1],
                             "population %r has %d run%s, a correlation needs at least %d"
                             % (p, len(rows[p]), "" if len(rows[p]) == 1 else "s", min_runs))
    return Samples(events, pops, rows, where)


# ---------------------------------------------------------------- input: tables

def _read_table(path, header_words):
    """NAME<TAB>item, item, ... lines; '#' comments and blank lines skipped,
    an optional header whose first cell is one of header_words."""
    out = []
    names = {}
    first = True
    for n, text in enumerate(_lines(path), 1):
        s = text.strip()
        if not s or s.startswith("#"):
            continue
        name, sep, rest = text.partition("\t")
        name = name.strip()
        if first and name.lower() in header_words:
            first = False
            continue
        first = False
        if not sep:
            raise InputError(path, n, "expected NAME<TAB>ITEM, ITEM, ... (no tab)")
        if name == "":
            raise InputError(path, n, "empty name")
        if name in names:
            raise InputError(path, n, "%r already defined at line %d" % (name, names[name]))
        items = [x.strip() for x in rest.split(",")]
        if any(x == "" for x in items):
            raise InputError(path, n, "empty item in %r" % rest.strip())
        if len(set(items)) != len(items):
            raise InputError(path, n, "an item appears twice in %r" % rest.strip())
        names[name] = n
        out.append((name, items, n))
    if not out:
        raise InputError(path, None, "no rows")
    return out


def read_basic_path_names(path):
    """The paper's 'Name / Event' table: [(name, [events]), ...]."""
    rows = _read_table(path, ("name",))
    seen = {}
    for name, events, n in rows:
        key = frozenset(events)
        if key in seen:
            raise InputError(path, n, "Basic Path %r has the events of %r" % (name, seen[key]))
        seen[key] = name
    return [(name, events) for name, events, _ in rows]


def read_population_table(path, names=None):
    """The paper's 'Population / Basic Paths' table: [(population, [bp])]."""
    rows = _read_table(path, ("population",))
    if names is not None:
        known = {n for n, _ in names}
        for pop, bps, n in rows:
            for b in bps:
                if b not in known:
                    raise InputError(path, n, "Basic Path %r of population %r is not in the "
                                     "Basic Path table (%s)" % (b, pop, ", ".join(sorted(known))))
    return [(pop, bps) for pop, bps, _ in rows]
