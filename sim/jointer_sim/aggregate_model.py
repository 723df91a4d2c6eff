# SPDX-License-Identifier: MIT
"""Reference models of the DCAPF aggregators (see model.py for the timing
convention): Aggregator (sum, max, min, last), histogram_boundaries,
histogram_buckets, HistogramModel, MeanModel. model.py builds on them and
re-exports them (its public API is unchanged): import them from there."""

from __future__ import annotations

MASK64 = (1 << 64) - 1
AGGREGATORS = ("sum", "max", "min", "last")


def _bit(v) -> bool:
    return bool(int(v))


class Aggregator:
    """jointer_dcapf_aggregate (sum = jointer_dcapf_counter) on 64-bit samples.

    step(valid, value, clear) is one cycle; result/overflow/caught afterwards
    are the registered outputs of the next cycle.
    """

    def __init__(self, aggregator: str = "sum", width: int = 32, wrap: bool = False):
        if aggregator not in AGGREGATORS:
            raise ValueError(f"aggregator must be one of {AGGREGATORS}")
        if not 1 <= width <= 64:
            raise ValueError("width must be 1..64")
        self.aggregator, self.width, self.wrap = aggregator, width, bool(wrap)
        self.max_value = (1 << width) - 1
        self.reset()

    def reset(self) -> None:
        self.result = self.max_value if self.aggregator == "min" else 0
        self.overflow = False
        self.caught = False

    def step(self, valid, value: int, clear) -> None:
        if _bit(clear):
            self.reset()
            return
        if not _bit(valid):
            return
        value &= MASK64
        self.caught = True
        m = self.max_value
        if self.aggregator == "sum":
            total = self.result + value
            if total > m:
                self.overflow = True
                total = total & m if self.wrap else m
            self.result = total
            return
        if value > m:
            self.overflow = True
            value = m
        if self.aggregator == "max":
            self.result = max(self.result, value)
        elif self.aggregator == "min":
            self.result = min(self.result, value)
        else:
            self.result = value

def histogram_boundaries(buckets: int, boundaries) -> list[int]:
    """b(1)..b(N-1) of a histogram: "pow2" -> 2^(k-1), or the listed ones."""
    if not 2 <= buckets <= 64:
        raise ValueError("buckets must be 2..64")
    if boundaries == "pow2":
        return [1 << (k - 1) for k in range(1, buckets)]
    b = [int(x) for x in boundaries]
    if len(b) != buckets - 1 or any(x < 1 for x in b) or any(y <= x for x, y in zip(b, b[1:])):
        raise ValueError("listed boundaries: buckets - 1 strictly increasing positive values")
    return b


def histogram_buckets(buckets: int, boundaries) -> list[tuple[int, int]]:
    """[(low, high)] per bucket, inclusive low, exclusive high (2^64 for the last)."""
    b = histogram_boundaries(buckets, boundaries)
    edges = [0] + b + [1 << 64]
    return [(edges[k], edges[k + 1]) for k in range(buckets)]


class HistogramModel:
    """jointer_dcapf_histogram: one counter per bucket (see its header).

    step(valid, value, clear) is one cycle; counts/overflow/caught afterwards
    are the registered outputs of the next cycle.
    """

    def __init__(self, buckets: int = 8, width: int = 32, boundaries="pow2", wrap: bool = False):
        if not 1 <= width <= 64:
            raise ValueError("width must be 1..64")
        self.bounds = histogram_boundaries(buckets, boundaries)
        self.buckets, self.width, self.wrap = buckets, width, bool(wrap)
        self.max_value = (1 << width) - 1
        self.reset()

    def reset(self) -> None:
        self.counts = [0] * self.buckets
        self.overflow = False
        self.caught = False

    def bucket_of(self, value: int) -> int:
        return sum(1 for b in self.bounds if value & MASK64 >= b)

    def step(self, valid, value: int, clear) -> None:
        if _bit(clear):
            self.reset()
            return
        if not _bit(valid):
            return
        self.caught = True
        k = self.bucket_of(value)
        if self.counts[k] == self.max_value:
            self.overflow = True
            if self.wrap:
                self.counts[k] = 0
            return
        self.counts[k] += 1

    def packed(self) -> int:
        return sum(c << (k * self.width) for k, c in enumerate(self.counts))

    result = property(packed)


class MeanModel:
    """The mean aggregator of jointer_dcapf (aggregator_mean_c): a sum and a
    count counter of `width` bits (each as jointer_dcapf_counter); result =
    sum | count << width; overflow: either; caught: a sample since the clear."""

    def __init__(self, width: int = 32, wrap: bool = False):
        self.width = width
        self.sum = Aggregator("sum", width, wrap)
        self.count = Aggregator("sum", width, wrap)

    def reset(self) -> None:
        self.sum.reset()
        self.count.reset()

    def step(self, valid, value: int, clear) -> None:
        self.sum.step(valid, value, clear)
        self.count.step(valid, 1, clear)

    result = property(lambda self: self.sum.result | self.count.result << self.width)
    overflow = property(lambda self: self.sum.overflow or self.count.overflow)
    caught = property(lambda self: self.sum.caught)
