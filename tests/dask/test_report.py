"""assay.report of a dask DataFrame, and ``assay report --scheduler``: the one-machine
report with ``resampling="poisson"`` of the same rows, number for number (the curves'
Poisson bands included).

Every number of the Dask report is bit-identical to the one-machine one (counts and
whole-number weights are integers, every sum exact) but DeLong's: its variance
sums the placements' squares partition by partition, in another order, within
``DELONG_RTOL`` (only ``data.source`` differs for a DataFrame: it names what was read).
"""

from __future__ import annotations

import json
import sys

import numpy as np
import pandas as pd
import pytest

import assay
import dask
from assay import cli

dd = pytest.importorskip("dask.dataframe")

SEED = 20261129
N_RESAMPLES = 15  # few: the replicates are compared with one machine's, not judged
FILE_SIZES = (9_000, 2_000, 6_000, 3_000)  # 2e4 rows in four Parquet files
COST = [[0.0, 1.0], [4.0, 0.0]]


def _rows(seed: int = 11) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = sum(FILE_SIZES)
    y = (rng.random(n) < 0.3).astype(np.int64)
    return pd.DataFrame(
        {
            "y": y,
            "a": np.round(y + rng.normal(size=n), 2),  # tied scores
            "b": 0.5 * y + rng.normal(size=n),
            "c": np.round(y + 2 * rng.normal(size=n), 1),
            "unused": rng.normal(size=n),
        }
    )


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> str:
    """The rows in four Parquet files of a directory."""
    directory = tmp_path_factory.mktemp("report-parquet")
    rows = _rows()
    start = 0
    for index, size in enumerate(FILE_SIZES):
        rows.iloc[start : start + size].to_parquet(directory / f"part-{index}.parquet")
        start += size
    return str(directory)


# DeLong's variance on Dask: the same sums in another order (as tests/dask/test_delong.py).
# A p-value far in the normal tail carries the statistic's relative error times z**2 (z = 8:
# 1e-15 becomes 6e-14), so the p-values of DeLong's test compare on the log scale.
DELONG_RTOL = 1e-12


def _delong_numbers(document: dict) -> list[tuple[str, float]]:
    """Take DeLong's numbers out of a report's JSON (in place): ``(kind, value)``."""
    taken = []
    for model in document["models"]:
        for row in model["metrics"]:
            if row["key"] == "roc_auc":
                taken += [("value", bound) for bound in row.pop("interval")]
    for pair in document["pairs"]:
        for row in pair["tests"]:
            if row["key"] == "delong":
                taken += [("value", bound) for bound in row.pop("interval")]
                taken.append(("value", row.pop("statistic")))
                taken += [("pvalue", row.pop(key)) for key in ("pvalue", "pvalue_holm")]
    return taken


def assert_same_report(found: dict, expected: dict) -> None:
    """The JSON of two reports: equal, DeLong's numbers within ``DELONG_RTOL``."""
    found_delong, expected_delong = _delong_numbers(found), _delong_numbers(expected)
    assert found == expected
    assert [kind for kind, _ in found_delong] == [kind for kind, _ in expected_delong]
    for (kind, got), (_, want) in zip(found_delong, expected_delong, strict=True):
        if got == want:  # a p-value of 0 too
            continue
        if kind == "pvalue":
            got, want = np.log(got), np.log(want)
        np.testing.assert_allclose(got, want, rtol=DELONG_RTOL, atol=0)


def _without_source(document: dict) -> dict:
    document["data"].pop("source")
    return document


def test_report_on_a_cluster_is_the_one_machine_poisson_report(files, dask_client) -> None:
    options = {"target": "y", "scores": ["a", "b"], "cost": COST,
               "n_resamples": N_RESAMPLES, "rng": SEED}  # fmt: skip
    expected = assay.report(files, resampling="poisson", **options).to_dict()
    with dask_client.as_current(), dask.config.set(scheduler=dask_client.get):
        frame = dd.read_parquet(files, columns=["y", "a", "b"])
        found = assay.report(frame, **options).to_dict()
    assert found["data"]["source"] == f"dask DataFrame of {frame.npartitions} partitions"
    assert found["settings"]["resampling"] == "poisson"
    for model in found["models"]:  # the tests against the baseline, from the cells
        assert [test["key"] for test in model["baseline_tests"]] == ["error_rate", "expected_cost"]
    assert found["notes"] == expected["notes"] == []
    assert all(len(model["curves"]) == 2 for model in found["models"])  # the Poisson bands
    assert_same_report(_without_source(found), _without_source(expected))


