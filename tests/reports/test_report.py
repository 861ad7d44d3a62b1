"""assay.report: every number is the assay function called directly with the same seed."""

from __future__ import annotations

import math
import weakref
from itertools import combinations

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

import assay
from assay.reports import SCHEMA, Report
from assay.reports._build import DELONG_GROUPS_NOTE

SEED = 20261126
N_ROWS = 300
N_RESAMPLES = 30  # small: the numbers are compared with the direct calls, not judged
# Holm-adjusted p-values against statsmodels: the same arithmetic in another order.
HOLM_TOLERANCE = 1e-12
MODELS = ("a", "b", "c")


def _data(seed: int = 7) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(N_ROWS) < 0.35).astype(np.int64)
    return {
        "y": y,
        "a": y + rng.normal(size=N_ROWS),
        "b": y + 2 * rng.normal(size=N_ROWS),
        "c": y + 3 * rng.normal(size=N_ROWS),
        "w": rng.integers(1, 4, N_ROWS).astype(float),
        "g": rng.integers(0, 60, N_ROWS),
    }


@pytest.fixture(scope="module")
def data() -> dict[str, np.ndarray]:
    return _data()


COST = [[0.0, 1.0], [5.0, 0.0]]


@pytest.fixture(scope="module")
def result(data) -> Report:
    return assay.report(
        data,
        target="y",
        scores=list(MODELS),
        cost=COST,
        n_resamples=N_RESAMPLES,
        rng=SEED,
    )


def _interval(result) -> tuple[float, float]:
    low, high = result.confidence_interval
    return (float(low), float(high))


def test_data_summary(result, data) -> None:
    summary = result.data
    assert summary.n_rows == N_ROWS and summary.n_dropped == 0
    assert summary.labels == (0, 1) and summary.pos_label == 1
    assert summary.positive_weight == data["y"].sum()
    assert summary.prevalence == data["y"].mean()
    assert summary.majority_label == 0  # prevalence 0.35
    assert result.settings.rng_seed == SEED and result.settings.n_resamples == N_RESAMPLES


@pytest.mark.parametrize("name", MODELS)
def test_ranking_rows_are_the_functions(result, data, name) -> None:
    y, score = data["y"], data[name]
    model = result.model(name)
    delong = assay.auc_ci(y, score)
    assert model.row("roc_auc").estimate == delong.estimate
    assert model.row("roc_auc").interval == _interval(delong)
    if name == MODELS[0]:  # the report's draw is the first model's bootstrap (untied scores);
        # the others' rows are checked against the reference on that draw (test_report_draw)
        booted = assay.bootstrap(assay.roc_auc_score, y, score, n_resamples=N_RESAMPLES, rng=SEED)
        assert model.row("roc_auc_bootstrap").interval == _interval(booted)
    assert model.row("average_precision").estimate == assay.average_precision_score(y, score)
    assert model.row("pr_auc").estimate == assay.pr_auc_score(y, score)
    assert model.row("equal_error_rate").estimate == assay.equal_error_rate(y, score)


