"""Bias-variance Monte Carlo: ``assay.bias_variance`` against a numpy loop and mlxtend.

The experiment (Wu, "Evaluation", section 4.3, Figure 5, at benchmark size): polynomial
regression of degree 15 on eq. 4, ``y = 3(x - 0.2)^2 - 7(x - 0.2) + 4.2 + e``,
``e ~ N(0, 1)``, ``x ~ U(-3, 3)``; ``ROUNDS`` = 1000 training sets of ``N_TRAIN`` = 100
points; ``N_TEST`` = 1000 test points ``numpy.linspace(-3, 3, 1000)``.

Goals, judged by ``benchmarks/report.py`` (``bias_variance_tables``):

* (a) at least ``POLYFIT_GOAL`` = 50x faster than the same experiment written as a
  Python loop over ``numpy.polyfit`` / ``numpy.polyval`` (numpy's Generator draws each
  training set), the prediction matrix then split by the same ``assay.decompose``
  call; assay's side is one ``assay.bias_variance(PolynomialRegression(15),
  PolynomialExample(), x_test, n_rounds=1000, n_train=100)`` call, decomposition
  included.
* (b) at least ``MLXTEND_GOAL`` = 20x faster than mlxtend's
  ``bias_variance_decomp(make_pipeline(PolynomialFeatures(15), LinearRegression()),
  X_train, y_train, X_test, y_test, loss='mse', num_rounds=1000)``: mlxtend bootstraps
  ONE training set (``X_train``: 100 rows of eq. 4) and scores against noisy test
  labels (``X_test``: the 1000 grid points, ``y_test`` = F(x) + N(0, 1)).  assay runs
  the same bootstrap experiment: ``assay.bias_variance(PolynomialRegression(15), None,
  X_test, X_train=X_train, y_train=y_train, n_train=None, y_test=y_test,
  n_rounds=1000)`` (the documented fallback; bias measured against ``y_test``, as
  mlxtend does).

``ASSAY_BENCH_BV_ROUNDS`` (default 1000) changes the number of rounds for a quick run;
goals are judged at 1000 rounds only.  Protocol as in ``conftest.py``: an untimed call
with 10 rounds (compilation), an untimed checked call at full size, then timed rounds.
Checks (a wrong answer is never timed): degree 15's variance is heavy-tailed at the
ends of the range (one training set without points near an end extrapolates wildly),
so averages over all points of two Monte Carlo runs need not agree.  (a) checks that
the polyfit loop's and assay's mean models agree on ``|x| <= 1.5`` (within
``MEAN_TOLERANCE``) and that eq. 28 adds up; (b) checks that mlxtend's and assay's
bootstrap numbers agree within ``AGREEMENT`` for degree 2 (stable), and that both add
up at degree 15.
"""

from __future__ import annotations

import math
import os
import warnings
from typing import Any

import numpy as np
import pytest

import assay
from assay.protocols import PolynomialExample, PolynomialRegression, decompose, polynomial_truth
from conftest import time_checked_call

SUITE = "bias_variance"
ROUNDS = int(float(os.environ.get("ASSAY_BENCH_BV_ROUNDS", "1000")))
GOAL_ROUNDS = 1000
N_TRAIN = 100
N_TEST = 1000
DEGREE = 15
SEED = 20261126
POLYFIT_GOAL = 50.0
MLXTEND_GOAL = 20.0
AGREEMENT = 1.2  # two Monte Carlo runs of degree 2 agree within this factor
MEAN_TOLERANCE = 1.0  # mean models on |x| <= 1.5: about 10 standard errors at 50 rounds
INTERIOR = np.abs(np.linspace(-3.0, 3.0, 1000)) <= 1.5

X_TEST = np.linspace(-3.0, 3.0, N_TEST)
TRUTH = polynomial_truth(X_TEST)


def polyfit_loop(n_rounds: int, degree: int = DEGREE) -> Any:
    """The experiment as a user writes it with numpy: fit, predict, then decompose."""
    generator = np.random.default_rng(SEED)
    predictions = np.empty((n_rounds, N_TEST))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.RankWarning)
        for r in range(n_rounds):
            x = generator.uniform(-3.0, 3.0, N_TRAIN)
            y = polynomial_truth(x) + generator.standard_normal(N_TRAIN)
            predictions[r] = np.polyval(np.polyfit(x, y, degree), X_TEST)
    return decompose(predictions, None, truth=TRUTH, noise_variance=1.0)


