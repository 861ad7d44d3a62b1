"""assay.report(..., resampling="poisson"): the report that Dask computes too.

Every resampled number is the assay function called with ``resampling="poisson"`` and
the report's seed, the curves' bands too (``assay.roc_band`` and
``assay.precision_recall_band`` with ``resampling="poisson"`` and ``kind="simultaneous"``).
"""

from __future__ import annotations

import numpy as np
import pytest

import assay

SEED = 20261127
N_ROWS = 400
N_RESAMPLES = 25  # small: the numbers are compared with the direct calls, not judged
COST = [[0.0, 1.0], [5.0, 0.0]]


def _data(seed: int = 3) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(N_ROWS) < 0.3).astype(np.int64)
    return {
        "y": y,
        "a": np.round(y + rng.normal(size=N_ROWS), 1),  # tied scores
        "b": y + 2 * rng.normal(size=N_ROWS),
        "g": rng.integers(0, 40, N_ROWS),
    }


@pytest.fixture(scope="module")
def data() -> dict[str, np.ndarray]:
    return _data()


@pytest.fixture(scope="module")
def result(data):
    return assay.report(data, target="y", scores=["a", "b"], cost=COST,
                        n_resamples=N_RESAMPLES, rng=SEED, resampling="poisson")  # fmt: skip


def _same(found, expected) -> None:
    assert found.estimate == float(expected.estimate)
    assert found.interval == tuple(float(bound) for bound in expected.confidence_interval)


def test_settings_say_poisson(result, data) -> None:
    assert result.settings.resampling == "poisson"
    assert result.to_dict()["settings"]["resampling"] == "poisson"
    assert "bootstrap resamples (Poisson)" in result.to_text()
    default = assay.report(data, target="y", scores="a", n_resamples=5, rng=SEED)
    assert default.settings.resampling == "multinomial"
    assert "(Poisson)" not in default.to_text()


def test_resampled_rows_are_the_poisson_functions(result, data) -> None:
    y = data["y"]
    poisson = {"n_resamples": N_RESAMPLES, "rng": SEED, "resampling": "poisson"}
    for name in ("a", "b"):
        model = result.model(name)
        booted = assay.bootstrap(assay.roc_auc_score, y, data[name], **poisson)
        _same(model.row("roc_auc_bootstrap"), booted)
        prediction = (data[name] >= 0.5).astype(np.int64)
        f1 = assay.bootstrap(assay.f1_score, y, prediction, zero_division=np.nan, **poisson)
        _same(model.row("f1"), f1)
        cost = assay.bootstrap(assay.expected_cost, y, prediction, cost_matrix=np.array(COST),
                               **poisson)  # fmt: skip
        _same(model.row("expected_cost"), cost)
    pair = result.pairs[0]
    auc = assay.compare(assay.roc_auc_score, y, data["a"], data["b"], **poisson)
    assert pair.row("roc_auc_bootstrap").interval == tuple(auc.confidence_interval)
    assert pair.row("roc_auc_bootstrap").pvalue == auc.pvalue
    predictions = [(data[name] >= 0.5).astype(np.int64) for name in ("a", "b")]
    f1 = assay.compare(assay.f1_score, y, *predictions, zero_division=np.nan, **poisson)
    assert pair.row("f1_bootstrap").interval == tuple(f1.confidence_interval)
    assert pair.row("f1_bootstrap").pvalue == f1.pvalue


def test_curves_are_the_poisson_bands_of_each_model(result, data) -> None:
    from assay.reports._curves import POISSON_BAND_METHOD

    assert result.notes == ()
    poisson = {"n_resamples": N_RESAMPLES, "rng": SEED, "resampling": "poisson",
               "kind": "simultaneous"}  # fmt: skip
    for name in ("a", "b"):
        model = result.model(name)
        assert [curve.curve for curve in model.curves] == ["roc", "precision_recall"]
        expected = {
            "roc": assay.roc_band(data["y"], data[name], **poisson),
            "precision_recall": assay.precision_recall_band(data["y"], data[name], **poisson),
        }
        for curve in model.curves:
            band = expected[curve.curve]
            assert curve.kind == "simultaneous" and curve.method == POISSON_BAND_METHOD
            for field in ("grid", "estimate", "lower", "upper"):
                assert getattr(curve, field) == tuple(getattr(band, field).tolist()), field
    html = result.to_html()
    assert "Poisson resamples of each model's rows (every row counted Poisson(1)" in html
    assert "No curves" not in html


def test_the_rest_of_the_report_is_unchanged_by_the_curves(result) -> None:
    # the numbers are those of the Poisson functions (above); the curves add no note and
    # change no row: the report without its curves is the report as it was
    document = result.to_dict()
    assert all(model["curves"] for model in document["models"])
    assert document["notes"] == []


def test_weighted_poisson_report_has_no_curves_and_says_why(data) -> None:
    weight = np.ones(N_ROWS)
    weighted = assay.report({**data, "w": weight}, target="y", scores="a", weight="w",
                            n_resamples=5, rng=SEED, resampling="poisson")  # fmt: skip
    assert weighted.models[0].curves == ()
    assert weighted.notes == (
        "The ROC and precision-recall curves are left out: their bands resample single "
        "unweighted rows, and this report has sample weights.",
    )


def test_errors(data) -> None:
    message = r"`group` \('g'\) resamples whole groups with a multinomial draw; it cannot be "
    with pytest.raises(ValueError, match=message + r"combined with resampling='poisson'"):
        assay.report(data, target="y", scores="a", group="g", resampling="poisson")
    with pytest.raises(ValueError, match=r"`resampling` must be one of .*; got 'stratified'"):
        assay.report(data, target="y", scores="a", resampling="stratified")
