"""The report's one draw: every model's ROC AUC replicates, its bands, its threshold
metrics and the pairs.

Replicate ``r`` of the report counts the rows as replicate ``r`` of the streamed bootstrap
of the first model (``traced_replicate`` exports those counts); each model's ROC AUC,
curves and confusion cells of that replicate are checked against ``assay.reference`` (or a
direct count) on the same counts, the report's rows and bands against summaries of the
reference's replicates.
"""

from __future__ import annotations

import warnings

import numba
import numpy as np
import pytest

import assay
from assay import reference
from assay._kernels import bands, paired, report_draws, resample, streaming
from assay.exceptions import UndefinedMetricWarning
from assay.metrics._registry import resolve_metric_call
from assay.reports._curves import CURVE_GRIDS, PRECISION_RECALL_GRID, ROC_GRID
from assay.reports._draw import draw_replicates
from assay.reports._drawn_cells import joint_codes
from assay.resampling._bootstrap import bootstrap_result
from assay.resampling._compare import bootstrap_comparison
from assay.resampling._paired_replicates import PairedReplicates
from assay.resampling._plans import paired_stream_plan

SEED = 20261127
N_ROWS = 150
N_RESAMPLES = 10  # small: every replicate is recomputed by the reference
MODELS = ("a", "b", "c")
THRESHOLD = 0.5
COST = [[0.0, 1.0], [5.0, 0.0]]

# The kernels sum integer counts exactly and divide once (ROC AUC) or interpolate in
# float64 (curves); the reference works in exact fractions rounded once: a few units in
# the last place of a value in [0, 1].
VALUE_ATOL = 1e-12
# A band's bounds are an estimate plus a quantile times a standard deviation of the
# replicates: the curves' last-place differences, amplified by the critical value.
BAND_ATOL = 1e-9


def _data(seed: int = 5) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(N_ROWS) < 0.35).astype(np.int64)
    return {
        "y": y,
        "a": y + rng.normal(size=N_ROWS),  # the first model: untied (it carries the draw)
        "b": np.round(y + 2 * rng.normal(size=N_ROWS), 1),  # tied scores
        "c": y + 3 * rng.normal(size=N_ROWS),
    }


def _options():
    """The ROC AUC scan's options, as the report takes them."""
    declaration, _, _, keywords = resolve_metric_call(assay.roc_auc_score, {})
    return declaration.scan_options(**keywords)


def replicate_counts(y: np.ndarray, first: np.ndarray, n_resamples: int, seed: int) -> np.ndarray:
    """Every replicate's count of each row: the streamed bootstrap's draw over the first
    model's sorted rows (untied scores: atom ``k`` is the row of the k-th highest score)."""
    plan = paired_stream_plan(y, first, first, pos_label=None, sample_weight=None,
                              clusters=None)  # fmt: skip
    order = np.argsort(-first, kind="stable")
    assert np.array_equal(plan.a.is_positive, y[order] == 1)
    counts = np.empty((n_resamples, y.shape[0]), dtype=np.int64)
    for r in range(n_resamples):
        draw = resample.Draw(resample.MULTINOMIAL, np.uint64(seed), r)
        _, trace = streaming.traced_replicate(plan.a, plan.clusters, _options(), draw)
        counts[r, order] = trace
    return counts


@pytest.fixture(scope="module")
def data() -> dict[str, np.ndarray]:
    return _data()


@pytest.fixture(scope="module")
def counts(data) -> np.ndarray:
    return replicate_counts(data["y"], data["a"], N_RESAMPLES, SEED)


@pytest.fixture(scope="module")
def reference_auc(data, counts) -> dict[str, np.ndarray]:
    return {
        name: np.array(
            [reference.roc_auc_score(data["y"], data[name], sample_weight=row) for row in counts]
        )
        for name in MODELS
    }


