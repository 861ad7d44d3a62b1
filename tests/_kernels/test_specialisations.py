"""Kernels compile only the specialisations a call needs (the cost of a cold first call).

A kernel loaded from the disk cache brings its callees with it, so what a kernel
compiles is observed on a fresh dispatcher of its Python function: compiling it types
every callee again, and each callee compiles (or loads) the signatures it is called
with.  Three things multiply the work: a signature per input dtype, a signature per
literal argument (Numba types a constant ``0`` or ``True`` passed to another kernel
as a literal and compiles the callee once more for it), and a branch on the scan's
direction or on whether a streamed replicate records its tie groups, which would compile
both paths although only one runs.  Small helpers
are not compiled on their own at all: they are inlined into the kernels that call them
(:func:`assay._kernels._jit.jit_inline`), which is seen in the caller's typed code.
"""

from __future__ import annotations

import inspect
import os
from collections import Counter

import numba
import numpy as np
import pytest
from numba.core import ir, types

import assay.reference
from assay._kernels import (
    _rng,
    atoms,
    delong,
    draws,
    order,
    paired,
    pieces,
    ranking,
    resample,
    sorting,
    streaming,
)
from assay._kernels.scans.average_precision import AveragePrecision
from assay._kernels.scans.partial_roc_auc import PartialRocAuc
from assay._kernels.scans.roc_auc import RocAuc
from assay.metrics._sorted import sort_binary

pytestmark = pytest.mark.skipif(
    os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"),
    reason="nothing is compiled with NUMBA_DISABLE_JIT=1",
)

_Y = np.array([0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0])
# the partial area's crossing group is cut by a float division (the reference's is exact)
PARTIAL_AREA_RTOL = 1e-12
_SCORES = np.array([0.9, 0.2, 0.4, 0.4, 0.6, 0.7, 0.1, 0.5, 0.8, 0.35, 0.45, 0.65])


def _fresh(kernel):
    """A new, uncached dispatcher of ``kernel``'s Python function."""
    return numba.njit(kernel.py_func)


def _with_literals(dispatcher) -> list:
    return [
        signature
        for signature in dispatcher.signatures
        if any(isinstance(argument, types.Literal) for argument in signature)
    ]


def _compiled_lines(dispatcher, signatures=None) -> set[tuple[str, int]]:
    """(file, line) of every statement of the dispatcher's compiled code (its typed IR),
    the helpers inlined into it included, and of the functions that the overloads it calls
    supplied for its calls (a scan's direction, a draw's scheme)."""
    lines = set()
    for arguments, compiled in dispatcher.overloads.items():
        if signatures is not None and arguments not in signatures:
            continue
        annotation = compiled.type_annotation
        if annotation is None:  # loaded from the disk cache: no typed code
            continue
        for block in annotation.blocks.values():
            lines.update((statement.loc.filename, statement.loc.line) for statement in block.body)
        for call, signature in annotation.calltypes.items():
            if not (isinstance(call, ir.Expr) and call.op == "call"):
                continue
            templates = getattr(annotation.typemap.get(call.func.name), "templates", ())
            for template in templates:
                for cached in getattr(template, "_impl_cache", {}).values():
                    implementation = cached[0] if isinstance(cached, tuple) else None
                    if hasattr(implementation, "overloads"):
                        lines |= _compiled_lines(implementation, {signature.args})
    return lines


def _called(dispatcher, signatures=None) -> set:
    """The Python functions of the kernels that the dispatcher's compiled code calls (not
    inlined), and of those that the overloads it calls supplied call in turn."""
    found = set()
    for arguments, compiled in dispatcher.overloads.items():
        if signatures is not None and arguments not in signatures:
            continue
        annotation = compiled.type_annotation
        if annotation is None:  # loaded from the disk cache: no typed code
            continue
        for call, signature in annotation.calltypes.items():
            if not (isinstance(call, ir.Expr) and call.op == "call"):
                continue
            function_type = annotation.typemap.get(call.func.name)
            if isinstance(function_type, types.Dispatcher):
                found.add(function_type.dispatcher.py_func)
            for template in getattr(function_type, "templates", ()):
                for cached in getattr(template, "_impl_cache", {}).values():
                    implementation = cached[0] if isinstance(cached, tuple) else None
                    if hasattr(implementation, "overloads"):
                        found |= _called(implementation, {signature.args})
    return found


