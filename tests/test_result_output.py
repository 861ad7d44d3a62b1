"""Every public result type, built by the public function that returns it, reads well
(``str``), shows everything (``repr``), renders in a notebook (``_repr_html_``) and is
stored as valid JSON (``to_dict``, ``to_json``)."""

from __future__ import annotations

import dataclasses
import html.parser
import json
import math
import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import assay
import assay._results
from assay._results import (
    AucCovariance,
    BiasVarianceResult,
    Bootstrap632Result,
    BootstrapResult,
    BrierDecomposition,
    ComparisonResult,
    CrossValidationResult,
    FriedmanResult,
    IntervalArrayResult,
    IntervalResult,
    ModelComparisonResult,
    NestedCrossValidationResult,
    PermutationTestResult,
    PosteriorFdrResult,
    PosthocResult,
    RankModelsResult,
    SelectionResult,
    TestResult,
    ThresholdResult,
)
from assay.metrics._registry import METRICS
from assay.protocols import (
    KNNClassifier,
    PolynomialExample,
    PolynomialRegression,
    RepeatedStratifiedKFold,
    bias_variance,
    bootstrap_632,
    compare_models,
    cross_validate,
    decompose,
    nested_cross_validate,
    select_hyperparameter,
)

# --- Small seeded inputs. ---

_GENERATOR = np.random.default_rng(20240611)
Y = _GENERATOR.integers(0, 2, 60)
SCORE_A = Y + _GENERATOR.normal(0.0, 1.0, 60)
SCORE_B = Y + _GENERATOR.normal(0.0, 1.5, 60)
PRED_A = (SCORE_A > 0.5).astype(int)
PRED_B = (SCORE_B > 0.5).astype(int)
FOLD_A = np.array([0.81, 0.79, 0.84, 0.80, 0.77, 0.83, 0.82, 0.78, 0.80, 0.85])
FOLD_B = np.array([0.78, 0.80, 0.80, 0.76, 0.75, 0.80, 0.79, 0.77, 0.74, 0.82])
RANK_SCORES = {
    "tree": [0.90, 0.70, 0.88, 0.95, 0.60],
    "forest": [0.85, 0.72, 0.80, 0.93, 0.55],
    "<svm & co>": [0.80, 0.60, 0.79, 0.90, 0.58],  # a name that HTML must escape
}


class _Threshold:
    """A fixed classifier: predicts 1 above a cut on the first feature."""

    def __init__(self, cut: float = 0.5) -> None:
        self.cut = cut

    def fit(self, X: np.ndarray, y: np.ndarray) -> _Threshold:
        return self

    def predict(self, X: np.ndarray) -> np.ndarray:
        return (X[:, 0] > self.cut).astype(int)

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        return X[:, 0] - self.cut


X = SCORE_A.reshape(-1, 1)


def _quietly(build: Callable[[], Any]) -> Callable[[], Any]:
    """``build`` with assay's warnings about degenerate inputs silenced (2 models ...)."""

    def run() -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", assay.AssayWarning)
            return build()

    return run


