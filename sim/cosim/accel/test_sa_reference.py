# SPDX-License-Identifier: MIT
"""The demo's C reference (sim/cosim/apps/sa_reference.c) predicts exactly what
sa_model.py predicts - and sa_model.py is checked against the RTL by
test_sa_accel.py - for random data sets of every length class."""
import ctypes
import random
import subprocess
from pathlib import Path

import pytest

import sa_model

HERE = Path(__file__).resolve().parent
APP = HERE.parent / "apps"
BUILD = HERE.parents[2] / "build" / "sim" / "sa_reference"


class Prediction(ctypes.Structure):
    _fields_ = [("results", (ctypes.c_int32 * 64) * 3), ("num_results", ctypes.c_uint32 * 3),
                ("bytes_written", ctypes.c_uint64), ("compute_cycles", ctypes.c_uint64),
                ("forward_fires", ctypes.c_uint64), ("mac_fires", ctypes.c_uint64)]


@pytest.fixture(scope="module")
def ref():
    BUILD.mkdir(parents=True, exist_ok=True)
    lib = BUILD / "libsa_reference.so"
    subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O2",
                    "-fPIC", "-shared", str(APP / "sa_reference.c"), "-o", str(lib)], check=True)
    return ctypes.CDLL(str(lib))


@pytest.mark.parametrize("seed", range(40))
def test_c_reference_matches_model(ref, seed):
    rng = random.Random(seed)
    n = rng.choice([0, 1, 15, 16, 17, 255, 256, 257, 511, 512, 777, 1024, 1100])
    lo, hi = rng.choice([(-20, 20), (-2**31, 2**31 - 1), (4, 6)])
    inputs = [rng.randint(lo, hi) for _ in range(n)]
    p = Prediction()
    arr = (ctypes.c_int32 * max(n, 1))(*inputs)
    ref.sa_predict(arr, n, ctypes.byref(p))
    want = sa_model.run(inputs)
    assert p.bytes_written == want["bytes_written"]
    assert p.compute_cycles == want["cycles"]
    assert p.forward_fires == want["forward_fires"]
    assert p.mac_fires == want["mac_fires"]
    for k in range(3):
        assert list(p.results[k][:p.num_results[k]]) == want["results"][k]