def _lines_of(kernel) -> set[tuple[str, int]]:
    """(file, line) of every line of a kernel's body (after its ``def`` line); a kernel is
    a dispatcher or a plain function that an overload supplies (a draw's scheme)."""
    function = getattr(kernel, "py_func", kernel)
    source, first = inspect.getsourcelines(function)
    filename = function.__code__.co_filename
    start = next(k for k, line in enumerate(source) if line.lstrip().startswith("def ")) + 1
    return {(filename, first + k) for k in range(start, len(source))}


def _inlined(kernel, caller) -> bool:
    """Whether ``kernel``'s code was compiled into ``caller`` (a fresh dispatcher)."""
    return bool(_lines_of(kernel) & _compiled_lines(caller))


def test_a_forward_scan_compiles_no_backward_fold_and_inlines_its_helpers() -> None:
    sorted_data = sort_binary(_Y, _SCORES)
    arguments = (*sorted_data.kernel_arguments, sorted_data.integer_counts)
    kernel = _fresh(pieces.scan_merged_forward)
    value = kernel(RocAuc(), *arguments)
    assert value == assay.reference.roc_auc_score(_Y, _SCORES)  # exact: integer counts
    assert _inlined(pieces._merged_forward, kernel)
    assert not _inlined(pieces._merged_backward, kernel)
    assert not _inlined(pieces._group_backward, kernel)
    for helper in (pieces.class_weights, pieces.make_context):
        assert _inlined(helper, kernel), helper.__name__
    # the tie-group walk is called, not inlined: typed once, not again in every scan
    assert not _inlined(atoms.next_tie_group, kernel)
    assert atoms.next_tie_group.py_func in _called(kernel)


def test_every_scan_calls_the_one_compiled_tie_group_walk() -> None:
    sorted_data = sort_binary(_Y, _SCORES)
    arguments = (*sorted_data.kernel_arguments, sorted_data.integer_counts)
    walk = atoms.next_tie_group.py_func
    for options in (RocAuc(), AveragePrecision()):
        kernel = _fresh(pieces.scan_merged_forward)
        kernel(options, *arguments)
        assert walk in _called(kernel)
        assert not _inlined(atoms.next_tie_group, kernel)
    assert not _with_literals(atoms.next_tie_group)  # no signature of its own per literal


def test_the_hashing_pass_compiles_no_sort() -> None:
    # NumPy sorts the distinct scores the pass found (Numba's quicksort took about
    # 1.2 s of the first ranking call on 2048 rows or more)
    kernel = _fresh(ranking.hash_score_bits)
    scores = np.round(_SCORES, 1)
    ok, values, _, _ = kernel(scores, scores.view(np.uint64), ranking._SIGN, _Y == 1,
                              np.empty(0), False, 1.0, 16)  # fmt: skip
    assert ok and values.shape == (8,)
    sorts = {np.sort, np.argsort, np.ndarray.sort, np.ndarray.argsort}
    for compiled in kernel.overloads.values():
        typed = compiled.type_annotation.typemap.values()
        assert not [t for t in typed if getattr(t, "typing_key", None) in sorts]


def test_the_one_piece_scan_compiles_one_direction_and_inlines_its_helpers() -> None:
    positive = np.array([1.0, 0.0, 2.0, 1.0])
    negative = np.array([0.0, 1.0, 1.0, 2.0])
    kernel = _fresh(pieces.scan)
    value = kernel(RocAuc(), positive, negative, True)
    # the same atoms as rows: one tie group per distinct score, from the highest
    y = np.array([1, 0, 1, 1, 0, 1, 0, 0])
    s = np.array([4.0, 3.0, 2.0, 2.0, 2.0, 1.0, 1.0, 1.0])
    assert value == assay.reference.roc_auc_score(y, s)
    assert _inlined(pieces._piece_forward, kernel)
    assert not _inlined(pieces._piece_backward, kernel)
    assert _inlined(pieces.piece_totals, kernel)


