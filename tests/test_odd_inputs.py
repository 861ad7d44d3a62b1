"""Odd but meaningful inputs give the right value; meaningless ones a named error.

Big-endian arrays (read from files written on another machine) and float16 arrays hold
ordinary values: every public function must give exactly the result of the same values
in native float64/int64.  Missing values, labels of mixed types and metrics returning
no number are refused with a message naming the argument.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import assay
from assay.metrics._registry import variants_of

SOURCE = Path(assay.__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(404)
    y_true = rng.integers(0, 2, 50)
    # scores exact in float16 too (multiples of 1/16 below 4), so every dtype holds them
    y_score = np.round(rng.random(50) * 48) / 16
    y_pred = (y_score > 1.5).astype(np.int64)
    weights = rng.integers(1, 5, 50).astype(np.float64)
    return y_true, y_score, y_pred, weights


ODD_DTYPES = [">i8", ">f8", ">f4", "<f2", ">f2", ">u4"]

RANKING = variants_of("ranking")
LABELS = ["accuracy_score", "f1_score", "matthews_corrcoef", "cohen_kappa_score"]


@pytest.mark.parametrize("dtype", ODD_DTYPES)
@pytest.mark.parametrize("argument", ["y_true", "y_score", "sample_weight"])
@pytest.mark.parametrize(("name", "options"), RANKING)
def test_ranking_metrics_read_big_endian_and_float16_arrays(data, name, options, argument, dtype):
    # big-endian `y_true` once failed with a Numba TypingError, float16 with
    # NotImplementedError: float16
    y_true, y_score, _, weights = data
    arguments = {"y_true": y_true, "y_score": y_score, "sample_weight": weights, **options}
    if argument == "y_score" and dtype[1] in "iu":
        arguments["y_score"] = np.round(y_score * 16)  # integer scores
    expected = getattr(assay, name)(**arguments)
    arguments[argument] = arguments[argument].astype(dtype)
    assert getattr(assay, name)(**arguments) == expected


@pytest.mark.parametrize("dtype", ODD_DTYPES)
@pytest.mark.parametrize("name", LABELS)
def test_label_metrics_read_big_endian_and_float16_arrays(data, name, dtype):
    y_true, _, y_pred, weights = data
    expected = getattr(assay, name)(y_true, y_pred, sample_weight=weights)
    odd = getattr(assay, name)(
        y_true.astype(dtype), y_pred.astype(dtype), sample_weight=weights.astype(dtype)
    )
    assert odd == expected


@pytest.mark.parametrize("dtype", [">i8", ">f8", "<f2"])
def test_resampling_reads_big_endian_and_float16_arrays(data, dtype):
    y_true, y_score, y_pred, _ = data
    if dtype[1] == "i":
        y_score = np.round(y_score * 16)  # integer scores
    for metric, prediction in ((assay.roc_auc_score, y_score), (assay.f1_score, y_pred)):
        native = assay.bootstrap(metric, y_true, prediction, n_resamples=50, rng=1)
        odd = assay.bootstrap(
            metric, y_true.astype(dtype), prediction.astype(dtype), n_resamples=50, rng=1
        )
        np.testing.assert_array_equal(odd.bootstrap_distribution, native.bootstrap_distribution)
    groups = np.arange(y_true.shape[0]) % 5
    native = assay.bootstrap(assay.roc_auc_score, y_true, y_score, groups=groups, rng=1)
    odd = assay.bootstrap(assay.roc_auc_score, y_true, y_score, groups=groups.astype(dtype), rng=1)
    np.testing.assert_array_equal(odd.bootstrap_distribution, native.bootstrap_distribution)
    permuted = assay.permutation_test(
        assay.roc_auc_score, y_true.astype(dtype), y_score, n_resamples=50, rng=1
    )
    assert (
        permuted.pvalue
        == assay.permutation_test(
            assay.roc_auc_score, y_true, y_score, n_resamples=50, rng=1
        ).pvalue
    )


def test_regression_and_intervals_read_big_endian_and_float16_arrays(data):
    _, y_score, _, weights = data
    truth, prediction = y_score, y_score[::-1].copy()
    for dtype in (">f8", "<f2"):
        assert assay.r2_score(truth.astype(dtype), prediction.astype(dtype)) == assay.r2_score(
            truth, prediction
        )
        assert assay.mean_squared_error(
            truth, prediction, sample_weight=weights.astype(dtype)
        ) == assay.mean_squared_error(truth, prediction, sample_weight=weights)
    odd, native = assay.mean_ci(truth.astype(">f8")), assay.mean_ci(truth)
    assert (odd.estimate, odd.confidence_interval) == (native.estimate, native.confidence_interval)


def test_object_arrays_of_integers_infer_the_positive_class(data):
    # once: "pass `pos_label`" although the labels are {0, 1}
    y_true, y_score, y_pred, _ = data
    as_objects = y_true.astype(object)
    assert assay.roc_auc_score(as_objects, y_score) == assay.roc_auc_score(y_true, y_score)
    assert assay.f1_score(as_objects, y_pred.astype(object)) == assay.f1_score(y_true, y_pred)
    boolean = pd.Series(y_true.astype(bool), dtype="boolean")  # pandas' nullable booleans
    assert assay.roc_auc_score(boolean, y_score) == assay.roc_auc_score(y_true, y_score)


NUMBERS = np.array([0, 1, 1, 1])
WORDS = np.array(["no", "yes", "yes", "yes"], dtype=object)
MISSING = [  # labels, their first missing value as shown, its index, predictions, pos_label
    (pd.Series([False, True, None, True], dtype="boolean"), "<NA>", 2, NUMBERS, None),
    (np.array([0, 1, None, 1], dtype=object), "None", 2, NUMBERS, None),
    (np.array(["no", "yes", float("nan"), "yes"], dtype=object), "nan", 2, WORDS, "yes"),
    (pd.Series(["no", None, "yes", "yes"], dtype="string"), "<NA>", 1, WORDS, "yes"),
]


@pytest.mark.parametrize(("y_true", "shown", "index", "predicted", "positive"), MISSING)
@pytest.mark.parametrize("name", ["roc_auc_score", "f1_score", "confusion_matrix", "bootstrap"])
def test_missing_labels_are_refused_by_name(y_true, shown, index, predicted, positive, name):
    # once "boolean value of NA is ambiguous" (ranking) or "mix strings and numbers"
    # (labels); now the argument, the count and the first missing value are named
    message = (
        rf"^`y_true` contains 1 missing values \(e\.g\. {shown} at index {index}\); every "
        "sample needs a value"
    )
    scores = np.array([0.1, 0.7, 0.4, 0.9])
    options = {} if positive is None or name == "confusion_matrix" else {"pos_label": positive}
    with pytest.raises(ValueError, match=message):
        if name == "roc_auc_score":
            assay.roc_auc_score(y_true, scores, **options)
        elif name == "bootstrap":
            assay.bootstrap(assay.roc_auc_score, y_true, scores, n_resamples=10, **options)
        else:
            getattr(assay, name)(y_true, predicted, **options)


@pytest.mark.parametrize("name", ["roc_auc_score", "average_precision_score", "f1_score"])
def test_labels_of_mixed_types_are_refused_by_name(name):
    # once "'<' not supported between instances of 'str' and 'int'" (ranking)
    y_true = np.array([0, 1, "b", 1], dtype=object)
    message = (
        r"^`y_true` mixes labels of different types, e\.g\. 0 \(int\) and 'b' \(str\); "
        "class labels must all be numbers or all be strings"
    )
    second = np.array([0.1, 0.7, 0.4, 0.9]) if name != "f1_score" else np.array([0, 1, 1, 1])
    with pytest.raises(ValueError, match=message):
        getattr(assay, name)(y_true, second)
    predicted = np.array(["a", 1, "b", "a"], dtype=object)
    with pytest.raises(ValueError, match=r"^`y_pred` mixes labels of different types"):
        assay.confusion_matrix(np.array(["a", "b", "b", "a"], dtype=object), predicted)


def test_missing_cluster_labels_are_refused_by_name(data):
    y_true, y_score, _, _ = data
    groups = np.array([1] * 49 + [None], dtype=object)
    with pytest.raises(ValueError, match=r"^`groups` contains 1 missing values \(e\.g\. None"):
        assay.bootstrap(assay.roc_auc_score, y_true, y_score, groups=groups, n_resamples=10)


def test_a_compilation_cache_warning_at_import_points_at_the_import_line(tmp_path):
    # with no writable cache location, the warning raised while `import assay` runs once
    # pointed at an assay module (`_kernels/labels.py:7`); now at the user's import
    script = tmp_path / "user_script.py"
    text = textwrap.dedent(
        """\
            import warnings

            import numba

            original = numba.njit


            def refuse_cache(*args, **options):
                if options.get("cache"):
                    raise RuntimeError("cannot cache function: no locator available")
                return original(*args, **options)


            numba.njit = refuse_cache
            warnings.simplefilter("always")
            with warnings.catch_warnings(record=True) as caught:
                import assay
            print([(w.category.__name__, w.filename, w.lineno) for w in caught])
            """
    )
    script.write_text(text)
    import_line = text.splitlines().index("    import assay") + 1
    run = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(SOURCE), "PATH": "/usr/bin:/bin"},
        timeout=300,
    )
    assert run.stdout.strip() == repr([("CompilationCacheWarning", str(script), import_line)])


def test_scores_of_object_dtype_are_refused_by_name():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"^`y_score` must be numeric; got dtype object"):
            assay.roc_auc_score([0, 1], np.array([0.2, "x"], dtype=object))


def test_object_arrays_of_numbers_are_read_as_numbers(data):
    # a pandas column of dtype object holding floats was "must be numeric; got dtype
    # object" for scores, regression targets and fold scores
    y_true, y_score, _, _ = data
    other = y_score[::-1].copy()
    assert assay.roc_auc_score(y_true, y_score.astype(object)) == assay.roc_auc_score(
        y_true, y_score
    )
    assert assay.mean_squared_error(
        y_score.astype(object), other.astype(object)
    ) == assay.mean_squared_error(y_score, other)
    odd = assay.paired_ttest(y_score.astype(object), other.astype(object))
    native = assay.paired_ttest(y_score, other)
    assert (odd.statistic, odd.pvalue) == (native.statistic, native.pvalue)
    with pytest.raises(ValueError, match=r"^`y_pred` must be numeric; got dtype object"):
        assay.mean_squared_error(y_score, np.array([0.5, "x"] * 25, dtype=object))


def test_float16_frequency_weights_count_without_a_bare_warning():
    # (the whole-number check compared float16 weights with 2**62, which overflows there)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        odd = assay.error_rate_ci([0, 1, 0, 1], [0, 1, 1, 1], sample_weight=np.ones(4, "<f2"))
    assert (
        odd.confidence_interval
        == assay.error_rate_ci([0, 1, 0, 1], [0, 1, 1, 1]).confidence_interval
    )
