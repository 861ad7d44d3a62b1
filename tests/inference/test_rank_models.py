"""rank_models: Demsar's worked example, every input form, scipy as oracle, errors, outputs."""

from __future__ import annotations

import dataclasses
import html.parser
import json
import warnings

import numpy as np
import pandas
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

import assay
from assay import DegenerateDataWarning, rank_models
from tests.inference.test_ranks import DEMSAR, NAMES

DATASETS = [
    "adult (sample)", "breast cancer", "breast cancer wisconsin", "cmc", "ionosphere", "iris",
    "liver disorders", "lung cancer", "lymphography", "mushroom", "primary tumor", "rheum",
    "voting", "wine",
]  # fmt: skip

# p-values computed by two implementations of the same formula (scipy's and assay's)
# agree to rounding; the chi-squared and F tails go through the same special functions.
ORACLE_TOLERANCE = 1e-12


def _long(scores: np.ndarray, names=NAMES, datasets=DATASETS) -> pandas.DataFrame:  # type: ignore[no-untyped-def]
    """The (N, k) table as one row per (data set, model) pair."""
    return pandas.DataFrame(
        [
            {"dataset": datasets[i], "model": names[j], "auc": scores[i, j]}
            for i in range(scores.shape[0])
            for j in range(scores.shape[1])
        ]
    )


def _demsar(**kwargs):  # type: ignore[no-untyped-def]
    return rank_models(_long(DEMSAR), dataset="dataset", model="model", score="auc", **kwargs)


# --- Demsar (2006), "Statistical comparisons of classifiers over multiple data sets". ---


def test_demsar_worked_example() -> None:
    result = _demsar(control="C4.5", zero_method="zsplit")
    assert result.model_names == tuple(NAMES) and result.dataset_names == tuple(DATASETS)
    # section 3.2.2: average ranks 3.143, 2.000, 2.893, 1.964; chi^2_F = 9.28, F_F = 3.69
    np.testing.assert_allclose(result.average_ranks, [44 / 14, 2.0, 40.5 / 14, 27.5 / 14])
    assert round(result.friedman.statistic, 2) == 9.28
    assert round(result.friedman.iman_davenport_statistic, 2) == 3.69
    # Nemenyi: CD = 2.569 sqrt(4 * 5 / (6 * 14)) = 1.25, no pair differs (1.179 < 1.25)
    assert round(result.critical_difference, 2) == 1.25
    assert result.nemenyi.significant_pairs == ()
    assert result.cliques == ((3, 1, 2, 0),)
    # Bonferroni-Dunn at 0.05: q = 2.394, CD = 2.394 * 0.488 = 1.168
    assert result.bonferroni_dunn_critical_difference == pytest.approx(
        2.394 * np.sqrt(20 / 84), abs=1e-3
    )
    # Holm against C4.5: p = 0.016, 0.019, 0.607 against 0.017, 0.025, 0.05: the two
    # best (C4.5+m+cf and C4.5+m) differ from the control, C4.5+cf does not
    control = result.bonferroni_dunn
    assert control is not None and result.control == "C4.5"
    # (the paper's 0.607 does not follow from its z = 0.512; the exact z gives 0.6084)
    np.testing.assert_allclose(control.pvalues[[1, 3]], [0.019, 0.016], atol=5e-4)
    assert control.holm_significant.tolist() == [False, True, False, True]
    # section 3.1.3: C4.5+m against C4.5 with the ranks of the two zero differences split:
    # R+ = 93, R- = 12; the exact critical value for N = 14 at 0.05 is 21 >= 12: reject
    assert result.wilcoxon_rank_sums[1, 0] == 93.0 and result.wilcoxon_rank_sums[0, 1] == 12.0
    assert result.wilcoxon_pvalues[1, 0] < 0.05
    assert result.wilcoxon_wins[1, 0] == 10 and result.wilcoxon_wins[0, 1] == 2
    assert result.order == (3, 1, 2, 0)