def test_a_curve_compiles_its_walk_once() -> None:
    sorted_data = sort_binary(_Y, _SCORES)
    thresholds, true_positives, false_positives = _fresh(ranking.curve_points)(
        *sorted_data.kernel_arguments, ranking.DROP_NONE, True
    )
    # one point per distinct score after the origin; the last holds every row
    assert thresholds.shape[0] == np.unique(_SCORES).shape[0] + 1
    assert (true_positives[-1], false_positives[-1]) == (_Y.sum(), (1 - _Y).sum())
    assert not _with_literals(ranking._walk_kept_points)


def _atoms_of_their_own(cells: bool) -> tuple[streaming.RowAtoms, np.ndarray, np.ndarray]:
    """The atoms of ``_Y``, ``_SCORES`` (tie cells of the rounded scores when ``cells``)."""
    scores = np.round(_SCORES, 1) if cells else _SCORES
    order = np.argsort(-scores, kind="stable")
    ordered, labels = scores[order], _Y[order].astype(bool)
    rows = np.append(ordered[1:] == ordered[:-1], False)
    if cells:  # one atom per (score, class), positives first within a tie group
        cell_sizes = Counter(zip(-ordered, ~labels, strict=True))
        keys = sorted(cell_sizes)
        sizes = [cell_sizes[key] for key in keys]
        labels = np.array([not k[1] for k in keys])
        ordered = np.array([-k[0] for k in keys])
        rows = np.append(ordered[1:] == ordered[:-1], False)
        value = np.array(sizes, dtype=np.float64)
    else:
        value = np.empty(0)
    row_atoms = streaming.RowAtoms(
        labels, rows, value, cells, False, np.empty(0, np.uint64), np.empty(0, np.bool_)
    )
    return row_atoms, labels, ordered


@pytest.mark.parametrize("cells", [False, True])
def test_a_replicate_compiles_the_draw_of_its_scheme_alone(cells: bool) -> None:
    row_atoms, labels, scores = _atoms_of_their_own(cells)
    n = labels.shape[0]
    replicate = _fresh(streaming._replicate)
    trace = np.zeros(n, dtype=np.int64)
    value, _ = replicate(
        row_atoms, streaming.no_clusters(), RocAuc(), resample.MULTINOMIAL,
        streaming._Classes(*streaming._class_counts(row_atoms), draws.BINOMIAL),
        _rng.stream(np.uint64(7), np.uint64(2)), streaming.new_buffers(0), streaming.new_sums(0),
        trace, streaming.DRAWN,
    )  # fmt: skip
    sizes = row_atoms.value if cells else np.ones(n)
    assert trace.sum() == sizes.sum()  # a multinomial replicate draws n rows
    # the replicate's value is the AUC of its rows, each counted as often as drawn
    assert value == assay.reference.roc_auc_score(labels, scores, sample_weight=trace)
    assert _inlined(draws._multinomial_block, replicate)
    assert _inlined(draws._take, replicate)
    # the binomial sampler is a value it is given, compiled by itself when given
    assert _rng.binomial.py_func not in _called(replicate)
    assert not _inlined(draws._stratified_block, replicate)
    assert not _inlined(draws._poisson_block, replicate)
    assert not _inlined(draws._poisson_counts, replicate)
    # without clusters it compiles no multinomial draw over the clusters
    assert resample._rows_multinomial.py_func not in _called(replicate)
    # its small helpers are its own code, not functions compiled on their own
    assert _inlined(streaming._small, replicate)
    assert _inlined(streaming._start, replicate)
    # the full area folds in one pass: no recording of the tie groups, no one-piece scan
    assert _inlined(streaming._fold_groups, replicate)
    assert not _inlined(streaming._record_groups, replicate)
    assert pieces.scan.py_func not in _called(replicate)


