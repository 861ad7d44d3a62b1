"""The cells' path of the Dask report (:mod:`assay.reports._cells`): the confusion-matrix
numbers of the report from the cells alone equal the functions of the rows."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

import assay
from assay.reports._build import _baseline

pytest.importorskip("dask.dataframe")

from assay.reports import _cells as cells

SEED = 20261128
N_ROWS = 400
N_RESAMPLES = 25  # small: the numbers are compared with the direct calls, not judged
COST = [[0.0, 1.0], [5.0, 0.0]]


@pytest.fixture(scope="module")
def data() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(4)
    y = (rng.random(N_ROWS) < 0.3).astype(np.int64)
    return {"y": y, "a": y + rng.normal(size=N_ROWS), "b": y + 2 * rng.normal(size=N_ROWS)}


def _matrix(y, prediction) -> np.ndarray:
    return cells.as_matrix([[np.sum((y == t) & (prediction == p)) for p in (0, 1)]
                            for t in (0, 1)])  # fmt: skip


@pytest.mark.parametrize(
    ("function", "keywords"),
    [
        (assay.precision_score, {"zero_division": np.nan}),
        (assay.recall_score, {"zero_division": np.nan}),
        (assay.f1_score, {"zero_division": np.nan}),
        (assay.matthews_corrcoef, {"zero_division": np.nan}),
        (assay.balanced_accuracy_score, {}),
        (assay.expected_cost, {"cost_matrix": np.array(COST)}),
    ],
)
def test_cells_bootstrap_is_the_poisson_bootstrap(data, function, keywords) -> None:
    y = data["y"].astype(np.int8)
    prediction = (data["b"] >= 0.5).astype(np.int8)
    expected = assay.bootstrap(function, y, prediction, n_resamples=N_RESAMPLES, rng=SEED,
                               resampling="poisson", **keywords)  # fmt: skip
    found = cells.cells_bootstrap(function, _matrix(y, prediction), keywords,
                                  n_resamples=N_RESAMPLES, confidence_level=0.95, seed=SEED,
                                  progress=False)  # fmt: skip
    assert found.estimate == expected.estimate
    assert np.array_equal(found.bootstrap_distribution, expected.bootstrap_distribution)
    assert found.confidence_interval == expected.confidence_interval


def test_cells_of_a_pair_are_the_functions_of_the_rows(data) -> None:
    y = data["y"].astype(np.int8)
    a = (data["a"] >= 0.5).astype(np.int8)
    b = (data["b"] >= 0.5).astype(np.int8)
    joint = np.bincount((y.astype(np.int64) * 2 + a) * 2 + b, minlength=8)
    expected = assay.compare(assay.f1_score, y, a, b, n_resamples=N_RESAMPLES, rng=SEED,
                             resampling="poisson", zero_division=np.nan)  # fmt: skip
    estimates = (expected.estimate_a, expected.estimate_b)
    found = cells.cells_compare(assay.f1_score, joint, estimates, {"zero_division": np.nan},
                                n_resamples=N_RESAMPLES, confidence_level=0.95, seed=SEED,
                                progress=False)  # fmt: skip
    assert np.array_equal(found.resampled_differences, expected.resampled_differences)
    for field in fields(expected):
        if field.name != "resampled_differences":
            assert getattr(found, field.name) == getattr(expected, field.name), field.name
    # the results' repr is complete (every field, floats to the last digit)
    assert repr(cells.cells_mcnemar(joint)) == repr(assay.mcnemar(y, a, b))
    error = cells.cells_error_rate_ci(_matrix(y, a), 0.9)
    assert repr(error) == repr(assay.error_rate_ci(y, a, confidence_level=0.9))


@pytest.mark.parametrize("prevalence", [0.3, 0.7])
def test_baseline_from_the_class_counts(prevalence) -> None:
    y = (np.random.default_rng(5).random(N_ROWS) < prevalence).astype(np.int8)
    majority = int(y.sum() * 2 >= N_ROWS)
    labels, counts = cells.class_rows(int(N_ROWS - y.sum()), int(y.sum()))
    expected = _baseline(y, majority, COST, {"sample_weight": None})
    found = _baseline(labels, majority, COST, {"sample_weight": counts})
    assert found.keys() == expected.keys()
    for key, value in expected.items():
        assert found[key] == value or (np.isnan(found[key]) and np.isnan(value)), key
