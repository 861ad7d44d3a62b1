"""Result objects of the inference functions: frozen, readable, serialisable."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from assay._results import (
    BootstrapResult,
    ComparisonResult,
    ConfidenceInterval,
    PermutationTestResult,
)


def _bootstrap_result(**changes) -> BootstrapResult:
    fields = dict(
        estimate=np.float64(0.8125),
        confidence_interval=ConfidenceInterval(np.float64(0.75), np.float64(0.875)),
        standard_error=0.03,
        bias=-0.002,
        bootstrap_distribution=np.linspace(0.7, 0.9, 1998),
        method="bca",
        confidence_level=0.95,
        n_resamples=np.int64(2000),
        n_undefined=2,
        rng_seed=np.uint64(2**64 - 1),
        metric="roc_auc_score",
    )
    fields.update(changes)
    return BootstrapResult(**fields)


def _comparison_result(**changes) -> ComparisonResult:
    fields = dict(
        estimate_a=0.81,
        estimate_b=0.78,
        difference=0.03,
        confidence_interval=(0.01, 0.05),
        pvalue=0.004,
        alternative="two-sided",
        method="bootstrap",
        confidence_level=0.9,
        n_resamples=1000,
        n_undefined=0,
        rng_seed=42,
        metric="average_precision_score",
        resampled_differences=np.full(1000, 0.03),
    )
    fields.update(changes)
    return ComparisonResult(**fields)


def _permutation_result(**changes) -> PermutationTestResult:
    fields = dict(
        statistic=0.7,
        pvalue=1 / 10,
        alternative="greater",
        null_distribution=[0.5, 0.55, 0.6, 0.45, 0.5, 0.52, 0.58, 0.49, 0.51, 0.7],
        n_resamples=10,
        exact=np.bool_(True),
        rng_seed=None,
        metric="accuracy_score",
    )
    fields.update(changes)
    return PermutationTestResult(**fields)


RESULTS = [_bootstrap_result, _comparison_result, _permutation_result]


def test_confidence_interval_unpacks_like_scipys() -> None:
    interval = ConfidenceInterval(0.25, 0.75)
    low, high = interval
    assert (low, high) == (interval.low, interval.high) == (0.25, 0.75)
    assert interval.to_dict() == {"low": 0.25, "high": 0.75}
    assert repr(interval) == "ConfidenceInterval(low=0.25, high=0.75)"


def test_fields_are_plain_python_values() -> None:
    result = _bootstrap_result()
    assert type(result.estimate) is float and type(result.n_resamples) is int
    assert type(result.rng_seed) is int and result.rng_seed == 2**64 - 1
    assert type(result.confidence_interval) is ConfidenceInterval
    assert type(result.confidence_interval.low) is float
    assert _comparison_result().confidence_interval == ConfidenceInterval(0.01, 0.05)
    assert _permutation_result().exact is True
    assert _permutation_result().null_distribution.dtype == np.float64


@pytest.mark.parametrize("make", RESULTS)
def test_results_are_frozen(make) -> None:
    result = make()
    name = dataclasses.fields(result)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(result, name, 0.0)


@pytest.mark.parametrize(
    "make, array_field",
    [
        (_bootstrap_result, "bootstrap_distribution"),
        (_comparison_result, "resampled_differences"),
        (_permutation_result, "null_distribution"),
    ],
)
def test_arrays_are_read_only_copies(make, array_field) -> None:
    source = np.array([0.1, 0.2, 0.3])
    result = make(**{array_field: source})
    source[0] = 99.0
    array = getattr(result, array_field)
    assert array[0] == 0.1
    with pytest.raises(ValueError, match="read-only"):
        array[0] = 0.5


@pytest.mark.parametrize("make", RESULTS)
def test_fields_are_keyword_only(make) -> None:
    values = [getattr(make(), field.name) for field in dataclasses.fields(make())]
    with pytest.raises(TypeError):
        type(make())(*values)


def test_bootstrap_repr_is_one_field_per_line() -> None:
    text = repr(_bootstrap_result())
    lines = text.splitlines()
    assert lines[0] == "BootstrapResult(" and lines[-1] == ")"
    assert lines[1] == "    estimate=0.8125,"
    assert lines[2] == "    confidence_interval=ConfidenceInterval(low=0.75, high=0.875),"
    # Long arrays: three values at each end (6 significant digits) and the shape.
    assert lines[5] == (
        "    bootstrap_distribution=array([0.7, 0.7001, 0.7002, ..., 0.8998, 0.8999, 0.9],"
        " shape=(1998,)),"
    )
    assert "    metric='roc_auc_score'," in lines
    assert "    rng_seed=18446744073709551615," in lines
    assert len(lines) == len(dataclasses.fields(BootstrapResult)) + 2


@pytest.mark.parametrize("make", RESULTS)
def test_repr_names_every_field(make) -> None:
    result = make()
    text = repr(result)
    assert text.startswith(f"{type(result).__name__}(\n")
    for field in dataclasses.fields(result):
        assert f"\n    {field.name}=" in text


def test_short_arrays_are_shown_whole() -> None:
    text = repr(_comparison_result(resampled_differences=[0.01, 0.02]))
    assert "    resampled_differences=array([0.01, 0.02])," in text
    text = repr(_comparison_result(resampled_differences=[]))
    assert "    resampled_differences=array([], dtype=float64)," in text


@pytest.mark.parametrize("make", RESULTS)
def test_to_dict_is_json_serialisable(make) -> None:
    result = make()
    data = result.to_dict()
    assert list(data) == [field.name for field in dataclasses.fields(result)]
    decoded = json.loads(json.dumps(data))
    assert decoded == data


def test_to_dict_values() -> None:
    data = _bootstrap_result().to_dict()
    assert data["confidence_interval"] == {"low": 0.75, "high": 0.875}
    assert isinstance(data["bootstrap_distribution"], list)
    assert len(data["bootstrap_distribution"]) == 1998
    assert type(data["bootstrap_distribution"][0]) is float
    assert data["rng_seed"] == 2**64 - 1
    permutation = _permutation_result().to_dict()
    assert permutation["exact"] is True and permutation["rng_seed"] is None
    assert json.dumps(permutation["rng_seed"]) == "null"


def test_undefined_values_serialise_as_null() -> None:
    result = _bootstrap_result(
        confidence_interval=(np.nan, np.nan),
        standard_error=np.nan,
        bias=np.nan,
        bootstrap_distribution=[],
        n_undefined=2000,
    )
    text = json.dumps(result.to_dict(), allow_nan=False)
    assert '"confidence_interval": {"low": null, "high": null}' in text
    assert '"standard_error": null' in text and '"bias": null' in text
    assert '"bootstrap_distribution": []' in text
    assert "standard_error=nan," in repr(result)


@pytest.mark.parametrize("make", RESULTS)
def test_results_compare_by_identity(make) -> None:
    result, twin = make(), make()  # the same fields, arrays included
    # `==` is identity: a field-by-field comparison would compare the arrays (and raise)
    assert result.__eq__(twin) is NotImplemented
    assert (result == twin) is False and (result != twin) is True
    # hashable by identity, so results can be dictionary keys and set members
    assert len({result, twin, result}) == 2
    assert hash(result) == object.__hash__(result)