def test_only_a_recording_scan_compiles_the_recording_path() -> None:
    """The partial area reads the class totals: its replicate records the tie groups and
    scans them at its end (the full area's replicate above compiles neither)."""
    row_atoms, labels, scores = _atoms_of_their_own(cells=False)
    n = labels.shape[0]
    replicate = _fresh(streaming._replicate)
    trace = np.zeros(n, dtype=np.int64)
    groups = atoms.count_groups(row_atoms.continues)
    value, _ = replicate(
        row_atoms, streaming.Clusters(np.empty(0, np.int64), 0), PartialRocAuc(0.4),
        resample.MULTINOMIAL,
        streaming._Classes(*streaming._class_counts(row_atoms), draws.BINOMIAL),
        _rng.stream(np.uint64(7), np.uint64(2)), streaming.new_buffers(0),
        streaming.new_sums(groups), trace, streaming.DRAWN,
    )  # fmt: skip
    assert value == pytest.approx(
        assay.reference.roc_auc_score(labels, scores, sample_weight=trace, max_fpr=0.4),
        rel=PARTIAL_AREA_RTOL,
    )
    assert _inlined(streaming._record_groups, replicate)
    assert not _inlined(streaming._fold_groups, replicate)
    assert pieces.scan.py_func in _called(replicate)


# -- the sorts with a payload compile only for the weighted sort, by its size -----------


def test_the_delong_walk_orders_shared_prefixes_without_a_radix_sort() -> None:
    """Rows whose scores share the packed prefix are ordered by their full keys (insertion
    or a merge sort), in a kernel of its own that the walk leaves to its caller: the walk
    compiles no sort at all, and the ordering no radix sort with a payload."""
    positive = _Y.astype(bool)
    # one distinct score needs more bits than a packed word's prefix holds (inexact
    # words), and four scores differ only below the prefix (a run to order)
    scores = np.concatenate([_SCORES[:8], 0.5 + np.arange(4) * 2.0**-52])
    scores[0] = -1e300
    m = int(positive.sum())
    words, class_keys, index_bits, exact = delong.packed_words(scores, positive, m)
    assert not exact
    words.sort()
    v10, v01 = np.empty(m), np.empty(positive.shape[0] - m)
    totals = np.array([float(m), float(positive.shape[0] - m)])
    walk = _fresh(delong.placements_from_words)
    arguments = (words, class_keys, exact, index_bits, np.empty(0), False, totals, v10, v01)
    auc, unordered = walk(*arguments)
    assert np.isnan(auc) and unordered >= 0  # the run is out of order: the walk stops
    order_runs = _fresh(delong.order_runs)
    order_runs(words, class_keys, index_bits, m, unordered)
    auc, unordered = walk(*arguments)
    assert unordered == -1
    assert auc == assay.reference.roc_auc_score(_Y, scores)  # exact: integer counts
    sorts = {
        sorting._lsd_with_payload.py_func,
        sorting.bucket_sort_with_payload.py_func,
        sorting._sort_bucket_with_payload.py_func,
        order.order_words_by_keys.py_func,
    }
    assert not _called(walk) & sorts
    assert _called(order_runs) & sorts == {order.order_words_by_keys.py_func}


@pytest.mark.parametrize("offset", [-1, 0])
def test_the_size_of_a_weighted_sort_chooses_its_kernel(offset: int, monkeypatch) -> None:
    """Below ``MSD_THRESHOLD`` keys the sort with weights runs the LSD kernel and never
    calls (so never compiles) the bucket kernel; from there it takes the bucket passes.
    The choice is made in Python, so a spy on the module's kernels sees it."""
    n = sorting.MSD_THRESHOLD + offset
    values = np.random.default_rng(20261127).random(n)
    calls: list[str] = []
    # compiled (or loaded) before the spies replace the module's names: a kernel
    # compiled after that would look up a spy, a Python function, as its callee
    ranking.sort_with_weights(-values, np.arange(n, dtype=np.float64))

    def spy(name: str, module):
        kernel = getattr(module, name)

        def call(*arguments):
            calls.append(name)
            return kernel(*arguments)

        monkeypatch.setattr(module, name, call)

    spy("_sort_with_weights_buckets", ranking)
    spy("_sort_with_weights_lsd", ranking)
    expected = np.argsort(-values, kind="stable")
    negated, weights = -values, np.arange(n, dtype=np.float64)
    ranking.sort_with_weights(negated, weights)
    np.testing.assert_array_equal(weights, expected)
    np.testing.assert_array_equal(negated, -values[expected])
    if offset < 0:
        assert calls == ["_sort_with_weights_lsd"]
    else:
        assert calls == ["_sort_with_weights_buckets"]