def test_results_are_the_existing_tests() -> None:
    result = _demsar(control="C4.5+m")
    friedman = assay.friedman(DEMSAR, model_names=NAMES)
    assert result.friedman.statistic == friedman.statistic
    assert result.friedman.iman_davenport_pvalue == friedman.iman_davenport_pvalue
    np.testing.assert_array_equal(result.ranks, friedman.ranks)
    nemenyi = assay.nemenyi(DEMSAR, model_names=NAMES)
    np.testing.assert_array_equal(result.nemenyi.adjusted_pvalues, nemenyi.adjusted_pvalues)
    control = assay.bonferroni_dunn(DEMSAR, control="C4.5+m", model_names=NAMES)
    assert result.bonferroni_dunn is not None
    np.testing.assert_array_equal(
        result.bonferroni_dunn.holm_adjusted_pvalues, control.holm_adjusted_pvalues
    )
    assert result.bonferroni_dunn_critical_difference == control.critical_difference
    test = assay.wilcoxon_signed_rank(DEMSAR[:, 2], DEMSAR[:, 3])
    assert result.wilcoxon_pvalues[2, 3] == result.wilcoxon_pvalues[3, 2] == test.pvalue


# --- Oracles. ---


def _untied(seed: int, shape: tuple[int, int]) -> np.ndarray:
    """Scores without ties within a row or between any two columns."""
    rng = np.random.default_rng(seed)
    return rng.permutation(shape[0] * shape[1]).reshape(shape) / 100.0 + rng.normal(
        scale=1e-4, size=shape
    )


@pytest.mark.parametrize(("seed", "shape"), [(1, (12, 4)), (2, (20, 6)), (3, (5, 3))])
def test_against_scipy(seed: int, shape: tuple[int, int]) -> None:
    scores = _untied(seed, shape)
    result = rank_models(scores)
    chi2 = stats.friedmanchisquare(*scores.T)
    assert result.friedman.statistic == pytest.approx(chi2.statistic, rel=ORACLE_TOLERANCE)
    assert result.friedman.pvalue == pytest.approx(chi2.pvalue, rel=ORACLE_TOLERANCE)
    k = shape[1]
    upper = np.triu_indices(k, 1)
    expected = [
        stats.wilcoxon(scores[:, i], scores[:, j], method="exact").pvalue
        for i, j in zip(*upper, strict=True)
    ]
    np.testing.assert_allclose(result.wilcoxon_pvalues[upper], expected, rtol=ORACLE_TOLERANCE)
    holm = multipletests(expected, method="holm")[1]
    np.testing.assert_allclose(
        result.wilcoxon_adjusted_pvalues[upper], holm, rtol=ORACLE_TOLERANCE
    )
    np.testing.assert_allclose(
        result.wilcoxon_adjusted_pvalues.T[upper], holm, rtol=ORACLE_TOLERANCE
    )
    assert np.array_equal(result.wilcoxon_significant, result.wilcoxon_adjusted_pvalues <= 0.05)
    # R+ of i against j plus R+ of j against i is the sum of all ranks, N (N + 1) / 2
    n = shape[0]
    total = result.wilcoxon_rank_sums + result.wilcoxon_rank_sums.T
    assert np.all(total[upper] == n * (n + 1) / 2)


def test_lower_scores_better_is_the_negated_table() -> None:
    scores = _untied(4, (9, 5))
    higher = rank_models(scores)
    lower = rank_models(-scores, higher_is_better=False)
    np.testing.assert_array_equal(lower.average_ranks, higher.average_ranks)
    np.testing.assert_array_equal(lower.wilcoxon_pvalues, higher.wilcoxon_pvalues)
    np.testing.assert_array_equal(lower.wilcoxon_rank_sums, higher.wilcoxon_rank_sums)
    assert not lower.higher_is_better and higher.higher_is_better
    assert "lower scores are better" in str(lower)


# --- Input forms. ---


def _forms() -> dict[str, tuple[object, dict]]:
    long = _long(DEMSAR)
    wide = pandas.DataFrame(DEMSAR, columns=NAMES, index=DATASETS)
    with_column = wide.reset_index(names="data set")
    mapping = {name: DEMSAR[:, j] for j, name in enumerate(NAMES)}
    return {
        "long DataFrame": (long, {"dataset": "dataset", "model": "model", "score": "auc"}),
        "long mapping": (
            {name: long[name].to_numpy() for name in long.columns},
            {"dataset": "dataset", "model": "model", "score": "auc"},
        ),
        "long, rows shuffled": (
            long.sample(frac=1.0, random_state=7).iloc[np.r_[1:56, 0]],
            {"dataset": "dataset", "model": "model", "score": "auc"},
        ),
        "wide DataFrame": (wide, {}),
        "wide DataFrame, data set column": (with_column, {"dataset": "data set"}),
        "wide mapping, data set column": (
            {"data set": DATASETS, **mapping},
            {"dataset": "data set"},
        ),
        "wide mapping": (mapping, {}),
        "array": (DEMSAR, {"model_names": NAMES}),
        "nested lists": (DEMSAR.tolist(), {"model_names": NAMES}),
    }