def test_every_models_replicates_are_the_reference_on_the_draws_counts(data, counts) -> None:
    y = data["y"]
    scores = {name: data[name] for name in MODELS}
    predictions = [(data[name] >= THRESHOLD).astype(np.int8) for name in MODELS]
    codes = joint_codes(y.astype(np.int8), predictions)
    drawn = draw_replicates(y, scores, CURVE_GRIDS, N_RESAMPLES, SEED, codes=codes)
    assert list(drawn.models) == list(MODELS)
    for r, row in enumerate(counts):  # the joint cells: the counts summed cell by cell
        assert np.array_equal(
            drawn.cells[r], np.bincount(codes, weights=row, minlength=drawn.cells.shape[1])
        )
    for name in MODELS:
        model = drawn.models[name]
        for r, row in enumerate(counts):
            expected_auc = reference.roc_auc_score(y, data[name], sample_weight=row)
            assert model.roc_auc[r] == pytest.approx(expected_auc, rel=0, abs=VALUE_ATOL)
            expected_roc = reference.tpr_at_fpr(y, data[name], ROC_GRID, sample_weight=row)
            np.testing.assert_allclose(model.roc[r], expected_roc, rtol=0, atol=VALUE_ATOL)
            expected_precision = reference.precision_at_recall(
                y, data[name], PRECISION_RECALL_GRID, sample_weight=row
            )
            np.testing.assert_allclose(
                model.precision[r], expected_precision, rtol=0, atol=VALUE_ATOL
            )
        ones = np.ones(N_ROWS)
        np.testing.assert_allclose(
            model.roc_estimate, reference.tpr_at_fpr(y, data[name], ROC_GRID, sample_weight=ones),
            rtol=0, atol=VALUE_ATOL,
        )  # fmt: skip


def test_one_model_alone_draws_the_same_replicates(data) -> None:
    both = draw_replicates(data["y"], {"a": data["a"], "b": data["b"]}, CURVE_GRIDS, 9, SEED)
    alone = draw_replicates(data["y"], {"a": data["a"]}, CURVE_GRIDS, 9, SEED)
    assert list(alone.models) == ["a"] and alone.cells is None
    for field in ("roc_auc", "roc", "precision"):
        assert np.array_equal(getattr(alone.models["a"], field), getattr(both.models["a"], field))


def test_replicates_do_not_depend_on_threads_or_chunks(data) -> None:
    # 19 replicates: two batches of eight and a short one; split 8 + 11 and in one call
    codes = joint_codes(data["y"].astype(np.int8), [(data["a"] > 0).astype(np.int8)])
    plan = paired_stream_plan(data["y"], data["a"], data["b"], pos_label=None,
                              sample_weight=None, clusters=None, row_codes=codes)  # fmt: skip
    n = 19
    grids = CURVE_GRIDS

    def outs() -> report_draws.Outs:
        return report_draws.Outs(
            np.empty(n), np.empty(n),
            np.empty((n, grids.roc.shape[0])), np.empty((n, grids.precision_recall.shape[0])),
            np.empty((n, grids.roc.shape[0])), np.empty((n, grids.precision_recall.shape[0])),
            np.empty((n, 4), dtype=np.int64),
        )  # fmt: skip

    def run(workers: int, split: int) -> report_draws.Outs:
        out = outs()
        for first, stop in ((0, split), (split, n)):
            part = report_draws.Outs(*(array[first:stop] for array in out))
            report_draws.report_replicates(
                plan.a, plan.b, plan.a_position_of_b, plan.clusters, plan.codes_a, _options(),
                resample.Draw(resample.MULTINOMIAL, np.uint64(SEED), first), grids, part,
                workers,
            )  # fmt: skip
        return out

    serial, threaded = run(1, n), run(2, 8)
    for field, got, expected in zip(serial._fields, threaded, serial, strict=True):
        assert np.array_equal(got, expected, equal_nan=True), field
    # both models' ROC AUC replicates are the paired bootstrap's
    out_a, out_b = np.empty(n), np.empty(n)
    draw = resample.Draw(resample.MULTINOMIAL, np.uint64(SEED), 0)
    paired.paired_bootstrap_lanes(plan.a, plan.b, plan.a_position_of_b, plan.clusters,
                                  _options(), draw, out_a, out_b, 1)  # fmt: skip
    assert np.array_equal(serial.roc_auc_a, out_a) and np.array_equal(serial.roc_auc_b, out_b)


