"""The Poisson bootstrap draws each cell's count from the cell's own keyed stream.

An unweighted (score, class) cell of m rows draws one Poisson(m) count keyed by (seed,
replicate, score, class), so a replicate does not depend on the order of the rows, on the
layout of the atoms (tie cells, or rows one by one) or on how the atoms are split into
pieces: each piece drawing its own atoms and the pieces combined by the scan contract
(:func:`assay._kernels.pieces.scan_pieces`) give the single-machine replicate bit for bit.
A weighted row is keyed by its position in the input, a confusion-matrix cell by its
index.
"""

from __future__ import annotations

import itertools
import warnings
from collections import defaultdict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay._kernels import pieces, resample, streaming
from assay._kernels._rng import keyed_stream, poisson, stream
from assay.datasets import binormal_scores
from assay.exceptions import AssayWarning
from assay.metrics._registry import METRICS
from assay.resampling import _plans
from tests.strategies import binary_ranking_data, paired_ranking_data, split_into_pieces

SEED = np.uint64(2024)
REPLICATES = 5
SCANS = [
    ("roc_auc_score", {}),
    ("roc_auc_score", {"max_fpr": 0.3}),
    ("average_precision_score", {}),
    ("pr_auc_score", {"method": "interpolated"}),
    ("equal_error_rate", {}),
]


def _options(name, keywords):
    return METRICS[name].scan_options(**keywords)


def _plan(y, s, weights=None):
    return _plans.stream_plan(
        y, s, pos_label=None, sample_weight=weights, clusters=None, keyed=True
    )


def _draw(replicate):
    return resample.Draw(resample.POISSON, SEED, replicate)


def _traced(atoms, replicate, options=None):
    options = _options("roc_auc_score", {}) if options is None else options
    return streaming.traced_replicate(atoms, streaming.Clusters(np.empty(0, np.int64), 0),
                                      options, _draw(replicate))  # fmt: skip


def cell_counts(y, s, replicate):
    """{(score, class): count} of one replicate, the rows of ``y``, ``s`` planned alone."""
    atoms = _plan(y, s).atoms
    _, counts = _traced(atoms, replicate)
    group = np.concatenate([[0], np.cumsum(~atoms.continues[:-1])]).astype(np.int64)
    descending = np.unique(s)[::-1]  # one entry per tie group (-0.0 equals 0.0)
    cells: dict[tuple[float, bool], int] = defaultdict(int)
    for k in range(counts.shape[0]):
        cells[(float(descending[group[k]]), bool(atoms.is_positive[k]))] += int(counts[k])
    return dict(cells)


def group_weights(y, s, replicate):
    """The replicate's positive and negative weight of each tie group of ``s``, highest
    score first, the rows of ``y``, ``s`` planned and drawn alone."""
    atoms = _plan(y, s).atoms
    _, counts = _traced(atoms, replicate)
    group = np.concatenate([[0], np.cumsum(~atoms.continues[:-1])]).astype(np.int64)
    positive = np.bincount(group, weights=counts * atoms.is_positive)
    negative = np.bincount(group, weights=counts * ~atoms.is_positive)
    return positive, negative


def score_pieces(s, cuts_of_values, rng):
    """Rows of every piece when the distinct scores, highest first, are cut at
    ``cuts_of_values``; each piece's rows in a random order."""
    descending = np.unique(s)[::-1]
    rank = np.searchsorted(-descending, -s)  # the tie group of every row
    return [
        rng.permutation(np.flatnonzero((rank >= low) & (rank < high)))
        for low, high in itertools.pairwise(cuts_of_values)
    ]


def assert_pieces_reproduce_the_whole(y, s, cuts_of_values, rng, scans=SCANS):
    """Per-cell counts of the pieces are the whole's, and the pieces' group weights
    combined by the scan contract give the whole's replicates bit for bit."""
    plan = _plan(y, s)
    parts = score_pieces(s, cuts_of_values, rng)
    for r in range(REPLICATES):
        whole = cell_counts(y, s, r)
        drawn = {}
        for rows in parts:
            drawn.update(cell_counts(y[rows], s[rows], r))
        assert drawn == whole
        weights = [group_weights(y[rows], s[rows], r) for rows in parts]
        positive = np.concatenate([p for p, _ in weights])
        negative = np.concatenate([q for _, q in weights])
        cuts = np.concatenate([[0], np.cumsum([p.shape[0] for p, _ in weights])])
        for name, keywords in scans:
            options = _options(name, keywords)
            out = np.empty(1)
            # one worker: the serial kernel, equal to the parallel one bit for bit
            # (tests/_kernels/test_serial_kernels.py), without compiling it for every scan
            streaming.bootstrap_ranking(plan.atoms, plan.clusters, options, _draw(r), out, 1)
            combined = pieces.scan_pieces(options, positive, negative, cuts, True)
            assert combined == out[0] or (np.isnan(combined) and np.isnan(out[0])), name