# Result type -> {case: a call of the public function that returns it}.  A new result type
# exported from assay._results must be added here (test_every_result_type_is_built).
BUILDERS: dict[type, dict[str, Callable[[], Any]]] = {
    BootstrapResult: {
        "bootstrap": lambda: assay.bootstrap(
            assay.roc_auc_score, Y, SCORE_A, n_resamples=200, method="bca", rng=1
        ),
    },
    ComparisonResult: {
        "compare-bootstrap": lambda: assay.compare(
            assay.roc_auc_score, Y, SCORE_A, SCORE_B, n_resamples=200, rng=2
        ),
        # the permutation comparison has no interval: NaN bounds
        "compare-permutation": lambda: assay.compare(
            "accuracy_score", Y, PRED_A, PRED_B, method="permutation", n_resamples=99, rng=3
        ),
    },
    PermutationTestResult: {
        "permutation_test": lambda: assay.permutation_test(
            assay.accuracy_score, Y, PRED_A, n_resamples=99, rng=4
        ),
    },
    IntervalResult: {
        "proportion_ci": lambda: assay.proportion_ci(15, 20),
        "difference_ci": lambda: assay.difference_ci(15, 20, 9, 20),
        "mean_ci": lambda: assay.mean_ci(FOLD_A),
        "auc_ci": lambda: assay.auc_ci(Y, SCORE_A),
    },
    IntervalArrayResult: {
        "proportion_ci-array": lambda: assay.proportion_ci([3, 15, 20], 20),
    },
    TestResult: {
        "delong_test": lambda: assay.delong_test(Y, SCORE_A, SCORE_B),
        "delong_test_unpaired": lambda: assay.delong_test_unpaired(Y, SCORE_A, Y, SCORE_B),
        "mcnemar-exact": lambda: assay.mcnemar(Y, PRED_A, PRED_B),
        "mcnemar-asymptotic": lambda: assay.mcnemar(Y, PRED_A, PRED_B, method="asymptotic"),
        "cochrans_q": lambda: assay.cochrans_q(Y, PRED_A, PRED_B, 1 - PRED_A),
        "paired_ttest": lambda: assay.paired_ttest(FOLD_A, FOLD_B),
        "welch_ttest": lambda: assay.welch_ttest(FOLD_A, FOLD_B, alternative="greater"),
        "corrected_resampled_ttest": lambda: assay.corrected_resampled_ttest(
            FOLD_A, FOLD_B, 90, 10
        ),
        "ttest_5x2cv": lambda: assay.ttest_5x2cv(FOLD_A.reshape(5, 2), FOLD_B.reshape(5, 2)),
        "ftest_5x2cv": lambda: assay.ftest_5x2cv(FOLD_A.reshape(5, 2), FOLD_B.reshape(5, 2)),
        "wilcoxon_signed_rank": lambda: assay.wilcoxon_signed_rank(FOLD_A, FOLD_B),
        "sign_test": lambda: assay.sign_test(FOLD_A, FOLD_B),
    },
    AucCovariance: {
        "delong_covariance": lambda: assay.delong_covariance(Y, SCORE_A, SCORE_B),
    },
    FriedmanResult: {
        "friedman": lambda: assay.friedman(RANK_SCORES),
    },
    PosthocResult: {
        "nemenyi": lambda: assay.nemenyi(RANK_SCORES),
        "bonferroni_dunn": lambda: assay.bonferroni_dunn(RANK_SCORES, control="tree"),
    },
    RankModelsResult: {
        "rank_models": lambda: assay.rank_models(RANK_SCORES, control="tree"),
    },
    BiasVarianceResult: {
        "decompose": lambda: decompose([[1.0, 2.0], [3.0, 2.0]], [2.0, 0.0], loss="zero_one"),
        "bias_variance": lambda: bias_variance(
            PolynomialRegression(1), PolynomialExample(), np.linspace(-1, 1, 5), n_rounds=20, rng=5
        ),
    },
    CrossValidationResult: {
        "cross_validate": lambda: cross_validate(
            _Threshold(), X, Y, cv=5, metrics=["accuracy_score", "roc_auc_score"]
        ),
    },
    ModelComparisonResult: {
        "compare_models": lambda: compare_models(
            _Threshold(0.5),
            _Threshold(0.0),
            X,
            Y,
            cv=RepeatedStratifiedKFold(2, 5, rng=6),
        ),
    },
    Bootstrap632Result: {
        "bootstrap_632": lambda: bootstrap_632(
            _Threshold, X, Y, n_resamples=30, method=".632+", rng=7
        ),
    },
    SelectionResult: {
        "select_hyperparameter-validation": lambda: select_hyperparameter(
            KNNClassifier,
            [1, 3, 5],
            X[:30],
            Y[:30],
            validation=(X[30:45], Y[30:45]),
            test=(X[45:], Y[45:]),
        ),
        "select_hyperparameter-cv": lambda: select_hyperparameter(
            KNNClassifier,
            [1, 3, 5],
            X,
            Y,
            cv=5,
            metric="f1_score",
            test=(X, Y),
            rule="one_standard_error",
            n_resamples=50,
            rng=8,
        ),
    },
    NestedCrossValidationResult: {
        "nested_cross_validate": lambda: nested_cross_validate(
            KNNClassifier, [1, 3, 5], X, Y, cv=3, inner_cv=3, rng=9
        ),
    },
    BrierDecomposition: {
        "brier_decomposition": lambda: assay.brier_decomposition(
            Y, np.clip(SCORE_A / 3.0 + 0.5, 0.0, 1.0), strategy="quantile"
        ),
    },
    PosteriorFdrResult: {
        "posterior_fdr_threshold": lambda: assay.posterior_fdr_threshold(
            np.clip(SCORE_A / 3.0 + 0.5, 0.0, 1.0), 0.2
        ),
    },
    ThresholdResult: {
        "optimal_threshold": lambda: assay.optimal_threshold(
            Y, SCORE_A, metric="f1_score", n_resamples=100, rng=9
        ),
        "optimal_threshold-cost": lambda: assay.optimal_threshold(
            Y, SCORE_A, cost_matrix=[[0, 1], [3, 0]], n_resamples=0
        ),
    },
}