@pytest.mark.parametrize("form", list(_forms()))
def test_every_form_gives_the_same_ranking(form: str) -> None:
    table, columns = _forms()[form]
    result = rank_models(table, control="C4.5", **columns)
    expected = _demsar(control="C4.5")
    by_name = [result.model_names.index(name) for name in NAMES]
    np.testing.assert_array_equal(result.average_ranks[by_name], expected.average_ranks)
    np.testing.assert_array_equal(
        result.wilcoxon_pvalues[np.ix_(by_name, by_name)], expected.wilcoxon_pvalues
    )
    assert result.friedman.statistic == expected.friedman.statistic
    assert result.bonferroni_dunn is not None
    assert result.bonferroni_dunn.holm_significant[by_name].tolist() == [False, True, False, True]
    if "DataFrame" in form or "data set column" in form or "long" in form:
        assert sorted(result.dataset_names) == sorted(DATASETS)
    else:
        assert result.dataset_names[:2] == ("data set 0", "data set 1")


def test_long_table_takes_models_in_order_of_first_appearance() -> None:
    table = _long(DEMSAR).iloc[::-1]
    result = rank_models(table, dataset="dataset", model="model", score="auc")
    assert result.model_names == tuple(reversed(NAMES))
    assert result.dataset_names == tuple(reversed(DATASETS))
    np.testing.assert_array_equal(result.scores, DEMSAR[::-1, ::-1])


def test_control_by_index_and_default_names() -> None:
    result = rank_models(DEMSAR, control=2)
    assert result.control == "model 2" and result.model_names[0] == "model 0"


# --- Errors. ---

LONG = {"dataset": "dataset", "model": "model", "score": "auc"}


def _long_without(rows: list[int]) -> pandas.DataFrame:
    return _long(DEMSAR).drop(index=rows).reset_index(drop=True)


def _long_with_nan() -> pandas.DataFrame:
    table = _long(DEMSAR)
    table.loc[[5, 9], "auc"] = np.nan
    return table