def _numpy_functions_called(dispatcher) -> set:
    """The NumPy functions that the dispatcher's compiled code calls (its own typed IR,
    the helpers inlined into it included)."""
    found = set()
    for compiled in dispatcher.overloads.values():
        annotation = compiled.type_annotation
        for call in annotation.calltypes:
            if isinstance(call, ir.Expr) and call.op == "call":
                key = getattr(annotation.typemap.get(call.func.name), "typing_key", None)
                if getattr(key, "__module__", None) == "numpy":
                    found.add(key)
    return found


def test_the_replicates_of_one_thread_are_given_their_buffers() -> None:
    """The buffers and sums of a thread's replicates are allocated in Python and given to
    its kernel, which compiles no NumPy allocation; each value is the AUC of its drawn
    rows."""
    row_atoms, labels, scores = _atoms_of_their_own(cells=False)
    clusters = streaming.Clusters(np.empty(0, np.int64), 0)
    n_positive, n_negative, block_positives = streaming._class_counts(row_atoms)
    draw = draws.with_binomial(resample.Draw(resample.MULTINOMIAL, np.uint64(11), 0),
                               row_atoms, clusters)  # fmt: skip
    out = np.empty(3)
    replicates = _fresh(streaming._ranking_replicates)
    scratch = streaming._ranking_scratch(row_atoms, clusters, RocAuc())
    replicates(row_atoms, clusters, RocAuc(), draw, streaming.DRAWN, out, n_positive, n_negative,
               block_positives, *scratch(), np.int64(0), 1)  # fmt: skip
    for r in range(out.shape[0]):
        _, trace = streaming.traced_replicate(
            row_atoms, clusters, RocAuc(), resample.Draw(draw.scheme, draw.seed, r)
        )
        assert out[r] == assay.reference.roc_auc_score(labels, scores, sample_weight=trace)
    assert _numpy_functions_called(replicates) == set()
    # the lanes' kernel makes its byte counts itself: the check sees an allocation
    lanes = _fresh(paired._lane_batches)
    out_b = np.empty(3)
    lanes(row_atoms, row_atoms, np.arange(labels.shape[0]), clusters, RocAuc(), draw,
          streaming.DRAWN, out, out_b, np.zeros(3, dtype=np.bool_), n_positive, n_negative,
          block_positives, *paired.lanes_scratch(clusters)(), np.int64(0), 1)  # fmt: skip
    assert np.zeros in _numpy_functions_called(lanes)
    assert (out_b == out).all()  # model B is model A here: the same replicates


def test_only_a_replicate_with_clusters_compiles_their_draw() -> None:
    """Whole clusters are drawn first, by a multinomial over the clusters: compiled for
    :class:`~assay._kernels.streaming.Clusters`, not for ``NoClusters``."""
    row_atoms, labels, scores = _atoms_of_their_own(cells=False)
    n = labels.shape[0]
    cluster_of_atom = np.arange(n, dtype=np.int64) % 4
    clusters = streaming.Clusters(cluster_of_atom, 4)
    replicate = _fresh(streaming._replicate)
    trace = np.zeros(n, dtype=np.int64)
    value, _ = replicate(
        row_atoms, clusters, RocAuc(), resample.MULTINOMIAL,
        streaming._Classes(*streaming._class_counts(row_atoms), draws.BINOMIAL),
        _rng.stream(np.uint64(7), np.uint64(2)), streaming.new_buffers(4), streaming.new_sums(0),
        trace, streaming.DRAWN,
    )  # fmt: skip
    # every atom of a cluster is counted as often as its cluster was drawn: 4 draws
    for cluster in range(4):
        counts = trace[cluster_of_atom == cluster]
        assert (counts == counts[0]).all()
    assert trace[:4].sum() == 4
    assert value == assay.reference.roc_auc_score(labels, scores, sample_weight=trace)
    assert resample._rows_multinomial.py_func in _called(replicate)
