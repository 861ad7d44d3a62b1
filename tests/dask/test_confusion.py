"""Confusion-matrix functions of dask collections against single-machine assay.

Counts and integer weights give the same cells, so the same values bit for bit;
fractional weights are summed in another order (``FRACTIONAL_WEIGHTS_RTOL``).
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
import assay.dask
import dask
from assay.dask._confusion import CONFUSION_FUNCTIONS
from assay.metrics._registry import METRICS
from tests.dask.conftest import PARTITION_SIZES, partitioned
from tests.dask.test_ranking import FRACTIONAL_WEIGHTS_RTOL, WEIGHTS
from tests.strategies import class_labels, split_into_pieces


@pytest.fixture(scope="module")
def three_classes(data):
    """Labels of three classes derived from the rows, and predictions; in memory and as
    a dask DataFrame of the same 7 partitions."""
    frame, _ = data
    frame = frame.assign(
        truth=(frame["y"] + (frame["score"] > 1.2)).to_numpy(),
        guess=np.clip(np.round(frame["score"]), 0, 2).astype(np.int64).to_numpy(),
    )
    return frame, partitioned(frame)


def _options(name):
    """Keyword options of ``name`` for three classes: each registry variant, averaged."""
    if name == "confusion_matrix":
        return [{}, {"normalize": "true"}, {"labels": [2, 0]}]
    if name == "multilabel_confusion_matrix":
        return [{}, {"labels": [2, 0]}]
    declaration = METRICS[name]
    variants = [dict(variant) for variant in declaration.variants]
    if declaration.averages:
        variants = [{**variant, "average": "macro"} for variant in variants]
        variants.append({"average": "weighted", "zero_division": 0.0})
    if "beta" in declaration.confusion_options:
        variants = [{**variant, "beta": 0.5} for variant in variants]
    if name == "expected_cost":
        costs = np.array([[0.0, 1.0, 2.0], [3.0, 0.0, 1.0], [1.0, 5.0, 0.0]])
        variants = [{**variant, "cost_matrix": costs} for variant in variants]
    return variants


@pytest.mark.parametrize("weight", WEIGHTS)
def test_confusion_functions_equal_one_machine(three_classes, synchronous, weight):
    """Every confusion-matrix function, with each of its registry variants."""
    frame, ddf = three_classes
    weights = None if weight is None else frame[weight].to_numpy()
    dask_weights = None if weight is None else ddf[weight]
    calls = [(name, options) for name in CONFUSION_FUNCTIONS for options in _options(name)]
    lazy = [
        getattr(assay.dask, name)(
            ddf["truth"], ddf["guess"], sample_weight=dask_weights, compute=False, **options
        )
        for name, options in calls
    ]
    values = dask.compute(*lazy)  # the partitions' pairs are counted once for all
    truth, guess = frame["truth"].to_numpy(), frame["guess"].to_numpy()
    for (name, options), got in zip(calls, values, strict=True):
        expected = getattr(assay, name)(truth, guess, sample_weight=weights, **options)
        if weight == "weight":
            np.testing.assert_allclose(got, expected, rtol=FRACTIONAL_WEIGHTS_RTOL, atol=0)
        else:
            assert np.asarray(got).dtype == np.asarray(expected).dtype
            assert np.array_equal(got, expected), (name, options)


def test_string_labels_equal_one_machine(synchronous):
    frame = pd.DataFrame({"truth": list("abcabcaab"), "guess": list("abbaccabb")})
    ddf = partitioned(frame, (4, 0, 5))
    expected = assay.cohen_kappa_score(frame["truth"].to_numpy(), frame["guess"].to_numpy())
    assert assay.dask.cohen_kappa_score(ddf["truth"], ddf["guess"]) == expected
    assert np.array_equal(
        assay.dask.confusion_matrix(ddf["truth"], ddf["guess"]),
        assay.confusion_matrix(frame["truth"].to_numpy(), frame["guess"].to_numpy()),
    )


def test_binary_defaults_equal_one_machine(data, synchronous):
    frame, ddf = data
    y, predicted = frame["y"].to_numpy(), frame["predicted"].to_numpy()
    for name in ("precision_score", "recall_score", "f1_score", "specificity_score"):
        assert getattr(assay.dask, name)(ddf["y"], ddf["predicted"]) == getattr(assay, name)(
            y, predicted
        )


def test_signature_is_the_top_level_one_with_compute():
    import inspect

    top = inspect.signature(assay.f1_score)
    mirrored = inspect.signature(assay.dask.f1_score)
    assert list(mirrored.parameters) == [*top.parameters, "compute"]


def test_a_float_prediction_that_is_not_a_label_is_refused_naming_the_partition(data, synchronous):
    frame, _ = data
    bad = frame.assign(predicted=frame["predicted"].astype(float))
    bad.loc[sum(PARTITION_SIZES[:3]) + 2, "predicted"] = 0.5  # in partition 3
    with pytest.raises(ValueError) as one_machine:
        assay.accuracy_score(bad["y"].to_numpy(), bad["predicted"].to_numpy())
    ddf = partitioned(bad)
    message = f"In partition 3 of 7: {one_machine.value}"
    with pytest.raises(ValueError, match=re.escape(message)):
        assay.dask.accuracy_score(ddf["y"], ddf["predicted"])


def test_negative_weight_is_refused_naming_the_partition(data, synchronous):
    frame, _ = data
    bad = frame.copy()
    bad.loc[sum(PARTITION_SIZES[:5]) + 1, "weight"] = -1.0  # in partition 5
    ddf = partitioned(bad)
    message = (
        "In partition 5 of 7: `sample_weight` contains 1 negative values; weights must be "
        "non-negative."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        assay.dask.confusion_matrix(ddf["y"], ddf["predicted"], sample_weight=ddf["weight"])


def test_warnings_reach_the_callers_line(synchronous):
    frame = pd.DataFrame({"y": [0, 0, 0, 0], "p": [0, 0, 0, 0]})
    ddf = partitioned(frame, (1, 3))
    with pytest.warns(assay.exceptions.UndefinedMetricWarning) as caught:
        assay.dask.precision_score(ddf["y"], ddf["p"])
    assert caught[0].filename == __file__


# about a second an example (a graph per function): a twelfth of the profile's examples
@settings(max_examples=max(5, settings.default.max_examples // 12))
@given(st.data())
def test_small_data_equals_one_machine(data):
    """Labels of every kind, exact weights, any split (synchronous scheduler)."""
    y_true, y_pred, weight = data.draw(class_labels(max_n=30))
    cuts = data.draw(split_into_pieces(y_true.shape[0], max_pieces=4))
    frame = pd.DataFrame({"truth": y_true, "guess": y_pred})
    if weight is not None:
        frame["w"] = weight
    ddf = partitioned(frame, tuple(np.diff(cuts).tolist()))
    dask_weights = None if weight is None else ddf["w"]
    calls = [
        ("confusion_matrix", {}),
        ("accuracy_score", {}),
        ("cohen_kappa_score", {}),
        ("f1_score", {"average": "macro", "zero_division": 0.0}),
    ]
    lazy = [
        getattr(assay.dask, name)(
            ddf["truth"], ddf["guess"], sample_weight=dask_weights, compute=False, **options
        )
        for name, options in calls
    ]
    with dask.config.set(scheduler="synchronous"):
        values = dask.compute(*lazy)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", assay.exceptions.UndefinedMetricWarning)
        for (name, options), got in zip(calls, values, strict=True):
            expected = getattr(assay, name)(y_true, y_pred, sample_weight=weight, **options)
            assert np.array_equal(got, expected, equal_nan=True), name


# Multilabel indicators: a 2-D dask array or a dask DataFrame, one column per label.
MULTILABEL_CALLS = [
    ("multilabel_confusion_matrix", {}),
    ("accuracy_score", {}),
    ("hamming_loss", {}),
    ("jaccard_score", {"average": "macro"}),
    ("f1_score", {"average": "micro"}),
    ("precision_score", {"average": None, "zero_division": 0.0}),
    ("recall_score", {"average": "weighted", "zero_division": 0.0}),
    ("f1_score", {"average": "samples", "zero_division": 1.0}),
]


def _indicators(seed: int = 4, n: int = 5_000, k: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """Indicator rows of ``k`` labels; the predictions copy each with probability 0.7;
    label 3 is never true (an empty column)."""
    rng = np.random.default_rng(seed)
    truth = (rng.random((n, k)) < 0.4).astype(np.int64)
    truth[:, 3] = 0
    guess = np.where(rng.random((n, k)) < 0.7, truth, 1 - truth)
    return truth, guess


@pytest.mark.parametrize("weight", [None, "counts", "weight"])
@pytest.mark.parametrize("kind", ["array", "dataframe"])
def test_multilabel_indicators_equal_one_machine(synchronous, weight, kind):
    import dask.array as da

    truth, guess = _indicators()
    rng = np.random.default_rng(5)
    weights = {"counts": rng.integers(0, 4, truth.shape[0]).astype(np.float64),
               "weight": rng.random(truth.shape[0])}.get(weight)  # fmt: skip
    chunks = (1_000, 0, 2_500, 1_500)
    if kind == "array":
        first = da.from_array(truth, chunks=(chunks, 4))
        second = da.from_array(guess, chunks=(chunks, 4))
    else:
        first = partitioned(pd.DataFrame(truth), chunks)
        second = partitioned(pd.DataFrame(guess), chunks)
    dask_weight = None
    if weights is not None:
        dask_weight = da.from_array(weights, chunks=(chunks,))
        if kind == "dataframe":
            dask_weight = partitioned(pd.DataFrame({"w": weights}), chunks)["w"]
    for name, options in MULTILABEL_CALLS:
        got = getattr(assay.dask, name)(first, second, sample_weight=dask_weight, **options)
        expected = getattr(assay, name)(truth, guess, sample_weight=weights, **options)
        if weight == "weight" or options.get("average") == "samples":
            # the samples average: a weighted mean over each partition's distinct rows
            np.testing.assert_allclose(got, expected, rtol=FRACTIONAL_WEIGHTS_RTOL, atol=0)
        else:
            assert np.array_equal(got, expected), (name, options)


def test_multilabel_errors(synchronous):
    import dask.array as da

    truth, guess = _indicators(n=300)
    first = da.from_array(truth, chunks=(100, 4))
    second = da.from_array(guess, chunks=(100, 4))
    with pytest.raises(NotImplementedError, match=re.escape("`samplewise=True` gives one")):
        assay.dask.multilabel_confusion_matrix(first, second, samplewise=True)
    bad = guess.copy()
    bad[150, 2] = 2  # partition 1: not an indicator
    with pytest.raises(ValueError, match=re.escape("In partition 1 of 3:")):
        assay.dask.f1_score(first, da.from_array(bad, chunks=(100, 4)), average="macro")
    cube = da.zeros((10, 2, 2), chunks=5)
    with pytest.raises(ValueError, match=re.escape("must be 1-D or 2-D")):
        assay.dask.f1_score(cube, cube)
    with pytest.raises(ValueError, match=re.escape("`y_true` must be 1-D, got a dask array")):
        assay.dask.roc_auc_score(first, second)