@pytest.mark.parametrize(
    ("table", "kwargs", "message"),
    [
        (
            _long_without([5, 6]),
            LONG,
            r"`table` has no score for 2 \(data set, model\) pairs, e.g. \[\('breast cancer', "
            r"'C4.5\+m'\), \('breast cancer', 'C4.5\+cf'\)\]; every model needs a score on "
            "every data set",
        ),
        (
            pandas.concat([_long(DEMSAR), _long(DEMSAR).iloc[[3]]]),
            LONG,
            r"more than one row for 1 \(data set, model\) pairs, e.g. \[\('adult \(sample\)', "
            r"'C4.5\+m\+cf'\)\]; each pair must appear once",
        ),
        (
            _long_with_nan(),
            LONG,
            r"The score column 'auc' has 2 missing or non-finite values \(NaN or infinite\), "
            r"the first on row 5 \(data set 'breast cancer', model 'C4.5\+m'\)",
        ),
        (
            _long(DEMSAR[:, :1], names=NAMES[:1]),
            LONG,
            r"`table` has 1 model \['C4.5'\]; at least 2 are needed to compare models",
        ),
        (
            _long(DEMSAR[:2]),
            LONG,
            r"`table` has 2 data sets \['adult \(sample\)', 'breast cancer'\]; at least 3 "
            "are needed",
        ),
        (
            _long(DEMSAR),
            {**LONG, "score": "accuracy"},
            r"`score` names the column 'accuracy', which `table` does not have; its columns "
            r"are \['dataset', 'model', 'auc'\]",
        ),
        (
            _long(DEMSAR),
            {"model": "model"},
            r"A long table needs all three of `dataset`, `model` and `score` .*; got only "
            "model='model'",
        ),
        (DEMSAR, LONG, "`table` must be a DataFrame or a mapping of column name to values"),
        (
            _long(DEMSAR),
            {**LONG, "model_names": NAMES},
            "`model_names` names the columns of a wide array; a long table takes the names",
        ),
        (
            np.where(np.arange(4) == 2, np.nan, DEMSAR),
            {"model_names": NAMES},
            r"`table` has 14 missing or non-finite scores \(NaN or infinite\), the first for "
            r"model 'C4.5\+cf' on data set 'data set 0'",
        ),
        (DEMSAR[:, :1], {}, r"`table` has 1 model \['model 0'\]; at least 2"),
        (DEMSAR[:2], {}, r"`table` has 2 data sets \['data set 0', 'data set 1'\]; at least 3"),
        (DEMSAR[0], {}, r"`table` must be 2-D .*; got an array of shape \(4,\)"),
        (DEMSAR, {"model_names": NAMES[:3]}, "`model_names` must hold one name for each of the 4"),
        (DEMSAR, {"model_names": ["a", "b", "a", "c"]}, r"model names must be distinct; \['a'\]"),
        (
            {"a": [1.0, 2.0, 3.0], "b": [1.0, 2.0]},
            {},
            r"The model columns of `table` must be 1-D and of one length",
        ),
        (
            [["x", "y"], ["z", "w"], ["u", "v"]],
            {},
            "The scores in `table` must be numbers; got dtype <U1",
        ),
        (
            {"d": ["a", "b", "c"], "m": ["x", "y", "z"], "s": ["1", "2", "high"]},
            {"dataset": "d", "model": "m", "score": "s"},
            r"The score column 's' must hold numbers; got values such as \['1', '2', 'high'\]",
        ),
        (DEMSAR, {"dataset": "name"}, "`dataset` names a column, so `table` must be a DataFrame"),
        (
            DEMSAR,
            {"control": "C5.0", "model_names": NAMES},
            r"`control` must be a model index in \[0, 3\] or one of the model names "
            r"\['C4.5', 'C4.5\+m', 'C4.5\+cf', 'C4.5\+m\+cf'\]; got 'C5.0'",
        ),
        (DEMSAR, {"control": 4}, r"`control` must be a model index in \[0, 3\].*got 4"),
        (DEMSAR, {"alpha": 1.5}, r"`alpha` must be in \(0, 1\); got 1.5"),
        (
            DEMSAR,
            {"higher_is_better": "yes"},
            "`higher_is_better` must be True or False; got 'yes'",
        ),
        (DEMSAR, {"zero_method": "split"}, "zero_method"),
    ],
)  # fmt: skip
def test_error_messages(table: object, kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rank_models(table, **kwargs)


def test_duplicate_dataset_names_in_a_wide_table() -> None:
    table = pandas.DataFrame(DEMSAR[:3], columns=NAMES, index=["a", "b", "a"])
    with pytest.raises(ValueError, match=r"The data set names must be distinct; \['a'\]"):
        rank_models(table)


# --- Warnings. ---


def test_equal_models_warn_once_at_the_callers_line() -> None:
    scores = np.column_stack([DEMSAR, DEMSAR[:, 0], DEMSAR[:, 0]])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = rank_models(scores, model_names=[*NAMES, "copy", "copy 2"])
    assert len(caught) == 1
    (warning,) = caught
    assert warning.category is DegenerateDataWarning and warning.filename == __file__
    assert str(warning.message).startswith(
        "3 pairs of models score the same on every data set (C4.5 vs copy, C4.5 vs copy 2, "
        "copy vs copy 2): no evidence of a difference, Wilcoxon p-value 1."
    )
    assert result.wilcoxon_pvalues[0, 4] == 1.0


def test_friedman_warnings_point_at_the_callers_line() -> None:
    with pytest.warns(DegenerateDataWarning, match="2 models") as caught:
        rank_models(DEMSAR[:, :2])
    assert {warning.filename for warning in caught} == {__file__}


# --- Outputs. ---


def test_text_summary_is_aligned() -> None:
    text = str(_demsar(control="C4.5", zero_method="zsplit"))
    lines = text.splitlines()
    assert lines[0] == (
        "Ranking of 4 models over 14 data sets (higher scores are better; alpha = 0.05)"
    )
    assert "Iman-Davenport F(3, 39) = 3.69" in lines[1]
    assert lines[2] == "The average ranks differ significantly."
    assert (
        lines[4] == "Groups not separated by the Nemenyi test: [C4.5+m+cf, C4.5+m, C4.5+cf, C4.5]"
    )
    table = lines[lines.index("Models by average rank") + 1 :][:5]
    assert [line.split()[1] for line in table[1:]] == ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]
    # right-aligned numbers: the average ranks end in one column
    ranks = ["1.964", "2.000", "2.893", "3.143"]
    ends = {line.index(rank) + len(rank) for line, rank in zip(table[1:], ranks, strict=True)}
    assert len(ends) == 1
    pair = next(line for line in lines if line.startswith("C4.5+m ") and line.split()[1] == "C4.5")
    assert pair.split()[4:7] == ["10-2-2", "93", "12"]


