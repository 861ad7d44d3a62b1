"""Regression metrics against scikit-learn, special cases and errors."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import assay
from assay.exceptions import UndefinedMetricWarning
from assay.metrics._registry import METRICS
from tests.strategies import exact_sample_weights

# Same formulas as scikit-learn, same numpy reductions; only R^2 of an output whose
# y_true is constant can differ (see test_constant_targets).
SKLEARN_RTOL = 1e-12

# Every loss of the registry: the means over rows where lower is better.
LOSSES = [
    name
    for name, declaration in METRICS.items()
    if declaration.computed_from == "values" and not declaration.greater_is_better
]


@st.composite
def regression_data(draw, max_n=100, max_outputs=3):
    n = draw(st.integers(1, max_n))
    n_outputs = draw(st.integers(1, max_outputs))
    shape = n if draw(st.booleans()) and n_outputs == 1 else (n, n_outputs)
    values = st.one_of(
        st.integers(-5, 5).map(float),
        st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False, allow_subnormal=False),
    )
    y_true = draw(hnp.arrays(np.float64, shape, elements=values))
    y_pred = draw(hnp.arrays(np.float64, shape, elements=values))
    return y_true, y_pred, draw(exact_sample_weights(n))


def multioutput_options(y_true, extra=()):
    options = [*extra, "raw_values", "uniform_average"]
    if y_true.ndim == 2 and y_true.shape[1] > 1:
        options.append(np.arange(1, y_true.shape[1] + 1, dtype=np.float64))
    return st.sampled_from(options)


def has_constant_output(y_true, weight):
    columns = y_true.reshape(y_true.shape[0], -1)
    if weight is not None:
        columns = columns[weight > 0]
    return bool(np.any(np.ptp(columns, axis=0) == 0))


@pytest.mark.parametrize("name", LOSSES)
@given(data=st.data())
def test_losses_match_sklearn(name, data):
    y_true, y_pred, weight = data.draw(regression_data())
    multioutput = data.draw(multioutput_options(y_true))
    ours = getattr(assay, name)(y_true, y_pred, sample_weight=weight, multioutput=multioutput)
    theirs = getattr(skm, name)(y_true, y_pred, sample_weight=weight, multioutput=multioutput)
    np.testing.assert_allclose(ours, theirs, rtol=SKLEARN_RTOL, atol=0)
    if isinstance(multioutput, str) and multioutput == "raw_values":
        assert isinstance(ours, np.ndarray)
    else:
        assert isinstance(ours, float)


@given(data=st.data(), force_finite=st.booleans())
def test_r2_matches_sklearn(data, force_finite):
    y_true, y_pred, weight = data.draw(regression_data())
    multioutput = data.draw(multioutput_options(y_true, ("variance_weighted",)))
    kwargs = {"sample_weight": weight, "multioutput": multioutput, "force_finite": force_finite}
    if has_constant_output(y_true, weight):  # a single row included
        with pytest.warns(UndefinedMetricWarning, match="constant"):
            assay.r2_score(y_true, y_pred, **kwargs)
        return  # compared in test_constant_targets
    ours = assay.r2_score(y_true, y_pred, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = skm.r2_score(y_true, y_pred, **kwargs)
    np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


def test_constant_targets():
    # y_true constant: SS_tot = 0; force_finite gives 1.0 (perfect) or 0.0 (scikit-learn)
    with pytest.warns(UndefinedMetricWarning, match="1 output"):
        assert assay.r2_score([2.0, 2.0, 2.0], [2.0, 2.0, 2.0]) == 1.0
    with pytest.warns(UndefinedMetricWarning, match="constant"):
        assert assay.r2_score([2.0, 2.0, 2.0], [1.0, 2.0, 2.0]) == 0.0
    with pytest.warns(UndefinedMetricWarning, match="NaN/-inf"):
        value = assay.r2_score([2.0, 2.0], [1.0, 2.0], force_finite=False)
    assert value == -np.inf
    # 0.1 + 0.1 + 0.1 rounds: the mean is not 0.1, yet SS_tot is 0 exactly here
    with pytest.warns(UndefinedMetricWarning, match="constant"):
        assert assay.r2_score([0.1, 0.1, 0.1], [0.1, 0.2, 0.1]) == 0.0
    # only one row with positive weight: a constant y_true (zero-weight rows are absent)
    with pytest.warns(UndefinedMetricWarning, match="constant"):
        assert assay.r2_score([1.0, 5.0], [1.0, 4.0], sample_weight=[1.0, 0.0]) == 1.0
    # a single row is a constant y_true too (scikit-learn returns NaN for one row, which
    # would break "one row of weight 2 = two equal rows")
    with pytest.warns(UndefinedMetricWarning, match="constant"):
        assert assay.r2_score([1.0], [4.0]) == 0.0
    with pytest.warns(UndefinedMetricWarning, match="constant"):
        assert assay.r2_score([1.0], [4.0], sample_weight=[2.0]) == assay.r2_score(
            [1.0, 1.0], [4.0, 4.0]
        )
    with pytest.warns(UndefinedMetricWarning, match="1 output"):
        raw = assay.r2_score(
            [[1.0, 2.0], [3.0, 2.0]], [[1.0, 2.0], [2.0, 2.0]], multioutput="raw_values"
        )
    np.testing.assert_array_equal(raw, [0.5, 1.0])


def test_worked_values():
    # scikit-learn's documented example: y_true [3, -0.5, 2, 7], y_pred [2.5, 0, 2, 8]
    y_true, y_pred = [3, -0.5, 2, 7], [2.5, 0.0, 2, 8]
    assert assay.mean_squared_error(y_true, y_pred) == 0.375  # (0.25 + 0.25 + 0 + 1) / 4
    assert assay.root_mean_squared_error(y_true, y_pred) == math.sqrt(0.375)
    assert assay.mean_absolute_error(y_true, y_pred) == 0.5  # (0.5 + 0.5 + 0 + 1) / 4
    # SS_res = 1.5, mean 2.875, SS_tot = 29.1875
    assert assay.r2_score(y_true, y_pred) == pytest.approx(1 - 1.5 / 29.1875, rel=1e-15)


@given(data=regression_data(max_outputs=1), seed=st.integers(0, 2**32 - 1))
def test_invariances(data, seed):
    y_true, y_pred, _ = data
    order = np.random.default_rng(seed).permutation(y_true.shape[0])
    repeats = np.arange(y_true.shape[0]) % 3 + 1
    for name in LOSSES:
        function = getattr(assay, name)
        value = function(y_true, y_pred)
        assert function(y_true[order], y_pred[order]) == pytest.approx(value, rel=1e-12)
        weighted = function(y_true, y_pred, sample_weight=repeats)
        repeated = function(np.repeat(y_true, repeats, axis=0), np.repeat(y_pred, repeats, axis=0))
        assert weighted == pytest.approx(repeated, rel=1e-12, abs=1e-300)
        unit = function(y_true, y_pred, sample_weight=np.ones(y_true.shape[0]))
        assert unit == pytest.approx(value, rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("name", [*LOSSES, "r2_score"])
@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (([1.0, 2.0], [1.0]), {}, "`y_true` and `y_pred` have different lengths: 2 and 1"),
        (([], []), {}, "`y_true` is empty"),
        (([1.0, np.nan], [1.0, 2.0]), {}, "`y_true` contains 1 NaN values; targets must be"),
        (([1.0, 2.0], [1.0, np.inf]), {}, "`y_pred` contains 1 infinite values; predictions"),
        ((["a", "b"], [1.0, 2.0]), {}, "`y_true` must be numeric"),
        ((np.zeros((2, 2, 2)), np.zeros((2, 2, 2))), {}, "`y_true` must be 1-D to 2-D"),
        ((np.zeros((2, 2)), np.zeros((2, 3))), {}, "different numbers of outputs: 2 and 3"),
        (([1.0, 2.0], [1.0, 2.0]), {"sample_weight": [1.0, -1.0]}, "negative values"),
        (([1.0, 2.0], [1.0, 2.0]), {"sample_weight": [0.0, 0.0]}, "sums to zero"),
        (([1.0, 2.0], [1.0, 2.0]), {"multioutput": "mean"}, "`multioutput` must be one of"),
        (([1.0, 2.0], [1.0, 2.0]), {"multioutput": [1.0]}, "weights need several outputs"),
        ((np.zeros((2, 2)), np.zeros((2, 2))), {"multioutput": [1.0]}, "has 1 weights but"),
        ((np.zeros((2, 2)), np.zeros((2, 2))), {"multioutput": [1.0, -1.0]}, "non-negative"),
    ],
)
def test_errors(name, args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        getattr(assay, name)(*args, **kwargs)