CASES = [
    pytest.param((result_type, _quietly(build)), id=case)
    for result_type, builds in BUILDERS.items()
    for case, build in builds.items()
]
TEST_CASES = [case for case in CASES if case.values[0][0] is TestResult]
# Results whose str is a summary of several lines (a ranking: the tests and two tables)
# and whose notebook HTML is those tables rather than one row per field.
SUMMARY_TABLES = (RankModelsResult,)
_BUILT: dict[str, Any] = {}


@pytest.fixture(params=CASES)
def built(request: pytest.FixtureRequest) -> Any:
    """(result type, the result built by its public function), built once per case."""
    result_type, build = request.param
    case = request.node.callspec.id
    if case not in _BUILT:
        _BUILT[case] = build()
    return result_type, _BUILT[case]


def test_every_result_type_is_built() -> None:
    exported = {
        value
        for value in vars(assay._results).values()
        if isinstance(value, type) and dataclasses.is_dataclass(value)
    }
    assert exported == set(BUILDERS)


def test_the_builders_return_their_type(built) -> None:
    result_type, result = built
    assert type(result) is result_type


# --- str: one readable line. ---


def test_str_is_one_short_line(built) -> None:
    result_type, result = built
    if result_type in SUMMARY_TABLES:
        pytest.skip("a summary of several lines; see test_summary_tables_escape_every_name")
    text = str(result)
    assert "\n" not in text and 20 < len(text) <= 200
    assert not text.startswith(type(result).__name__ + "(")
    assert re.search(r"\bnan\b", text) is None  # an undefined interval is left out


def test_str_names_the_metric_readably(built) -> None:
    _, result = built
    for name in getattr(result, "metrics", None) or [getattr(result, "metric", None)]:
        if name is not None:
            assert METRICS[name].readable_name in str(result)
            assert name not in str(result)


def test_a_callable_metric_is_shown_by_its_name() -> None:
    def balanced_error(y_true, y_pred, sample_weight=None):
        return 1.0 - assay.balanced_accuracy_score(y_true, y_pred, sample_weight=sample_weight)

    result = assay.bootstrap(balanced_error, Y, PRED_A, n_resamples=50, rng=8)
    assert str(result).startswith(f"balanced_error {result.estimate:.4f} [")


@pytest.mark.parametrize("built", TEST_CASES, indirect=True)
def test_test_statistics_have_their_symbols(built) -> None:
    _, result = built
    symbol = str(result).split(": ", 1)[1].split(" = ", 1)[0]
    expected = {
        "t-test": "t",
        "F-test": "F",
        "correlated ROC": "z",
        "two ROC curves": "t",  # the unpaired DeLong test uses Welch's df
        "McNemar, exact": "b",
        "chi-squared": "chi2",
        "Cochran": "Q",
        "Wilcoxon": "W+",
        "sign test": "wins",
    }
    wanted = next(symbol for phrase, symbol in expected.items() if phrase in result.method)
    assert symbol.split("(")[0] == wanted
    if result.df is not None:
        degrees = result.df if isinstance(result.df, tuple) else (result.df,)
        assert symbol == wanted + "(" + ", ".join(f"{d:.4g}" for d in degrees) + ")"


# --- repr: complete. ---


def test_repr_names_every_field(built) -> None:
    _, result = built
    text = repr(result)
    assert text.startswith(f"{type(result).__name__}(\n") and text.endswith("\n)")
    for field in dataclasses.fields(result):
        assert f"\n    {field.name}=" in text


# --- _repr_html_: a table of escaped text. ---