@pytest.mark.parametrize("weighted", [False, True])
def test_ranking_rows_of_few_distinct_scores_are_the_functions(weighted) -> None:
    # 4096 rows of 2-decimal scores: every model's sort groups its tie groups by hashing
    # (the report sorts each model once for all these rows; the functions sort again)
    rng = np.random.default_rng(11)
    n = 4096
    y = np.where(rng.random(n) < 0.3, 1, -1)
    data = {"y": y, "a": np.round((y > 0) * 0.3 + rng.random(n), 2)}
    data["b"] = np.round(data["a"] + rng.normal(scale=0.3, size=n), 1)
    data["w"] = rng.integers(0, 6, n).astype(float)  # zero weights too (the Wilson interval
    # of the error rate takes frequencies: whole numbers)
    weight = "w" if weighted else None
    common = {"sample_weight": data["w"] if weighted else None, "pos_label": 1}
    result = assay.report(
        data, target="y", scores=["a", "b"], weight=weight, pos_label=1,
        n_resamples=N_RESAMPLES, rng=SEED,
    )  # fmt: skip
    for name in ("a", "b"):
        model = result.model(name)
        delong = assay.auc_ci(y, data[name], **common)
        assert model.row("roc_auc").estimate == delong.estimate
        assert model.row("roc_auc").interval == _interval(delong)
        functions = {
            "average_precision": assay.average_precision_score,
            "pr_auc": assay.pr_auc_score,
            "equal_error_rate": assay.equal_error_rate,
        }
        for key, function in functions.items():
            assert model.row(key).estimate == function(y, data[name], **common)
    if not weighted:  # the draw's paired bootstrap takes each model's ROC AUC as estimate
        pair = result.pairs[0].row("roc_auc_bootstrap")
        difference = assay.roc_auc_score(y, data["a"], pos_label=1) - assay.roc_auc_score(
            y, data["b"], pos_label=1
        )
        assert pair.estimate == difference


@pytest.mark.parametrize("name", MODELS)
def test_threshold_rows_are_the_functions(result, data, name) -> None:
    y = data["y"]
    pred = (data[name] >= 0.5).astype(np.int64)
    model = result.model(name)
    assert np.array_equal(model.confusion_matrix, assay.confusion_matrix(y, pred))
    wilson = assay.error_rate_ci(y, pred)
    assert model.row("error_rate").estimate == wilson.estimate
    assert model.row("error_rate").interval == _interval(wilson)
    cases = [
        ("precision", assay.precision_score, {"zero_division": np.nan}),
        ("recall", assay.recall_score, {"zero_division": np.nan}),
        ("f1", assay.f1_score, {"zero_division": np.nan}),
        ("mcc", assay.matthews_corrcoef, {"zero_division": np.nan}),
        ("balanced_accuracy", assay.balanced_accuracy_score, {}),
        ("expected_cost", assay.expected_cost, {"cost_matrix": np.asarray(COST)}),
    ]
    for key, metric, keywords in cases:
        # the intervals come from the report's draw: checked in test_report_draw.py
        direct = assay.bootstrap(metric, y, pred, n_resamples=N_RESAMPLES, rng=SEED, **keywords)
        assert model.row(key).estimate == direct.estimate, key


def test_majority_baseline_by_hand(result, data) -> None:
    y = data["y"]
    prevalence = y.mean()
    # The majority class is negative: every row predicted 0, every score the same.
    row = result.model("a").row
    assert row("error_rate").baseline == pytest.approx(prevalence)
    assert row("recall").baseline == 0.0
    assert math.isnan(row("precision").baseline)  # nothing predicted positive
    assert math.isnan(row("mcc").baseline)
    assert row("balanced_accuracy").baseline == 0.5
    assert row("roc_auc").baseline == 0.5
    assert row("average_precision").baseline == pytest.approx(prevalence)
    # Every row costs c10 = 5 when positive (a miss), 0 when negative.
    assert row("expected_cost").baseline == pytest.approx(5 * prevalence)


def test_pairs_are_the_functions(result, data) -> None:
    y = data["y"]
    assert [(p.model_a, p.model_b) for p in result.pairs] == list(combinations(MODELS, 2))
    for pair in result.pairs:
        a, b = pair.model_a, pair.model_b
        pred_a = (data[a] >= 0.5).astype(np.int64)
        pred_b = (data[b] >= 0.5).astype(np.int64)
        delong = assay.delong_test(y, data[a], data[b])
        assert pair.row("delong").estimate == delong.estimate
        assert pair.row("delong").pvalue == delong.pvalue
        assert pair.row("delong").statistic == delong.statistic
        mcnemar = assay.mcnemar(y, pred_a, pred_b)
        assert pair.row("mcnemar").pvalue == mcnemar.pvalue
        auc = assay.compare(
            assay.roc_auc_score, y, data[a], data[b], n_resamples=N_RESAMPLES, rng=SEED
        )
        assert pair.row("roc_auc_bootstrap").estimate == auc.difference
        if a == MODELS[0]:  # the report's draw is compare's draw of the first model's pairs
            assert pair.row("roc_auc_bootstrap").interval == _interval(auc)
            assert pair.row("roc_auc_bootstrap").pvalue == auc.pvalue
        f1 = assay.compare(
            assay.f1_score, y, pred_a, pred_b, n_resamples=N_RESAMPLES, rng=SEED,
            zero_division=np.nan,
        )  # fmt: skip
        assert pair.row("f1_bootstrap").estimate == f1.difference  # its interval: the draw's


