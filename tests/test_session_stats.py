"""Mean session delay and its batch-means interval (wlansim.session_stats)."""

import math

import pytest
from scipy import stats

from wlansim.session_stats import session_delay_summary


def rows(delays, sizes=None):
    sizes = sizes or [1000] * len(delays)
    return [
        {"start_s": float(i), "delay_s": d, "bytes": b, "setup_s": 0.01}
        for i, (d, b) in enumerate(zip(delays, sizes))
    ]


def test_batch_means_interval_by_hand():
    # 20 sessions in start order, 10 batches of 2: batch means 1, 2, ..., 10.
    delays = [v for k in range(1, 11) for v in (k - 0.5, k + 0.5)]
    out = session_delay_summary(rows(delays), [("f-0", 3)])
    assert out["session_delay_mean_s"] == pytest.approx(5.5)
    sd = math.sqrt(sum((k - 5.5) ** 2 for k in range(1, 11)) / 9)
    assert out["session_delay_ci95_s"] == pytest.approx(stats.t.ppf(0.975, 9) * sd / math.sqrt(10))
    assert out["sessions"] == 20 and out["sessions_unfinished"] == 3
    assert out["session_setup_mean_s"] == pytest.approx(0.01)


def test_size_classes_and_empty():
    out = session_delay_summary(
        rows([1.0, 3.0, 10.0], [5_000, 50_000, 500_000]), mice_bytes=100_000
    )
    assert out["session_delay_mice_s"] == pytest.approx(2.0)
    assert out["session_delay_elephants_s"] == pytest.approx(10.0)
    assert math.isnan(out["session_delay_ci95_s"])
    empty = session_delay_summary([], [("f-0", 1)])
    assert empty == {"sessions": 0.0, "sessions_unfinished": 1.0}
