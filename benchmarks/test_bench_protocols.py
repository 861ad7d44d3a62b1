"""Cross-validation overhead: ``assay.protocols.cross_validate`` against scikit-learn's
``sklearn.model_selection.cross_validate``, same data, same folds, same trivial model.

Goal of the issue, judged by ``benchmarks/report.py`` (``protocols_tables``): "k-fold
splitting and scoring overhead per fold negligible next to the model's own fit time".

* The model is trivial (``fit`` does nothing, ``predict`` returns zeros), so the whole
  time of a call is the protocol's overhead: making the folds, taking the rows of X and
  y for training and testing, copying the model, predicting zeros and scoring accuracy.
  Overhead per fold = median time of a call / ``N_FOLDS``.
* Both libraries get ``cv=10``: unshuffled stratified 10-fold (identical folds, checked:
  the per-fold accuracies agree exactly), metric accuracy.
* Floor ("row copies"): taking the training and test rows of X and y for the same ten
  folds, made ahead, and nothing else: the part of the overhead that any protocol
  handing a model its own training matrix pays.
* Yardstick for "negligible": the fit time of a real model on one training fold, a
  scikit-learn ``LogisticRegression`` (lbfgs, default tolerance) on 90 % of the rows,
  measured once per size (median of ``FIT_REPEATS`` fits, untimed by pytest-benchmark)
  and recorded as ``reference_fit_seconds``.  The report states overhead / fit time.

Data: ``N_FEATURES`` standard-normal features, binary labels from a logistic model
(seed ``SEED``); sizes are those of ``ASSAY_BENCH_SIZES`` up to ``MAX_ROWS`` (the data
of 1e7 rows would take 400 MB per copy and says nothing new about a per-fold overhead).

Protocol (``conftest.py``'s): one untimed call on the first 1,000 rows, one checked
untimed call on the full data, then timed rounds; the median is reported.
"""

from __future__ import annotations

import functools
import time
import warnings
from typing import Any

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_validate as sklearn_cross_validate

from assay import DegenerateDataWarning
from assay.protocols import StratifiedKFold, cross_validate
from conftest import SIZES, WARMUP_ROWS, format_size, rounds_for

SUITE = "protocols"
N_FOLDS = 10
N_FEATURES = 4
SEED = 20240614
MAX_ROWS = 1_000_000
FIT_REPEATS = 3
# "negligible": the overhead of a fold is at most this share of the model's fit time
NEGLIGIBLE_SHARE = 0.05
_CLASSES = np.array([0, 1])
PROTOCOL_SIZES = [n for n in SIZES if n <= MAX_ROWS] or [min(SIZES)]


class TrivialClassifier(ClassifierMixin, BaseEstimator):
    """Fits nothing and predicts class 0: the protocol's time is all that is left."""

    def fit(self, X: Any, y: Any) -> TrivialClassifier:
        self.classes_ = _CLASSES  # a constant: scikit-learn's scorers look for it
        return self

    def predict(self, X: Any) -> np.ndarray:
        return np.zeros(X.shape[0], dtype=np.int64)


@functools.cache
def classification_data(n_rows: int) -> tuple[np.ndarray, np.ndarray]:
    generator = np.random.default_rng(SEED)
    X = generator.normal(size=(n_rows, N_FEATURES))
    logits = X @ np.linspace(1.0, -0.5, N_FEATURES)
    y = (generator.random(n_rows) < 1.0 / (1.0 + np.exp(-logits))).astype(np.int64)
    return X, y


@functools.cache
def reference_fit_seconds(n_rows: int) -> float:
    """Median time of a LogisticRegression fit on one training fold (90 % of the rows)."""
    X, y = classification_data(n_rows)
    rows = n_rows - n_rows // N_FOLDS
    times = []
    for _ in range(FIT_REPEATS):
        start = time.perf_counter()
        LogisticRegression().fit(X[:rows], y[:rows])
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def _assay_call(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    with warnings.catch_warnings():
        # stratified folds give the constant model the same accuracy on every fold
        warnings.simplefilter("ignore", DegenerateDataWarning)
        result = cross_validate(TrivialClassifier(), X, y, cv=N_FOLDS, metrics="accuracy_score")
    return result.scores["accuracy_score"]


@functools.cache
def _folds(n_rows: int) -> list[tuple[np.ndarray, np.ndarray]]:
    X, y = classification_data(n_rows)
    return list(StratifiedKFold(N_FOLDS).split(X, y))


def _row_copies_call(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The floor: only take the training and test rows of every fold (folds made ahead)."""
    taken = 0
    for train, test in _folds(X.shape[0]):
        taken += X[train].shape[0] + y[train].shape[0] + X[test].shape[0] + y[test].shape[0]
    return np.array([taken])


def _sklearn_call(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    result = sklearn_cross_validate(TrivialClassifier(), X, y, cv=N_FOLDS, scoring="accuracy")
    return result["test_score"]


@pytest.mark.parametrize("implementation", ["scikit-learn", "assay", "row copies"])
@pytest.mark.parametrize(
    "n_rows", PROTOCOL_SIZES, ids=[f"n={format_size(n)}" for n in PROTOCOL_SIZES]
)
def test_cross_validate_overhead(benchmark: Any, n_rows: int, implementation: str) -> None:
    X, y = classification_data(n_rows)
    function = {
        "assay": _assay_call,
        "scikit-learn": _sklearn_call,
        "row copies": _row_copies_call,
    }[implementation]
    if implementation != "row copies":
        function(X[:WARMUP_ROWS], y[:WARMUP_ROWS])
    start = time.perf_counter()
    scores = function(X, y)
    first_full_call = time.perf_counter() - start
    if implementation == "assay":
        expected = _sklearn_call(X, y)
        assert np.array_equal(scores, expected), "assay and scikit-learn disagree on the folds"
    elif implementation == "row copies":
        assert scores[0] == 2 * N_FOLDS * n_rows
    benchmark.group = f"cross_validate overhead [n={format_size(n_rows)}, {N_FOLDS} folds]"
    benchmark.extra_info.update(
        {
            "suite": SUITE,
            "case": "cross_validate-overhead",
            "implementation": implementation,
            "n_samples": n_rows,
            "n_folds": N_FOLDS,
            "n_features": N_FEATURES,
            "first_full_call_seconds": first_full_call,
            "reference_fit_seconds": reference_fit_seconds(n_rows),
            "reference_model": "sklearn LogisticRegression() on 90% of the rows",
            "negligible_share": NEGLIGIBLE_SHARE,
        }
    )
    rounds = rounds_for(first_full_call)
    benchmark.pedantic(function, args=(X, y), rounds=rounds, iterations=1, warmup_rounds=0)