@pytest.mark.parametrize("key", ["delong", "mcnemar", "roc_auc_bootstrap", "f1_bootstrap"])
def test_holm_across_pairs_is_statsmodels(result, key) -> None:
    raw = [pair.row(key).pvalue for pair in result.pairs]
    expected = multipletests(raw, method="holm")[1]
    adjusted = [pair.row(key).pvalue_holm for pair in result.pairs]
    np.testing.assert_allclose(adjusted, expected, rtol=0, atol=HOLM_TOLERANCE)


def test_weights_and_groups_reach_every_function(data) -> None:
    result = assay.report(
        data, target="y", scores=["a", "b"], weight="w", group="g",
        n_resamples=N_RESAMPLES, rng=SEED,
    )  # fmt: skip
    y, w, g = data["y"], data["w"], data["g"]
    model = result.model("a")
    assert model.row("roc_auc").interval == _interval(assay.auc_ci(y, data["a"], sample_weight=w))
    booted = assay.bootstrap(
        assay.roc_auc_score, y, data["a"], n_resamples=N_RESAMPLES, rng=SEED,
        sample_weight=w, groups=g,
    )  # fmt: skip
    assert model.row("roc_auc_bootstrap").interval == _interval(booted)
    assert result.data.total_weight == w.sum()
    assert result.data.prevalence == pytest.approx(w[y == 1].sum() / w.sum())
    pair = result.pairs[0]
    assert [row.key for row in pair.rows] == ["delong", "roc_auc_bootstrap", "f1_bootstrap"]
    assert "McNemar" in pair.notes[0]


def test_groups_leave_mcnemar_out_and_say_that_delong_ignores_them(data) -> None:
    # McNemar's and DeLong's tests treat rows as independent; grouped rows are not
    result = assay.report(
        data, target="y", scores=["a", "b"], group="g", n_resamples=N_RESAMPLES, rng=SEED
    )
    pair = result.pairs[0]
    assert [row.key for row in pair.rows] == ["delong", "roc_auc_bootstrap", "f1_bootstrap"]
    assert pair.notes == (
        "McNemar's test is left out: it treats the rows as independent, and this report "
        "has groups.",
    )
    assert DELONG_GROUPS_NOTE in result.notes
    assert "read the bootstrap rows" in result.to_text()
    ungrouped = assay.report(
        data, target="y", scores=["a", "b"], n_resamples=N_RESAMPLES, rng=SEED
    )
    assert "mcnemar" in [row.key for row in ungrouped.pairs[0].rows]
    assert DELONG_GROUPS_NOTE not in ungrouped.notes


def test_rng_none_records_a_seed_that_reproduces(data) -> None:
    first = assay.report(data, target="y", scores="a", n_resamples=N_RESAMPLES)
    again = assay.report(
        data, target="y", scores="a", n_resamples=N_RESAMPLES, rng=first.settings.rng_seed
    )
    assert first.to_dict() == again.to_dict()
    assert first.pairs == ()


def test_string_labels_and_pos_label(data) -> None:
    table = dict(data, y=np.where(data["y"] == 1, "sick", "well"))
    result = assay.report(
        table, target="y", scores="a", pos_label="sick", n_resamples=N_RESAMPLES, rng=SEED
    )
    assert result.data.labels == ("sick", "well") and result.data.pos_label == "sick"
    assert result.model("a").row("roc_auc").estimate == assay.roc_auc_score(data["y"], data["a"])