def test_json_is_complete_and_valid() -> None:
    result = _demsar(control="C4.5")
    data = json.loads(result.to_json())
    assert data["model_names"] == NAMES and data["control"] == "C4.5"
    assert data["friedman"]["statistic"] == result.friedman.statistic
    assert data["bonferroni_dunn"]["holm_significant"] == [False, True, False, True]
    assert data["wilcoxon_pvalues"][0][0] is None  # the NaN diagonal
    assert data["nemenyi"]["cliques"] == [[3, 1, 2, 0]]
    assert set(data) == {field.name for field in dataclasses.fields(result)}


def test_result_is_frozen() -> None:
    result = _demsar()
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.alpha = 0.1  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        result.wilcoxon_pvalues[0, 1] = 0.0
    assert "friedman=<FriedmanResult: Friedman test: chi2(3) = 9.28" in repr(result)


def test_markdown_tables() -> None:
    text = _demsar(control="C4.5").to_markdown()
    lines = text.splitlines()
    assert lines[0].startswith("## Ranking of 4 models over 14 data sets")
    header = lines.index("### Models by average rank") + 2
    assert lines[header].startswith("|  | model | average rank | mean score | z vs control |")
    assert lines[header + 1].startswith("| ---: | :--- | ---: |")
    assert lines[header + 2].startswith("| 1 | C4.5+m+cf | 1.964 |")
    assert "| 0.0472\\* |" in lines[header + 2]


class _Parser(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:  # type: ignore[type-arg]
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_html_page_is_self_contained_with_the_diagram() -> None:
    page = _demsar().to_html()
    parser = _Parser()
    parser.feed(page)
    assert page.startswith("<!DOCTYPE html>")
    assert parser.tags.count("table") == 2 and "svg" in parser.tags and "style" in parser.tags
    text = " ".join(parser.text)
    for name in NAMES:  # in the tables and as SVG text in the diagram
        assert text.count(name) >= 3
    # nothing is fetched: no script, no linked resource (XML namespaces are names only)
    assert "<script" not in page and "<link" not in page
    assert not any(f'{attribute}="http' in page for attribute in ("src", "href"))
    assert "url(http" not in page and "<dc:date>" not in page  # and no time stamp


def test_html_page_without_matplotlib_says_so(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):  # type: ignore[no-untyped-def]
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    page = _demsar().to_html()
    assert "<svg" not in page
    assert "The critical difference diagram is omitted: it needs matplotlib" in page


def test_notebook_html_is_the_tables() -> None:
    fragment = _demsar()._repr_html_()
    assert fragment.startswith('<div class="assay-ranking">') and "<svg" not in fragment
    assert fragment.count("<table>") == 2


def test_identical_rankings_fall_back_on_the_chi_squared_pvalue() -> None:
    # every data set ranks the models 1, 2, 3: F_F is unbounded (NaN), chi^2_F = 2N = 10
    with pytest.warns(DegenerateDataWarning, match="zero denominator") as caught:
        result = rank_models(np.tile([3.0, 2.0, 1.0], (5, 1)))
    assert {warning.filename for warning in caught} == {__file__}
    assert np.isnan(result.friedman.iman_davenport_pvalue)
    assert result.friedman.statistic == 10.0
    assert str(result).splitlines()[2] == "The average ranks differ significantly."
    assert json.loads(result.to_json())["friedman"]["iman_davenport_statistic"] is None


def test_all_ties_warn_twice_and_find_nothing() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = rank_models(np.ones((4, 3)))
    assert [str(w.message).split(":")[0] for w in caught] == [
        "Every data set ties all models",
        "3 pairs of models score the same on every data set (model 0 vs model 1, model 0 vs "
        "model 2, model 1 vs model 2)",
    ]
    assert result.friedman.pvalue == 1.0 and not result.wilcoxon_significant.any()
    assert str(result).splitlines()[2].startswith("No significant difference")