def test_a_replicate_past_a_byte_is_redone_with_the_same_values(data, monkeypatch) -> None:
    """Counts of 255 or more (never drawn by a multinomial over rows in practice) are
    forced by lanes that keep counts up to 2 only (kernels compiled afresh with that
    limit): nearly every replicate is then redone from its int64 counts, and every value
    (both ROC AUCs, both models' curves, the joint cells) must be the one of the bytes."""
    codes = joint_codes(data["y"].astype(np.int8), [(data["a"] > 0).astype(np.int8)])
    plan = paired_stream_plan(data["y"], data["a"], data["b"], pos_label=None,
                              sample_weight=None, clusters=None, row_codes=codes)  # fmt: skip
    n, grids = 11, CURVE_GRIDS

    def run() -> report_draws.Outs:
        out = report_draws.Outs(
            np.empty(n), np.empty(n),
            np.empty((n, grids.roc.shape[0])), np.empty((n, grids.precision_recall.shape[0])),
            np.empty((n, grids.roc.shape[0])), np.empty((n, grids.precision_recall.shape[0])),
            np.empty((n, 4), dtype=np.int64),
        )  # fmt: skip
        report_draws.report_replicates(
            plan.a, plan.b, plan.a_position_of_b, plan.clusters, plan.codes_a, _options(),
            resample.Draw(resample.MULTINOMIAL, np.uint64(SEED), 0), grids, out, 1,
        )  # fmt: skip
        return out

    in_bytes = run()
    monkeypatch.setattr(report_draws, "_SATURATED", 2)
    # fresh, uncached kernels read the lowered limit when they compile (with the JIT off,
    # the plain functions read it at every call)
    for name in ("_lane_replicate", "_batches"):
        kernel = getattr(report_draws, name)
        py_func = getattr(kernel, "py_func", None)
        monkeypatch.setattr(report_draws, name, kernel if py_func is None else numba.njit(py_func))
    redone = run()
    drawn = replicate_counts(data["y"], data["a"], n, SEED)
    assert (drawn.max(axis=1) >= 2).sum() >= n - 1  # (nearly) every replicate redone
    for field, got, expected in zip(in_bytes._fields, redone, in_bytes, strict=True):
        assert np.array_equal(got, expected, equal_nan=True), field