def test_weighted_report_is_the_one_machine_weighted_poisson_report(synchronous) -> None:
    # whole-number weights (zeros among them): the Wilson interval needs frequencies; the
    # threshold metrics, the tests against the baseline and F1's pairs are then resampled
    # row by row (keyed by position) by assay.dask, and McNemar's test is left out
    rows = _rows(13).iloc[:6_000].copy()
    rows["w"] = np.random.default_rng(2).integers(0, 4, rows.shape[0]).astype(float)
    options = {"target": "y", "scores": ["a", "c"], "weight": "w", "cost": COST,
               "n_resamples": N_RESAMPLES, "rng": SEED}  # fmt: skip
    expected = assay.report(rows, resampling="poisson", **options)
    found = assay.report(dd.from_pandas(rows, npartitions=4), **options)
    assert found.data.total_weight == rows["w"].sum()
    pair = found.pairs[0]
    assert [row.key for row in pair.rows] == ["delong", "roc_auc_bootstrap", "f1_bootstrap"]
    assert "McNemar" in pair.notes[0]
    for model in found.models:
        assert [test.method for test in model.baseline_tests] == ["basic paired bootstrap"] * 2
    assert_same_report(_without_source(found.to_dict()), _without_source(expected.to_dict()))


def test_fractional_weights_are_refused_as_on_one_machine(synchronous) -> None:
    rows = _rows(13).iloc[:600].copy()
    rows["w"] = 1.0
    rows.loc[rows.index[[40, 350]], "w"] = [0.5, 2.25]
    options = {"target": "y", "scores": ["a"], "weight": "w", "n_resamples": 5, "rng": SEED}
    with pytest.raises(ValueError) as expected:
        assay.report(rows, resampling="poisson", **options)
    with pytest.raises(ValueError) as found:
        assay.report(dd.from_pandas(rows, npartitions=3), **options)
    assert str(found.value) == str(expected.value)
    assert "contains 2 non-integer values (e.g. 0.5)" in str(found.value)


@pytest.mark.slow  # the path of --local-cluster (tests/reports/test_cli_dask.py), connected
def test_cli_scheduler_is_the_one_machine_poisson_report(files, dask_client, tmp_path) -> None:
    arguments = ["report", files, "--target", "y", "--score", "a", "--score", "b",
                 "--resamples", str(N_RESAMPLES), "--seed", str(SEED), "--format", "json",
                 "--quiet"]  # fmt: skip
    on_dask = tmp_path / "dask.json"
    one_machine = tmp_path / "one.json"
    address = dask_client.scheduler.address
    assert cli.main([*arguments, "--scheduler", address, "-o", str(on_dask)]) == 0
    assert cli.main([*arguments, "--resampling", "poisson", "-o", str(one_machine)]) == 0
    assert_same_report(json.loads(on_dask.read_text()), json.loads(one_machine.read_text()))


def _awkward_rows() -> pd.DataFrame:
    """Text labels, prediction columns and missing scores."""
    rows = _rows(12).iloc[:2_000].copy()
    rows["label"] = np.where(rows["y"] == 1, "pos", "neg")
    rows["pred_a"] = np.where(rows["a"] >= 0.3, "pos", "neg")
    rows["pred_b"] = np.where(rows["b"] >= 0.1, "pos", "neg")
    rows["pred_c"] = np.where(rows["c"] >= 0.7, "pos", "neg")
    rows.loc[rows.index[[5, 70, 1_200]], "a"] = np.nan
    return rows


@pytest.mark.slow  # three models: 21 ranking jobs of Dask, about 20 s
def test_text_labels_predictions_and_dropna_match_one_machine(synchronous) -> None:
    rows = _awkward_rows()
    options = {"target": "label", "scores": ["a", "b", "c"],
               "pred": ["pred_a", "pred_b", "pred_c"], "pos_label": "pos", "cost": COST,
               "n_resamples": N_RESAMPLES, "rng": SEED, "dropna": True}  # fmt: skip
    expected = assay.report(rows, resampling="poisson", **options)
    found = assay.report(dd.from_pandas(rows, npartitions=3), **options)
    assert found.data.n_dropped == expected.data.n_dropped == 3
    assert len(found.pairs) == 3  # Holm across three pairs
    assert_same_report(_without_source(found.to_dict()), _without_source(expected.to_dict()))


def test_errors(synchronous, monkeypatch) -> None:
    rows = _awkward_rows()
    frame = dd.from_pandas(rows.assign(w=1.0, g=0), npartitions=3)
    with pytest.raises(ValueError, match=r"`resampling='multinomial'` draws n rows from all "
                       r"n rows, which no partition can do on its own"):  # fmt: skip
        assay.report(frame, target="y", scores="b", resampling="multinomial")
    with pytest.raises(ValueError, match=r"`group` \('g'\) resamples whole groups"):
        assay.report(frame, target="y", scores="b", group="g")
    with pytest.raises(ValueError, match=r"column 'a' has 3 missing value\(s\); drop those "
                       r"rows with dropna=True \(--dropna\)"):  # fmt: skip
        assay.report(frame, target="y", scores="a")
    with pytest.raises(ValueError, match=r"column\(s\) 'z' not found in `data`"):
        assay.report(frame, target="y", scores="z")
    with pytest.raises(ValueError, match=r"column 'label' must hold numbers; its type is"):
        assay.report(frame, target="y", scores="label")
    with pytest.raises(ValueError, match=r"column 'c' must hold exactly two labels"):
        assay.report(frame, target="c", scores="b")
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ImportError, match=r"pip install 'assay\[dask\]'"):
        assay.report(frame, target="y", scores="b")