def assay_monte_carlo(n_rounds: int) -> Any:
    return assay.bias_variance(
        PolynomialRegression(DEGREE), PolynomialExample(), X_TEST, n_rounds=n_rounds,
        n_train=N_TRAIN, rng=SEED,
    )  # fmt: skip


def one_training_set() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(X_train (100, 1), y_train, y_test): eq. 4, fixed seed."""
    generator = np.random.default_rng(SEED + 1)
    x = generator.uniform(-3.0, 3.0, N_TRAIN)
    y = polynomial_truth(x) + generator.standard_normal(N_TRAIN)
    y_test = TRUTH + generator.standard_normal(N_TEST)
    return x[:, None], y, y_test


def mlxtend_bootstrap(n_rounds: int, degree: int = DEGREE) -> tuple[float, float, float]:
    from mlxtend.evaluate import bias_variance_decomp
    from sklearn.linear_model import LinearRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import PolynomialFeatures

    x_train, y_train, y_test = one_training_set()
    model = make_pipeline(PolynomialFeatures(degree), LinearRegression())
    loss, bias, variance = bias_variance_decomp(
        model, x_train, y_train, X_TEST[:, None], y_test, loss="mse", num_rounds=n_rounds,
        random_seed=SEED,
    )  # fmt: skip
    return float(loss), float(bias), float(variance)


def assay_bootstrap(n_rounds: int, degree: int = DEGREE) -> tuple[float, float, float]:
    x_train, y_train, y_test = one_training_set()
    result = assay.bias_variance(
        PolynomialRegression(degree), None, X_TEST, X_train=x_train, y_train=y_train,
        n_train=None, y_test=y_test, n_rounds=n_rounds, rng=SEED,
    )  # fmt: skip
    return result.average_expected_loss, result.average_bias, result.average_variance


def _agree(first: float, second: float) -> bool:
    return first / AGREEMENT <= second <= first * AGREEMENT


def _time(benchmark: Any, *, info: dict[str, Any], **protocol: Any) -> Any:
    """conftest's protocol (warm-up on 10 rounds, untimed full call, timed rounds)."""
    settings = {"n_rounds": ROUNDS, "n_train": N_TRAIN, "n_test": N_TEST, "degree": DEGREE,
                "goal_rounds": GOAL_ROUNDS}  # fmt: skip
    return time_checked_call(benchmark, info={"suite": SUITE, **info, **settings}, **protocol)


@pytest.mark.parametrize("implementation", ["numpy.polyfit loop", "assay"])
def test_monte_carlo_against_polyfit_loop(benchmark, implementation):
    """(a) independent training sets: compiled against a numpy.polyfit loop."""
    info = {"case": "monte-carlo-vs-polyfit", "implementation": implementation,
            "goal": POLYFIT_GOAL}  # fmt: skip
    function = assay_monte_carlo if implementation == "assay" else polyfit_loop
    result = _time(
        benchmark, group=f"bias-variance Monte Carlo, degree 15 [rounds={ROUNDS}]", info=info,
        call=lambda: function(ROUNDS), warmup=lambda: function(10),
    )  # fmt: skip
    other = polyfit_loop(ROUNDS) if implementation == "assay" else assay_monte_carlo(ROUNDS)
    difference = result.main_prediction[INTERIOR] - other.main_prediction[INTERIOR]
    assert np.abs(difference).max() <= MEAN_TOLERANCE
    assert math.isclose(
        result.average_expected_loss,
        result.average_bias + result.average_variance + 1.0,
        rel_tol=1e-12,
    )


@pytest.mark.parametrize("implementation", ["mlxtend", "assay"])
def test_bootstrap_against_mlxtend(benchmark, implementation):
    """(b) bootstrap replicates of one training set: compiled against mlxtend."""
    pytest.importorskip("mlxtend")
    info = {"case": "bootstrap-vs-mlxtend", "implementation": implementation,
            "goal": MLXTEND_GOAL}  # fmt: skip
    function = assay_bootstrap if implementation == "assay" else mlxtend_bootstrap
    result = _time(
        benchmark, group=f"bias-variance bootstrap, degree 15 [rounds={ROUNDS}]", info=info,
        call=lambda: function(ROUNDS), warmup=lambda: function(10),
    )  # fmt: skip
    loss, bias, variance = result
    assert math.isclose(loss, bias + variance, rel_tol=1e-9)
    for mine, theirs in zip(assay_bootstrap(200, 2), mlxtend_bootstrap(200, 2), strict=True):
        assert _agree(mine, theirs)