def test_report_rows_pairs_and_bands_are_summaries_of_the_draw(
    data, counts, reference_auc
) -> None:
    y = data["y"]
    result = assay.report(data, target="y", scores=list(MODELS), cost=COST,
                          n_resamples=N_RESAMPLES, rng=SEED)  # fmt: skip
    estimates = {name: assay.roc_auc_score(y, data[name]) for name in MODELS}
    predictions = {name: (data[name] >= THRESHOLD).astype(np.int64) for name in MODELS}
    threshold_metrics = [  # the report's row, the reference's function, its keywords, range
        ("precision", reference.precision_score, {"zero_division": np.nan}, (0.0, 1.0)),
        ("recall", reference.recall_score, {"zero_division": np.nan}, (0.0, 1.0)),
        ("f1", reference.f1_score, {"zero_division": np.nan}, (0.0, 1.0)),
        ("mcc", reference.matthews_corrcoef, {"zero_division": np.nan}, (-1.0, 1.0)),
        ("balanced_accuracy", reference.balanced_accuracy_score, {}, (0.0, 1.0)),
        ("expected_cost", reference.expected_cost, {"cost_matrix": COST}, (0.0, 5.0)),
    ]
    reference_f1 = {}
    for name in MODELS:
        for key, twin, keywords, value_range in threshold_metrics:
            replicates = np.array(
                [twin(y, predictions[name], sample_weight=row, **keywords) for row in counts],
                dtype=float,
            )
            if key == "f1":
                reference_f1[name] = replicates
            row = result.model(name).row(key)
            expected = bootstrap_result(
                replicates, row.estimate, None, method="percentile", confidence_level=0.95,
                n_resamples=N_RESAMPLES, seed=SEED, name=key, value_range=value_range,
                stacklevel=2,
            )  # fmt: skip
            np.testing.assert_allclose(row.interval, expected.confidence_interval, rtol=0,
                                       atol=VALUE_ATOL, err_msg=f"{name} {key}")  # fmt: skip
    for name in MODELS:
        expected = bootstrap_result(
            reference_auc[name], estimates[name], None, method="percentile",
            confidence_level=0.95, n_resamples=N_RESAMPLES, seed=SEED, name="roc_auc_score",
            value_range=(0.0, 1.0), stacklevel=2,
        )  # fmt: skip
        interval = result.model(name).row("roc_auc_bootstrap").interval
        np.testing.assert_allclose(interval, expected.confidence_interval, rtol=0,
                                   atol=VALUE_ATOL)  # fmt: skip
        for curve, twin, grid in (("roc", reference.roc_band, ROC_GRID),
                                  ("precision_recall", reference.precision_recall_band,
                                   PRECISION_RECALL_GRID)):  # fmt: skip
            band = twin(y, data[name], counts, grid=grid, kind="simultaneous")
            drawn = result.model(name).curve(curve)
            for field in ("estimate", "lower", "upper"):
                np.testing.assert_allclose(
                    getattr(drawn, field), getattr(band, field), rtol=0, atol=BAND_ATOL,
                    err_msg=f"{name} {curve} {field}",
                )  # fmt: skip
    declaration = resolve_metric_call(assay.roc_auc_score, {})[0]
    for pair in result.pairs:
        a, b = pair.model_a, pair.model_b
        expected = bootstrap_comparison(
            PairedReplicates(reference_auc[a], reference_auc[b], None), estimates[a],
            estimates[b], interval="basic", confidence_level=0.95, alternative="two-sided",
            n_resamples=N_RESAMPLES, seed=SEED, name="roc_auc_score", declaration=declaration,
            stacklevel=2,
        )  # fmt: skip
        row = pair.row("roc_auc_bootstrap")
        assert row.estimate == estimates[a] - estimates[b]
        np.testing.assert_allclose(row.interval, expected.confidence_interval, rtol=0,
                                   atol=VALUE_ATOL)  # fmt: skip
        assert row.pvalue == expected.pvalue
        f1_a = result.model(a).row("f1").estimate
        f1_b = result.model(b).row("f1").estimate
        f1_declaration = resolve_metric_call(assay.f1_score, {"zero_division": np.nan})[0]
        expected = bootstrap_comparison(
            PairedReplicates(reference_f1[a], reference_f1[b], None), f1_a, f1_b,
            interval="basic", confidence_level=0.95, alternative="two-sided",
            n_resamples=N_RESAMPLES, seed=SEED, name="f1_score", declaration=f1_declaration,
            stacklevel=2,
        )  # fmt: skip
        row = pair.row("f1_bootstrap")
        assert row.estimate == f1_a - f1_b
        np.testing.assert_allclose(row.interval, expected.confidence_interval, rtol=0,
                                   atol=VALUE_ATOL)  # fmt: skip


def test_replicates_without_a_class_are_left_out_of_the_bands_with_a_warning() -> None:
    # 1 positive in 12 rows: a replicate draws no positive with probability (11/12)**12
    y = np.zeros(12, dtype=np.int64)
    y[4] = 1
    score = np.linspace(1.0, 0.0, 12)
    data = {"y": y, "s": score}
    with warnings.catch_warnings(record=True) as caught:  # DeLong's too: one positive
        warnings.simplefilter("always")
        result = assay.report(data, target="y", scores="s", n_resamples=20, rng=3)
    texts = [str(item.message) for item in caught if item.category is UndefinedMetricWarning]
    counts = replicate_counts(y, score, 20, 3)
    defined = (counts[:, 4] > 0) & (counts.sum(axis=1) > counts[:, 4])
    n_undefined = int(np.count_nonzero(~defined))
    assert 0 < n_undefined < 20
    assert any(
        f"roc curve was undefined in {n_undefined} of 20 bootstrap replicates" in text
        for text in texts
    ), texts
    band = reference.roc_band(y, score, counts[defined], grid=ROC_GRID, kind="simultaneous")
    drawn = result.model("s").curve("roc")
    np.testing.assert_allclose(drawn.lower, band.lower, rtol=0, atol=BAND_ATOL)
    np.testing.assert_allclose(drawn.upper, band.upper, rtol=0, atol=BAND_ATOL)
    # the ROC AUC row leaves the same replicates out, as the bootstrap of the model does
    with pytest.warns(UndefinedMetricWarning, match="undefined"):
        direct = assay.bootstrap(assay.roc_auc_score, y, score, n_resamples=20, rng=3)
    interval = result.model("s").row("roc_auc_bootstrap").interval
    assert interval == tuple(float(v) for v in direct.confidence_interval)