class _TableReader(html.parser.HTMLParser):
    """The caption and the (header, cell) rows of a table, as text (entities decoded)."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.caption = ""
        self.rows: list[list[str]] = []
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.tags.append(tag)
        self._open.append(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("th", "td"):
            self.rows[-1].append("")

    def handle_endtag(self, tag: str) -> None:
        assert self._open.pop() == tag, f"</{tag}> closes another element"

    def handle_data(self, data: str) -> None:
        if "caption" in self._open:
            self.caption += data
        elif "th" in self._open or "td" in self._open:
            self.rows[-1][-1] += data


def _read_table(markup: str) -> _TableReader:
    reader = _TableReader()
    reader.feed(markup)
    reader.close()
    assert not reader._open, "unclosed elements"
    return reader


def test_html_is_a_table_of_every_field(built) -> None:
    result_type, result = built
    if result_type in SUMMARY_TABLES:
        pytest.skip("the tables of the summary; see test_summary_tables_escape_every_name")
    table = _read_table(result._repr_html_())
    assert table.tags[0] == "table"
    assert set(table.tags) <= {"table", "caption", "b", "tbody", "tr", "th", "td", "code"}
    assert table.caption == f"{type(result).__name__}: {result}"
    assert [row[0] for row in table.rows] == [field.name for field in dataclasses.fields(result)]
    assert all(len(row) == 2 and row[1] for row in table.rows)


_HOSTILE = '<script>alert("x")</script> & <b>'


def _with_hostile_strings(result: Any) -> Any:
    """``result`` with every plain string field replaced by markup."""
    names = [field.name for field in dataclasses.fields(result) if field.type == "str"]
    return dataclasses.replace(result, **{name: _HOSTILE for name in names}), names


def test_html_escapes_every_value(built) -> None:
    result_type, result = built
    if result_type in SUMMARY_TABLES:
        pytest.skip("the tables of the summary; see test_summary_tables_escape_every_name")
    hostile, names = _with_hostile_strings(result)
    if not names:  # a cross-validation carries strings only as metric names
        pytest.skip("no plain string field; see test_html_escapes_a_metric_name")
    markup = hostile._repr_html_()
    assert "<script>" not in markup and "<b>" not in markup.replace(
        "<b>" + type(result).__name__, ""
    )
    table = _read_table(markup)
    shown = dict((row[0], row[1]) for row in table.rows)
    for name in names:
        assert shown[name] == repr(_HOSTILE)
    assert table.caption == f"{type(result).__name__}: {hostile}"


def test_summary_tables_escape_every_name() -> None:
    result = _quietly(lambda: assay.rank_models(RANK_SCORES, control="<svm & co>"))()
    for markup in (result._repr_html_(), result.to_html(diagram=False)):
        assert "<svm" not in markup and "&lt;svm &amp; co&gt;" in markup
    table = _read_table(result._repr_html_())
    assert "<svm & co>" in [row[1] for row in table.rows if len(row) > 1]
    assert "<svm & co>" in str(result).splitlines()[10]  # the models' table, as text


def test_html_escapes_a_metric_name() -> None:
    def metric(y_true, y_pred):
        return assay.accuracy_score(y_true, y_pred)

    metric.__name__ = _HOSTILE
    result = cross_validate(_Threshold(), X, Y, cv=5, metrics=[metric])
    markup = result._repr_html_()
    assert "<script>" not in markup
    table = _read_table(markup)
    assert table.caption == f"CrossValidationResult: {result}"
    assert _HOSTILE in table.caption


# --- to_dict and to_json: valid JSON, NaN as null. ---


def test_to_dict_is_strict_json(built) -> None:
    _, result = built
    data = result.to_dict()
    assert list(data) == [field.name for field in dataclasses.fields(result)]
    text = json.dumps(data, allow_nan=False)
    assert json.loads(text) == data


def test_to_json_is_the_dict_and_takes_json_options(built) -> None:
    _, result = built
    assert json.loads(result.to_json()) == result.to_dict()
    assert result.to_json(indent=2, sort_keys=True) == json.dumps(
        result.to_dict(), indent=2, sort_keys=True
    )


def test_undefined_values_are_null() -> None:
    result = BootstrapResult(
        estimate=0.5,
        confidence_interval=(math.nan, math.inf),
        standard_error=math.nan,
        bias=-math.inf,
        bootstrap_distribution=[0.25, math.nan, math.inf, 0.75],
        method="percentile",
        confidence_level=0.95,
        n_resamples=4,
        n_undefined=0,
        rng_seed=None,
        metric="roc_auc_score",
    )
    data = json.loads(result.to_json())
    assert data["confidence_interval"] == {"low": None, "high": None}
    assert data["standard_error"] is None and data["bias"] is None
    assert data["bootstrap_distribution"] == [0.25, None, None, 0.75]
    assert data["estimate"] == 0.5
    assert "standard_error=nan," in repr(result)  # repr keeps the float


def test_nan_in_matrices_details_and_nested_results_is_null() -> None:
    posthoc = assay.nemenyi(RANK_SCORES).to_dict()
    assert [posthoc["z_statistic"][j][j] for j in range(3)] == [None, None, None]
    assert all(isinstance(posthoc["z_statistic"][0][j], float) for j in (1, 2))
    with pytest.warns(assay.DegenerateDataWarning, match="no discordant"):
        mcnemar = assay.mcnemar(Y, PRED_A, PRED_A)  # no discordant pair: z_source is NaN
    assert mcnemar.to_dict()["details"]["z_source"] is None
    comparison = assay.compare(
        "accuracy_score", Y, PRED_A, PRED_B, method="permutation", n_resamples=99, rng=3
    )
    assert comparison.to_dict()["confidence_interval"] == {"low": None, "high": None}
    with pytest.warns(assay.DegenerateDataWarning):
        folds = cross_validate(_Threshold(), X, Y, cv=[(np.arange(30), np.arange(30, 60))])
    interval = folds.to_dict()["interval"]["accuracy_score"]  # one split: no interval
    assert interval["confidence_interval"] == {"low": None, "high": None}