def test_prediction_columns(data) -> None:
    table = dict(data, pa=(data["a"] > 1.0).astype(int), pb=(data["b"] > 0.0).astype(int))
    result = assay.report(
        table, target="y", scores=["a", "b"], pred=["pa", "pb"], n_resamples=N_RESAMPLES, rng=SEED
    )
    assert result.model("a").prediction == "pa"
    assert np.array_equal(
        result.model("b").confusion_matrix, assay.confusion_matrix(data["y"], table["pb"])
    )


def test_threshold_moves_the_prediction(data) -> None:
    result = assay.report(
        data, target="y", scores="a", threshold=1.0, n_resamples=N_RESAMPLES, rng=SEED
    )
    pred = (data["a"] >= 1.0).astype(int)
    assert np.array_equal(
        result.model("a").confusion_matrix, assay.confusion_matrix(data["y"], pred)
    )


def test_dataframe_input(data) -> None:
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame(data)
    from_frame = assay.report(frame, target="y", scores="a", n_resamples=N_RESAMPLES, rng=SEED)
    from_dict = assay.report(data, target="y", scores="a", n_resamples=N_RESAMPLES, rng=SEED)
    assert from_frame.to_dict()["models"] == from_dict.to_dict()["models"]


def test_missing_values_raise_or_are_dropped(data) -> None:
    score = data["b"].copy()
    score[[4, 17, 90]] = np.nan
    table = dict(data, b=score)
    message = (
        r"column 'b' has 3 missing value\(s\) \(first rows, counted from 0: 4, 17, 90\); "
        r"drop those rows with dropna=True"
    )
    with pytest.raises(ValueError, match=message):
        assay.report(table, target="y", scores=["a", "b"], n_resamples=N_RESAMPLES, rng=SEED)
    dropped = assay.report(
        table, target="y", scores=["a", "b"], dropna=True, n_resamples=N_RESAMPLES, rng=SEED
    )
    keep = ~np.isnan(score)
    assert dropped.data.n_dropped == 3 and dropped.data.n_rows == N_ROWS - 3
    expected = assay.roc_auc_score(data["y"][keep], data["a"][keep])
    assert dropped.model("a").row("roc_auc").estimate == expected


def test_missing_labels_in_an_object_column(data) -> None:
    labels = np.where(data["y"] == 1, "sick", "well").astype(object)
    labels[[2, 3]] = None
    with pytest.raises(ValueError, match=r"column 'y' has 2 missing value\(s\) \(first rows, "
                       r"counted from 0: 2, 3\)"):  # fmt: skip
        assay.report(dict(data, y=labels), target="y", scores="a", pos_label="sick")


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"target": "nope", "scores": "a"}, r"column\(s\) 'nope' not found in `data`"),
        ({"target": "y", "scores": []}, r"`scores` must be a column name or a list"),
        ({"target": "y", "scores": ["a", "a"]}, r"`scores` names a column more than once"),
        ({"target": 3, "scores": "a"}, r"`target` must be a column name; got 3"),
        ({"target": "y", "scores": "a", "weight": 1}, r"`weight` must be a column name or None"),
        ({"target": "y", "scores": ["a", "b"], "pred": "a"},
         r"`pred` names 1 column\(s\) for 2 score column\(s\)"),
        ({"target": "y", "scores": "a", "threshold": "x"}, r"`threshold` must be a number"),
        ({"target": "y", "scores": "a", "threshold": np.inf}, r"`threshold` must be finite"),
        ({"target": "y", "scores": "a", "cost": [1, 2, 3]}, r"`cost` must be a 2 x 2 cost matrix"),
        ({"target": "y", "scores": "a", "cost": [0, 1, np.nan, 0]}, r"`cost` must be finite"),
        ({"target": "y", "scores": "a", "pos_label": 7},
         r"`pos_label` 7 is not a label of column 'y': \[0, 1\]"),
        ({"target": "g", "scores": "a"}, r"column 'g' must hold exactly two labels; it holds 60"),
        ({"target": "y", "scores": "a", "n_resamples": 0}, r"n_resamples"),
        ({"target": "y", "scores": "a", "confidence_level": 1.5}, r"confidence_level"),
    ],
)  # fmt: skip
def test_errors(data, keywords, message) -> None:
    with pytest.raises(ValueError, match=message):
        assay.report(data, **keywords)


