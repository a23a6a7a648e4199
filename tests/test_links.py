"""The α-β model of a link (day 8): latency and bandwidth fitted with each size weighted by its
relative error, checked on synthetic data of known latency and bandwidth (the fit in words:
tests/test_day08.py)."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import links as L
from helpers.stats import fit_affine

SIZES = np.array([32, 256, 2048, 16384, 131072, 2**20, 2**23, 2**26], dtype=float)  # day 8's
LATENCY, BANDWIDTH = 100e-6, 1e9  # 100 µs, 1 GB/s


def _times(noise: float, seed: int) -> np.ndarray:
    """Times of the known link, each multiplied by a random factor of about ``1 ± noise``."""
    rng = np.random.default_rng(seed)
    return (LATENCY + SIZES / BANDWIDTH) * np.exp(rng.normal(0, noise, len(SIZES)))


def test_exact_times_give_back_the_latency_and_bandwidth():
    fit = L.fit_alpha_beta(SIZES, _times(0.0, 0))
    assert fit.latency.value == pytest.approx(LATENCY, rel=1e-6)
    assert fit.bandwidth.value == pytest.approx(BANDWIDTH, rel=1e-6)
    assert fit.relative_error == pytest.approx(0, abs=1e-6)
    assert fit.smallest == (32.0, pytest.approx(LATENCY + 32 / BANDWIDTH))


def test_noisy_times_give_a_latency_whose_interval_is_readable_where_a_plain_line_s_is_not():
    times = _times(0.10, seed=3)
    fit = L.fit_alpha_beta(SIZES, times)
    assert 0 < fit.latency.low < LATENCY < fit.latency.high < 3 * LATENCY
    assert fit.bandwidth.low < BANDWIDTH < fit.bandwidth.high
    plain = fit_affine(SIZES, times)  # every size counts by its error in seconds
    assert plain.a.low < 0  # the large messages' noise swamps the latency: a negative bound
    assert plain.a.high - plain.a.low > 20 * (fit.latency.high - fit.latency.low)


@pytest.mark.parametrize("noise", [0.05, 0.3])
def test_the_intervals_cover_the_true_values_about_95_times_in_100(noise):
    covered = {"latency": 0, "bandwidth": 0}
    draws = 200
    for seed in range(draws):
        fit = L.fit_alpha_beta(SIZES, _times(noise, seed))
        assert fit.latency.low > 0 and fit.bandwidth.low > 0  # never a nonsense bound
        covered["latency"] += fit.latency.low < LATENCY < fit.latency.high
        covered["bandwidth"] += fit.bandwidth.low < BANDWIDTH < fit.bandwidth.high
    for what, hits in covered.items():
        assert 0.88 * draws <= hits <= 0.99 * draws, what  # 95 % intervals, about (8 points)


def test_times_that_do_not_grow_with_the_size_give_a_latency_and_no_bandwidth():
    fit = L.fit_alpha_beta(SIZES[:4], [2.0e-3, 1.9e-3, 2.1e-3, 1.8e-3])
    assert fit.bandwidth is None
    assert fit.latency.low < 1.95e-3 < fit.latency.high


@pytest.mark.parametrize(
    ("sizes", "times", "match"),
    [
        ([1, 2], [1.0, 2.0], "at least 3 points"),
        ([1, 1, 1], [1.0, 2.0, 3.0], "2 different sizes"),
        ([1, 2, 3], [1.0, 0.0, 3.0], "positive"),
        ([1, 2, 3], [1.0, 2.0], "one time per size"),
    ],
)
def test_bad_measurements_are_refused(sizes, times, match):
    with pytest.raises(ValueError, match=match):
        L.fit_alpha_beta(sizes, times)


def test_allreduce_estimate_grows_with_latency_steps():
    assert L.allreduce_seconds(0, 4, bandwidth=1e9, latency=1e-5) == pytest.approx(6e-5)
    assert L.allreduce_seconds(1e9, 2, bandwidth=1e9) == pytest.approx(1.0)


def test_network_cards_per_machine_are_a_knob_of_the_two_machine_estimate():
    # 2 GB of bf16 gradients, 16 GPUs on 2 machines: over one 50 GB/s card per machine 75 ms;
    # with a card per GPU (8 per machine, NCCL's rings side by side) 8 times less
    import math

    from helpers.config import FAST, FULL

    assert L.allreduce_seconds(2e9, 16, 50e9) * 1e3 == pytest.approx(75.0)
    assert L.allreduce_seconds(2e9, 16, 50e9, parallel=8) * 1e3 == pytest.approx(9.375)
    assert FULL.day08_nics_per_machine == FAST.day08_nics_per_machine == 8
    cases = {"one machine": (2e9, 8, 1), "two machines": (2e9, 16, 2)}
    table = L.allreduce_estimates(cases, nics_per_machine=8)
    assert table.loc["InfiniBand NDR (400 Gb/s)", "two machines"] == pytest.approx(9.375)
    assert table.loc["InfiniBand NDR (400 Gb/s)", "one machine"] == pytest.approx(70.0)
    assert math.isnan(table.loc["NVLink 4 (H100 SXM)", "two machines"])  # stays in its server
    one_card = L.allreduce_estimates(cases, nics_per_machine=1)
    assert one_card.loc["InfiniBand NDR (400 Gb/s)", "two machines"] == pytest.approx(75.0)
    with pytest.raises(ValueError, match="at least one link"):
        L.allreduce_seconds(2e9, 16, 50e9, parallel=0)
