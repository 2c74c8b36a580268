"""Decision times as counts in log-spaced buckets, 8 a decade, so the times of many games and
seats merge exactly and percentiles come out within a bucket (about +-15%). Light (no numpy):
every seat counts its decisions here."""

from __future__ import annotations

import bisect
import functools
from collections import Counter

TIME_BUCKETS_PER_DECADE = 8
#: Bucket k starts at 10^(k/8) ms; every time below 10^(-47/8) ms falls in the first bucket.
_FIRST_BUCKET = -6 * TIME_BUCKETS_PER_DECADE
_BUCKET_STARTS = tuple(10 ** (k / TIME_BUCKETS_PER_DECADE) for k in range(_FIRST_BUCKET + 1, 80))
#: The number of bucket starts at or below a time: its bucket less _FIRST_BUCKET. A C call,
#: no Python frame: every decision of a tourney is counted.
_starts_below = functools.partial(bisect.bisect_right, _BUCKET_STARTS)


def time_bucket(ms: float) -> int:
    """Bucket k holds the times in [10^(k/8), 10^((k+1)/8)) milliseconds."""
    return _FIRST_BUCKET + _starts_below(ms)


def time_histogram(times_ms) -> dict[int, int]:
    """Counts per bucket of some decision times (ms)."""
    counts = Counter(map(_starts_below, times_ms))
    return {_FIRST_BUCKET + starts: n for starts, n in counts.items()}


def histogram_percentile(counts: dict[int, int], q: float) -> float:
    """The q-th percentile of the times behind a bucket histogram: the geometric middle of the
    bucket that holds it."""
    rank = q / 100 * sum(counts.values())
    running = 0
    for k in sorted(counts):
        running += counts[k]
        if running >= rank:
            return 10 ** ((k + 0.5) / TIME_BUCKETS_PER_DECADE)
    raise ValueError("an empty histogram has no percentiles")