def test_pieces_in_any_layout_and_order_reproduce_the_whole_bit_for_bit():
    # 6000 rows, 1 decimal: the whole is laid out as tie cells; pieces of fewer than
    # 2048 rows are laid out row by row, alike rows marked as repeats
    rng = np.random.default_rng(5)
    y, s = binormal_scores(6000, rng=6)
    s = np.round(s, 1)
    assert _plan(y, s).atoms.cells
    rows_above = np.cumsum(np.unique(s, return_counts=True)[1][::-1])  # highest first
    inner = np.searchsorted(rows_above, [1200, 2400, 3600, 4800]) + 1  # about 1200 rows each
    cuts = np.concatenate([[0], inner, [rows_above.shape[0]]])
    parts = score_pieces(s, cuts, rng)
    assert all(rows.shape[0] < 2048 for rows in parts)
    piece = _plan(y[parts[1]], s[parts[1]]).atoms
    assert not piece.cells and piece.repeats.shape[0] > 0
    assert_pieces_reproduce_the_whole(y, s, cuts, rng)


@settings(max_examples=40, deadline=None)
@given(data=binary_ranking_data(min_n=2, max_n=60, both_classes=True), choice=st.data())
def test_pieces_of_any_data_reproduce_the_whole(data, choice):
    y, s, _ = data
    cuts = choice.draw(split_into_pieces(np.unique(s).shape[0]))
    order = np.array(choice.draw(st.permutations(range(y.shape[0]))))
    rng = np.random.default_rng(int(order[0]))
    assert_pieces_reproduce_the_whole(y[order], s[order], cuts, rng, scans=SCANS[::2])


@settings(max_examples=40, deadline=None)
@given(data=binary_ranking_data(min_n=2, max_n=60, both_classes=True), choice=st.data())
def test_a_weighted_row_draws_the_same_count_in_any_piece(data, choice):
    # a weighted row is keyed by its position in the input: a piece that knows its rows'
    # positions draws their counts exactly as the whole does
    y, s, weights = data
    weights = np.ones(y.shape[0]) if weights is None else weights
    kept = np.flatnonzero(weights > 0)
    cuts = choice.draw(split_into_pieces(kept.shape[0]))
    shuffled = kept[np.array(choice.draw(st.permutations(range(kept.shape[0]))))]
    whole = _plan(y, s, weights).atoms
    np.testing.assert_array_equal(np.sort(whole.key), kept)
    for r in range(REPLICATES):
        _, counts = _traced(whole, r)
        count_of_row = dict(zip(whole.key.tolist(), counts.tolist(), strict=True))
        for low, high in itertools.pairwise(cuts):
            rows = shuffled[low:high]
            piece = _plan(y[rows], s[rows], weights[rows]).atoms
            piece = piece._replace(key=rows[piece.key].astype(np.uint64))  # global positions
            _, piece_counts = _traced(piece, r)
            for row, count in zip(piece.key.tolist(), piece_counts.tolist(), strict=True):
                assert count_of_row[row] == count


@pytest.mark.parametrize(
    ("metric", "keywords"),
    [
        (assay.roc_auc_score, {}),
        (assay.average_precision_score, {}),
        (assay.equal_error_rate, {}),
        (assay.roc_auc_score, {"max_fpr": 0.2}),
    ],
)
@pytest.mark.parametrize("decimals", [None, 2, 1])  # distinct; ties row by row; tie cells
def test_bootstrap_of_a_ranking_metric_does_not_depend_on_the_order_of_the_rows(
    metric, keywords, decimals
):
    y, s = binormal_scores(4000, rng=7)
    if decimals is not None:
        s = np.round(s, decimals)
    order = np.random.default_rng(8).permutation(y.shape[0])
    results = [
        assay.bootstrap(metric, y[rows], s[rows], n_resamples=40, rng=9,
                        resampling="poisson", **keywords)
        for rows in (np.arange(y.shape[0]), order)
    ]  # fmt: skip
    np.testing.assert_array_equal(*(r.bootstrap_distribution for r in results))
    assert results[0].confidence_interval == results[1].confidence_interval