@pytest.mark.parametrize("width", [8, 5, 1])
def test_cells_are_summed_from_the_packed_bytes_eight_replicates_at_once(width) -> None:
    """The bytes of eight replicates per row, added to 16-bit counters per cell and
    emptied every 256 rows, give each replicate's cells: against a plain count, with
    every byte at its largest (255) for the rows of one cell, the worst case of the
    counters, and lanes past ``width`` (a last batch of fewer than eight) left alone."""
    rng = np.random.default_rng(3)
    n, n_cells = 1000, 5
    counts = rng.integers(0, 256, size=(n, paired.LANES), dtype=np.uint64)
    codes = rng.integers(0, n_cells, size=n).astype(np.uint8)
    codes[:300] = 2
    counts[:300] = 255  # 256 rows of 255 in one cell reach 65280 < 2**16
    words = np.zeros(n, dtype=np.uint64)
    for lane in range(paired.LANES):
        words |= counts[:, lane] << np.uint64(8 * lane)
    first = 3
    cells = np.full((first + paired.LANES, n_cells), 7, dtype=np.int64)
    cells[first : first + width] = 0
    even = np.zeros(n_cells, dtype=np.uint64)
    odd = np.zeros(n_cells, dtype=np.uint64)
    for start in range(0, n, report_draws._FLUSH_ROWS):
        size = min(report_draws._FLUSH_ROWS, n - start)
        report_draws._count_cells(words, codes, start, size, even, odd, cells, first, width)
    for lane in range(paired.LANES):
        row = cells[first + lane]
        if lane >= width:
            assert np.all(row == 7)  # untouched
            continue
        expected = [int(counts[codes == c, lane].sum()) for c in range(n_cells)]
        assert row.tolist() == expected
    assert np.all(cells[:first] == 7)
    assert not np.any(even) and not np.any(odd)  # emptied


def test_a_redone_replicates_cells_are_summed_from_its_int64_counts() -> None:
    rng = np.random.default_rng(4)
    counts = rng.integers(0, 1000, size=500).astype(np.int64)  # past a byte's 255
    codes = rng.integers(0, 4, size=500).astype(np.uint8)
    cells = np.full(4, -1, dtype=np.int64)
    report_draws._cells_of_counts(counts, codes, cells)
    assert cells.tolist() == [int(counts[codes == c].sum()) for c in range(4)]


def test_curves_read_only_where_a_grid_point_is_passed_equal_the_whole_fold() -> None:
    """Several blocks, with tie groups straddling their boundaries: each replicate's
    curves, read again only in the blocks where a grid point is passed, are the curves of
    a fold over every atom of the same counts (``bands.curves_at_grids``), value for
    value, for the model that carries the draw and for the others."""
    rng = np.random.default_rng(8)
    n = 3 * resample._BLOCK + 123
    y = (rng.random(n) < 0.3).astype(np.int64)
    scores = {
        "a": y + rng.normal(size=n),  # untied: carries the draw
        "b": np.round(y + 2 * rng.normal(size=n), 1),  # tie groups of tens of rows
        "c": np.round(y + rng.normal(size=n), 0),  # tie groups of thousands of rows
    }
    n_resamples = 11
    drawn = draw_replicates(y, scores, CURVE_GRIDS, n_resamples, SEED)
    plan_a = paired_stream_plan(y, scores["a"], scores["a"], pos_label=None,
                                sample_weight=None, clusters=None)  # fmt: skip
    for name in ("a", "b", "c"):
        plan = paired_stream_plan(y, scores["a"], scores[name], pos_label=None,
                                  sample_weight=None, clusters=None)  # fmt: skip
        for r in range(n_resamples):
            draw = resample.Draw(resample.MULTINOMIAL, np.uint64(SEED), r)
            _, in_a = streaming.traced_replicate(plan_a.a, plan_a.clusters, _options(), draw)
            counts = in_a[plan.a_position_of_b]  # in the model's own order
            positives = int(counts[plan.b.is_positive].sum())
            negatives = int(counts.sum()) - positives
            roc, precision = bands.curves_at_grids(
                plan.b.is_positive, plan.b.continues, counts, positives, negatives, CURVE_GRIDS
            )
            assert np.array_equal(drawn.models[name].roc[r], roc), (name, r)
            assert np.array_equal(drawn.models[name].precision[r], precision), (name, r)
