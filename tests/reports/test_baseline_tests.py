"""assay.report's tests against the majority-class baseline: ``compare_to_baseline``."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import warnings
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import assay
from assay import reference
from assay.reports import BaselineTest, Report
from assay.reports._baseline_tests import GROUPS_NOTE

SEED = 20261126
N_ROWS = 300
N_RESAMPLES = 30  # small: the numbers are compared with the direct calls, not judged
COST = [[0.0, 1.0], [5.0, 0.0]]
# The exact binomial tail of McNemar's test summed by assay, by the reference (exact
# fractions) and by scipy: the same probability, rounded in different orders.
PVALUE_TOLERANCE = 1e-12


def _data() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(11)
    y = (rng.random(N_ROWS) < 0.35).astype(np.int64)
    return {
        "y": y,
        "good": y + rng.normal(size=N_ROWS),  # beats the baseline
        "noisy": y + 3 * rng.normal(size=N_ROWS),  # worse than the baseline at 0.5
        "w": rng.integers(1, 4, N_ROWS).astype(float),
        "g": rng.integers(0, 60, N_ROWS),
    }


@pytest.fixture(scope="module")
def data() -> dict[str, np.ndarray]:
    return _data()


@pytest.fixture(scope="module")
def result(data) -> Report:
    return assay.report(
        data, target="y", scores=["good", "noisy"], cost=COST, n_resamples=N_RESAMPLES, rng=SEED
    )


def _pred(data, name: str) -> np.ndarray:
    return (data[name] >= 0.5).astype(np.int64)


@pytest.mark.parametrize("name", ["good", "noisy"])
def test_error_rate_row_is_compare_to_baseline_and_the_reference(result, data, name) -> None:
    y, pred = data["y"], _pred(data, name)
    assert result.data.majority_label == 0
    row = result.model(name).baseline_test("error_rate")
    direct = assay.compare_to_baseline("error_rate", y, pred, majority_class=0, alternative="less")
    assert (row.pvalue, row.statistic) == (direct.pvalue, direct.statistic)
    assert row.estimate == -direct.estimate  # McNemar's estimate is the accuracy difference
    assert row.method == "McNemar, exact (binomial)" and row.interval is None
    # Independent: the reference's McNemar test of "the model is more accurate" ...
    twin = reference.mcnemar(y, pred, np.zeros(N_ROWS, dtype=np.int64), alternative="greater")
    assert row.pvalue == pytest.approx(twin["pvalue"], rel=PVALUE_TOLERANCE)
    # ... and scipy's binomial test of the discordant rows, counted here.
    model_right, baseline_right = pred == y, y == 0
    b = int(np.sum(model_right & ~baseline_right))
    c = int(np.sum(~model_right & baseline_right))
    binomial = stats.binomtest(b, b + c, 0.5, alternative="greater")
    assert row.statistic == b
    assert row.pvalue == pytest.approx(binomial.pvalue, rel=PVALUE_TOLERANCE)
    expected_difference = np.mean(pred != y) - np.mean(y != 0)
    assert row.estimate == pytest.approx(expected_difference, abs=1e-15)


@pytest.mark.parametrize("name", ["good", "noisy"])
def test_expected_cost_row_is_the_paired_bootstrap(result, data, name) -> None:
    y, pred = data["y"], _pred(data, name)
    row = result.model(name).baseline_test("expected_cost")
    direct = assay.compare(
        assay.expected_cost, y, pred, np.zeros(N_ROWS, dtype=np.int64),
        cost_matrix=np.asarray(COST), alternative="less", n_resamples=N_RESAMPLES, rng=SEED,
    )  # fmt: skip
    assert row.estimate == direct.difference
    assert row.interval == tuple(float(end) for end in direct.confidence_interval)
    assert row.pvalue == direct.pvalue and row.statistic is None
    assert row.method == f"{direct.interval} paired bootstrap"
    assert row.alternative == "less" and math.isinf(row.interval[0])


def test_beats_and_does_not_beat(result) -> None:
    good = result.model("good").baseline_test("error_rate")
    assert good.beats_baseline and good.estimate < 0 and good.pvalue < 0.05
    noisy = result.model("noisy").baseline_test("error_rate")
    assert noisy.estimate > 0 and noisy.pvalue > 0.5 and not noisy.beats_baseline
    for model in result.models:
        for test in model.baseline_tests:
            assert test.beats_baseline == (test.pvalue < 0.05 and test.estimate < 0)


def test_a_model_equal_to_the_baseline_has_p_one(data) -> None:
    table = dict(data, same=np.zeros(N_ROWS, dtype=np.int64))  # predicts class 0 throughout
    with warnings.catch_warnings(record=True) as caught:  # precision etc. are undefined too
        warnings.simplefilter("always")
        equal = assay.report(table, target="y", scores="good", pred="same", cost=COST,
                             n_resamples=N_RESAMPLES, rng=SEED)  # fmt: skip
    mcnemar = [w for w in caught if issubclass(w.category, assay.DegenerateDataWarning)]
    assert len(mcnemar) == 1 and mcnemar[0].filename == __file__
    assert str(mcnemar[0].message).startswith(
        "model 'good' against the majority-class baseline: The two models are right and "
        "wrong on the same examples"
    )
    cost = equal.model("good").baseline_test("expected_cost")
    assert cost.estimate == 0.0 and not cost.beats_baseline
    test = equal.model("good").baseline_test("error_rate")
    assert (test.estimate, test.pvalue, test.statistic) == (0.0, 1.0, 0.0)
    assert not test.beats_baseline


def test_weights_select_the_paired_bootstrap(data) -> None:
    y, w = data["y"], data["w"]
    weighted = assay.report(data, target="y", scores="good", weight="w",
                            n_resamples=N_RESAMPLES, rng=SEED)  # fmt: skip
    majority = int(w[y == 1].sum() >= w[y == 0].sum())
    assert weighted.data.majority_label == majority == 0
    row = weighted.model("good").baseline_test("error_rate")
    direct = assay.compare(
        assay.error_rate, y, _pred(data, "good"), np.zeros(N_ROWS, dtype=np.int64),
        sample_weight=w, alternative="less", n_resamples=N_RESAMPLES, rng=SEED,
    )  # fmt: skip
    assert (row.estimate, row.pvalue) == (direct.difference, direct.pvalue)
    assert row.interval == tuple(float(end) for end in direct.confidence_interval)
    assert row.method.endswith("paired bootstrap")


def test_groups_leave_the_tests_out_with_a_note(data) -> None:
    grouped = assay.report(data, target="y", scores="good", group="g", cost=COST,
                           n_resamples=N_RESAMPLES, rng=SEED)  # fmt: skip
    assert grouped.model("good").baseline_tests == ()
    assert grouped.notes[-1] == GROUPS_NOTE
    assert GROUPS_NOTE in grouped.to_text() and "beat the majority" not in grouped.to_text()
    with pytest.raises(KeyError, match=r"no baseline test 'error_rate'; the baseline tests are"):
        grouped.model("good").baseline_test("error_rate")


def test_a_tie_goes_to_the_positive_class_as_in_the_baseline_column() -> None:
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1], 50)
    data = {"y": y, "s": y + rng.normal(size=100)}
    tied = assay.report(data, target="y", scores="s", n_resamples=N_RESAMPLES, rng=SEED)
    assert tied.data.majority_label == 1
    pred = (data["s"] >= 0.5).astype(np.int64)
    direct = assay.compare_to_baseline("error_rate", y, pred, majority_class=1,
                                       alternative="less")  # fmt: skip
    row = tied.model("s").baseline_test("error_rate")
    assert (row.pvalue, row.statistic) == (direct.pvalue, direct.statistic)


def _test(**changes) -> BaselineTest:
    fields = {
        "key": "error_rate", "name": "error rate", "estimate": -0.1, "interval": None,
        "statistic": 30.0, "pvalue": 0.01, "alternative": "less", "method": "McNemar",
        "confidence_level": 0.95, "beats_baseline": True,
    }  # fmt: skip
    return BaselineTest(**{**fields, **changes})


def test_a_test_row_never_contradicts_itself() -> None:
    assert _test().beats_baseline
    contradiction = r"`beats_baseline`=True contradicts p = 0.2 at confidence level 0.95"
    with pytest.raises(ValueError, match=contradiction):
        _test(pvalue=0.2)
    with pytest.raises(ValueError, match=r"`beats_baseline`=True contradicts p = 0.01"):
        _test(estimate=0.1)  # significant, but on the worse side
    with pytest.raises(ValueError, match=r"`beats_baseline`=False contradicts p = 0.01"):
        _test(beats_baseline=False)
    with pytest.raises(ValueError, match=r"the interval \[-inf, 0.02\] of the difference and "
                       r"p = 0.01 disagree"):  # fmt: skip
        _test(interval=(-math.inf, 0.02))
    with pytest.raises(ValueError, match=r"`alternative` of a baseline test must be 'less' or "
                       r"'greater'.*; got 'two-sided'"):  # fmt: skip
        _test(alternative="two-sided")


def test_json_keys_and_infinite_end(result) -> None:
    document = json.loads(result.to_json())
    tests = document["models"][0]["baseline_tests"]
    assert [test["key"] for test in tests] == ["error_rate", "expected_cost"]
    keys = {"key", "name", "estimate", "interval", "statistic", "pvalue", "alternative",
            "method", "confidence_level", "beats_baseline"}  # fmt: skip
    assert all(set(test) == keys for test in tests)
    assert tests[0]["interval"] is None and tests[1]["interval"][0] is None  # -inf is null
    row = result.model("good").baseline_test("expected_cost")
    assert tests[1]["interval"][1] == row.interval[1]
    assert tests[1]["beats_baseline"] is row.beats_baseline


class _Html(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.sections: list[str] = []
        self.headings: list[tuple[str, str]] = []
        self._heading = ""

    def handle_starttag(self, tag, attrs) -> None:
        if tag == "section":
            self.sections.append(dict(attrs)["id"])
        self._heading = tag if tag in ("h2", "h3") else ""

    def handle_data(self, text) -> None:
        if self._heading:
            self.headings.append((self.sections[-1], text))
            self._heading = ""


def test_every_format_shows_the_tests(result) -> None:
    title = "Does good beat the majority baseline? (one-sided: model better; beats it: p < 0.05)"
    text = result.to_text()
    assert title in text
    line = next(x for x in text.splitlines() if x.startswith("error rate  ") and "McNemar" in x)
    row = result.model("good").baseline_test("error_rate")
    assert line.split()[-3:] == [f"{row.statistic:.0f}", f"{row.pvalue:.3g}", "yes"]
    markdown = result.to_markdown()
    assert f"### {title}" in markdown
    assert "| metric | test | model - baseline | interval | statistic | p | beats it |" in markdown
    page = _Html()
    page.feed(result.to_html())
    assert page.sections == ["overview", "plots", "model-0", "confusion-0", "model-1",
                             "confusion-1", "pairs"]  # fmt: skip
    assert ("model-0", title) in page.headings  # an h3 of the model's own section


SOURCE = str(Path(assay.__file__).parents[1])


@pytest.mark.parametrize(
    "fmt",
    [
        "json",  # the numbers; the other formats render them as the Python report does
        pytest.param("text", marks=pytest.mark.slow),
        pytest.param("markdown", marks=pytest.mark.slow),
        pytest.param("html", marks=pytest.mark.slow),
    ],
)
def test_command_line_round_trip(tmp_path, data, fmt) -> None:
    rows = ["y,good,noisy"] + [
        f"{y},{float(a)!r},{float(b)!r}"
        for y, a, b in zip(data["y"], data["good"], data["noisy"], strict=True)
    ]
    path = tmp_path / "scores.csv"
    path.write_text("\n".join(rows) + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "assay.cli", "report", str(path), "--target", "y", "--score",
         "good", "--score", "noisy", "--cost", "0,1,5,0", "--resamples", str(N_RESAMPLES),
         "--seed", str(SEED), "--format", fmt, "--quiet"],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=SOURCE), timeout=600,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    expected = assay.report(
        data, target="y", scores=["good", "noisy"], cost=COST, n_resamples=N_RESAMPLES, rng=SEED
    )
    if fmt == "json":
        models = json.loads(done.stdout)["models"]
        wanted = expected.to_dict()["models"]
        assert [m["baseline_tests"] for m in models] == [m["baseline_tests"] for m in wanted]
        return
    rendered = {"text": expected.to_text, "markdown": expected.to_markdown,
                "html": expected.to_html}[fmt]()  # fmt: skip
    start = rendered.index("Does good beat")
    end = rendered.index("Confusion matrix of good")
    assert rendered[start:end] in done.stdout