def test_error_labels_need_pos_label(data) -> None:
    table = dict(data, y=np.where(data["y"] == 1, "sick", "well"))
    with pytest.raises(ValueError, match=r"column 'y' holds labels \['sick', 'well'\]; pass "
                       r"`pos_label` \(--pos-label\)"):  # fmt: skip
        assay.report(table, target="y", scores="a")


def test_error_prediction_labels_unknown(data) -> None:
    table = dict(data, p=np.full(N_ROWS, 5))
    with pytest.raises(ValueError, match=r"column 'p' holds labels \[5\] that are not labels"):
        assay.report(table, target="y", scores="a", pred="p")


def test_error_non_numeric_scores(data) -> None:
    table = dict(data, a=np.array(["x"] * N_ROWS, dtype=object))
    with pytest.raises(ValueError, match=r"column 'a' must hold numbers; got \['x', 'x', 'x'\]"):
        assay.report(table, target="y", scores="a")


def test_error_data_type_and_lengths(data) -> None:
    with pytest.raises(TypeError, match=r"`data` must be a mapping of column names to arrays"):
        assay.report([1, 2], target="y", scores="a")
    with pytest.raises(ValueError, match=r"the columns of `data` differ in length"):
        assay.report({"y": data["y"], "a": data["a"][:5]}, target="y", scores="a")


def test_schema_and_json(result) -> None:
    import json

    document = json.loads(result.to_json())
    assert document["schema"] == SCHEMA == "assay.report/2"
    assert set(document) == {"schema", "data", "settings", "models", "pairs", "notes"}
    first = document["models"][0]
    assert first["name"] == "a" and len(first["confusion_matrix"]) == 2
    precision = next(m for m in first["metrics"] if m["key"] == "precision")
    assert precision["baseline"] is None  # NaN is null
    assert document["settings"]["rng_seed"] == SEED
    assert len(document["pairs"]) == 3 and document["pairs"][0]["tests"][0]["key"] == "delong"


def test_str_is_one_line(result) -> None:
    assert "\n" not in str(result) and str(result).startswith("Report of 3 model(s) on 300 rows")


def test_lookup_errors(result) -> None:
    with pytest.raises(KeyError, match=r"no model 'z'"):
        result.model("z")
    with pytest.raises(KeyError, match=r"no row 'z'"):
        result.model("a").row("z")
    with pytest.raises(KeyError, match=r"no test 'z'"):
        result.pairs[0].row("z")


def test_warnings_of_the_functions_point_at_the_callers_line() -> None:
    y = np.array([0, 1] * 20)
    separated = {"y": y, "a": y + np.linspace(0, 0.5, 40)}  # AUC = 1: DeLong's SE is 0
    with pytest.warns(assay.DegenerateDataWarning, match=r"model 'a': The standard error") as got:
        assay.report(separated, target="y", scores="a", n_resamples=N_RESAMPLES, rng=SEED)
    assert all(warning.filename == __file__ for warning in got)
    messages = [str(warning.message) for warning in got]
    assert len(messages) == len(set(messages))  # each shown once


def test_mcnemar_estimate_is_the_accuracy_difference(result, data) -> None:
    y = data["y"]
    pair = result.pairs[0]
    accuracy = {name: assay.accuracy_score(y, (data[name] >= 0.5).astype(int)) for name in "ab"}
    assert pair.row("mcnemar").name == "accuracy difference, McNemar's test"
    assert pair.row("mcnemar").estimate == pytest.approx(accuracy["a"] - accuracy["b"])