def test_bootstrap_of_a_confusion_metric_does_not_depend_on_the_order_of_the_rows():
    y, s = binormal_scores(3000, rng=10)
    y_pred = (s > 0.4).astype(int)
    order = np.random.default_rng(11).permutation(y.shape[0])
    first, second = (
        assay.bootstrap(assay.f1_score, y[rows], y_pred[rows], n_resamples=40, rng=12,
                        resampling="poisson")
        for rows in (np.arange(y.shape[0]), order)
    )  # fmt: skip
    np.testing.assert_array_equal(first.bootstrap_distribution, second.bootstrap_distribution)


@settings(max_examples=25, deadline=None)
@given(data=paired_ranking_data(min_n=4, max_n=40), choice=st.data())
def test_paired_bootstrap_does_not_depend_on_the_order_of_the_rows(data, choice):
    y, a, b, _ = data
    order = np.array(choice.draw(st.permutations(range(y.shape[0]))))
    results, messages = [], []
    for rows in (np.arange(y.shape[0]), order):
        # tiny samples may leave the metric undefined in some replicates: both orders
        # must then warn alike
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always", AssayWarning)
            results.append(
                assay.compare(assay.roc_auc_score, y[rows], a[rows], b[rows], n_resamples=20,
                              rng=13, resampling="poisson", interval="percentile")
            )  # fmt: skip
        messages.append([(w.category, str(w.message)) for w in record])
    first, second = results
    np.testing.assert_array_equal(first.resampled_differences, second.resampled_differences)
    assert first.n_undefined == second.n_undefined
    assert messages[0] == messages[1]


def test_paired_bootstrap_of_tied_data_does_not_depend_on_the_order_of_the_rows():
    # alike rows (both scores and the class equal) are one cell wherever they stand
    y, a = binormal_scores(3000, rng=14)
    b = np.round(a + np.random.default_rng(15).normal(scale=0.5, size=3000), 1)
    a = np.round(a, 1)
    order = np.random.default_rng(16).permutation(y.shape[0])
    first, second = (
        assay.compare(assay.average_precision_score, y[rows], a[rows], b[rows],
                      n_resamples=30, rng=17, resampling="poisson")
        for rows in (np.arange(y.shape[0]), order)
    )  # fmt: skip
    np.testing.assert_array_equal(first.resampled_differences, second.resampled_differences)


def test_a_confusion_cell_draws_its_count_from_its_own_stream():
    # a cell's Poisson count depends on the cell alone: tables summed from pieces of the
    # rows, or with other cells changed, draw it the same; it is Poisson(count) drawn
    # from the stream keyed by the cell's index
    cells = np.array([40, 3, 7, 50], dtype=np.int64)
    other = np.array([0, 3, 900, 1], dtype=np.int64)
    draws = []
    for table in (cells, other):
        out = np.empty((REPLICATES, 4), dtype=np.int64)
        resample.bootstrap_cells(table, 2, _draw(0), out, 2)
        draws.append(out)
    np.testing.assert_array_equal(draws[0][:, 1], draws[1][:, 1])
    for r in range(REPLICATES):
        for c in range(4):
            state = np.uint64(keyed_stream(np.uint64(stream(SEED, np.uint64(r))), np.uint64(c)))
            expected, _ = poisson(float(cells[c]), state)
            assert draws[0][r, c] == expected


def test_a_generic_row_draws_its_count_from_the_stream_keyed_by_its_position():
    n = 50
    strata = resample.Strata(np.array([n], dtype=np.int64), np.empty(0, np.int64), 0)
    out = np.empty((REPLICATES, n), dtype=np.int64)
    resample.bootstrap_row_counts(strata, _draw(0), out, 2)
    for r in range(REPLICATES):
        resample_state = np.uint64(stream(SEED, np.uint64(r)))
        states = [np.uint64(keyed_stream(resample_state, np.uint64(k))) for k in range(n)]
        expected = [poisson(1.0, state)[0] for state in states]
        np.testing.assert_array_equal(out[r], expected)
