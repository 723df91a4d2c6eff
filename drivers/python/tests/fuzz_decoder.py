# SPDX-License-Identifier: MIT
"""atheris fuzz target of the Python trace-file decoder: any bytes, as a
trace file, through jointer.read_trace_file and jointer.export.convert (VCD
and Perfetto). Each input either decodes (records equal to the file's bytes
for a raw file; the conversions succeed) or raises one JointerError whose
message starts with the file name and is one line. Anything else (another
exception, a crash of the C reader) is a finding.

    python3 fuzz_decoder.py [atheris/libFuzzer options] [CORPUS_DIR...]
    (e.g. -runs=3000 -seed=1; test_fuzz_decoder.py runs it as a smoke)

The library under test is the checkout's (JOINTER_LIB, PYTHONPATH as the
package tests set them).
"""
import os
import sys
import tempfile

import atheris

with atheris.instrument_imports():
    import jointer
    from jointer import export

DIR = tempfile.mkdtemp(prefix="jt_fuzz_")
PATH = os.path.join(DIR, "in.jtr")
OUT = os.path.join(DIR, "out")


def one(data):
    with open(PATH, "wb") as f:
        f.write(data)
    try:
        h, rec = jointer.read_trace_file(PATH)
    except jointer.JointerError as e:
        msg = str(e)
        if not msg.startswith(PATH + ": ") or "\n" in msg:
            raise AssertionError("bad error message: %r" % msg) from None
        return
    if h["encoding"] == 0:
        d = h["data_offset"]                  # after the header (and its timeline block, version 2)
        n = (len(data) - d) // 8
        if len(rec) != n or rec.tobytes() != data[d:d + 8 * n]:
            raise AssertionError("raw records differ from the file's bytes")
    for fmt in ("vcd", "perfetto"):
        export.convert([PATH], fmt, OUT + "." + fmt)      # a decoded file converts


def main(argv):
    atheris.Setup(argv, one)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