def test_pos_label_as_text_matches_a_numeric_label(data) -> None:
    # The command line passes --pos-label as text: "0" names the label 0.
    result = assay.report(data, target="y", scores="a", pos_label="0", n_resamples=5, rng=SEED)
    assert result.data.pos_label == 0
    expected = assay.roc_auc_score(1 - data["y"], data["a"])
    assert result.model("a").row("roc_auc").estimate == expected


def test_progress_lines_on_standard_error(data, capsys) -> None:
    assay.report(data, target="y", scores=["a", "b"], n_resamples=5, rng=SEED, progress=True)
    error = capsys.readouterr().err
    for line in ("report: reading 3 column(s)", "report: model 'a'", "report: paired tests"):
        assert line in error
    assay.report(data, target="y", scores="a", n_resamples=5, rng=SEED)
    assert capsys.readouterr().err == ""


def test_roc_auc_bootstrap_rows_come_from_the_reports_draw(data, monkeypatch) -> None:
    # One draw serves every model's ROC AUC row: no model is bootstrapped on its own, and
    # the first model's row is still the public function's (untied scores).
    calls = []
    public = assay.bootstrap

    def counted(metric, *args, **kwargs):
        calls.append(getattr(metric, "__name__", metric))
        return public(metric, *args, **kwargs)

    monkeypatch.setattr(assay, "bootstrap", counted)
    result = assay.report(data, target="y", scores=list(MODELS), n_resamples=N_RESAMPLES, rng=SEED)
    assert calls.count("roc_auc_score") == 0
    direct = public(assay.roc_auc_score, data["y"], data["a"], n_resamples=N_RESAMPLES, rng=SEED)
    assert result.model("a").row("roc_auc_bootstrap").interval == _interval(direct)


def test_weighted_report_bootstraps_roc_auc_as_before(data) -> None:
    # With weights (or groups, or the Poisson bootstrap) the report keeps compare's paired
    # bootstraps: every pair is compare's, and the last model is bootstrapped on its own.
    result = assay.report(data, target="y", scores=["a", "b"], weight="w",
                          n_resamples=N_RESAMPLES, rng=SEED)  # fmt: skip
    keywords = {"sample_weight": data["w"], "n_resamples": N_RESAMPLES, "rng": SEED}
    direct = assay.bootstrap(assay.roc_auc_score, data["y"], data["b"], **keywords)
    assert result.model("b").row("roc_auc_bootstrap").interval == _interval(direct)
    pair = assay.compare(assay.roc_auc_score, data["y"], data["a"], data["b"], **keywords)
    assert result.pairs[0].row("roc_auc_bootstrap").interval == _interval(pair)


def test_report_lets_go_of_the_label_column_it_read(data, monkeypatch) -> None:
    # The labels live on as one byte a row: the column read (int64 here) is let go
    # before the resampling starts, so it is no part of the report's peak memory.
    from assay.reports import _build

    read: dict[str, weakref.ref] = {}

    def reading(path, columns):
        table = {name: np.array(data[name]) for name in columns}  # copies: only here
        read.update((name, weakref.ref(values)) for name, values in table.items())
        return table

    alive_then: dict[str, bool] = {}
    drawing = _build.draw_replicates

    def drawn(*args, **kwargs):
        alive_then.update((name, ref() is not None) for name, ref in read.items())
        return drawing(*args, **kwargs)

    monkeypatch.setattr(_build, "read_columns", reading)
    monkeypatch.setattr(_build, "draw_replicates", drawn)
    result = assay.report("scores.parquet", target="y", scores=["a", "b"], n_resamples=5,
                          rng=SEED)  # fmt: skip
    assert alive_then == {"y": False, "a": True, "b": True}
    assert result.model("a").row("roc_auc").estimate == assay.roc_auc_score(data["y"], data["a"])
