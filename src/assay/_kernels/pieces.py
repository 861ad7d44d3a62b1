"""The scan contract: fold consecutive pieces of the sorted atoms, combine them exactly.

Atoms are the tie groups in descending score order: ``positive[k]`` and
``negative[k]`` are the positive and the negative weight of group ``k`` (float64; whole
numbers when the counts are integers).  A ranking metric declared in
:mod:`assay._kernels.scans` is computed over any split of the atoms into consecutive
pieces ``[cuts[j], cuts[j + 1])``:

1. the totals of every piece (:func:`piece_totals`);
2. their exclusive prefix: the weight above each piece, the exact starting state of its
   fold; the grand totals make the :class:`~assay._kernels.scans.Context`;
3. for a metric with a below pass, the summary of every piece and their exclusive
   suffix (what lies below each piece);
4. the fold of every piece from its prefix (:func:`fold_piece`; independent, so pieces
   may be folded on several threads or machines);
5. the states combined in order, and the finish.

With integer counts every sum is exact, so the result is bit-identical for any split,
one piece included; with fractional weights the totals are summed piece by piece and
results agree to rounding (about 1e-15 relative).

The same steps run on all threads over the two classes' sorted scores without building
the atoms (:func:`scan_merged_parallel`): the merged order is cut at tie-group
boundaries (:func:`merged_cuts`) into a number of pieces chosen from the size alone
(:func:`pieces_for`), so a result never depends on the number of threads.
"""

from __future__ import annotations

import numpy as np
from numba import prange
from numba.extending import overload

from assay._kernels._jit import OVERLOAD_OPTIONS, jit, jit_inline, jit_parallel
from assay._kernels.atoms import next_tie_group
from assay._kernels.ranking import DROP_NONE, curve_piece
from assay._kernels.scans import (
    SCANS,
    Context,
    below_combine,
    below_fold,
    below_identity,
    folds_backward,
    scan_combine,
    scan_finish,
    scan_fold,
    scan_start,
)

# 2 P N must stay below this for the integer sums of exact counts (int64, with margin)
EXACT_LIMIT = 2.0**61
# below this, float64 sums of integers bounded by 2 P N are exact too (the 53-bit significand)
FLOAT_EXACT_LIMIT = 2.0**53
_ONE = np.uint64(1)


@jit_inline
def piece_totals(positive, negative, start, end):
    """The positive and the negative weight of atoms ``start .. end - 1``."""
    total_positive = 0.0
    total_negative = 0.0
    for k in range(start, end):
        total_positive += positive[k]
        total_negative += negative[k]
    return total_positive, total_negative


@jit_inline
def make_context(total_positive, total_negative, integer_counts):
    """The context of a scan: exact sums when the counts are integers and small enough."""
    twice_pairs = 2.0 * total_positive * total_negative
    exact = integer_counts and twice_pairs < EXACT_LIMIT
    small = exact and twice_pairs < FLOAT_EXACT_LIMIT
    return Context(total_positive, total_negative, exact, small)


@jit
def below_summary(options, context, positive, negative, start, end, tp, fp):
    """The below-pass summary of the atoms ``start .. end - 1`` (weight ``tp``, ``fp`` above)."""
    summary = below_identity(options)
    for k in range(start, end):
        summary = below_fold(options, context, summary, tp, fp, positive[k], negative[k])
        tp += positive[k]
        fp += negative[k]
    return summary


@jit_inline
def _piece_forward(options, context, below, positive, negative, start, end, tp, fp):
    state = scan_start(options, context, below)
    for k in range(start, end):
        state = scan_fold(options, context, state, tp, fp, positive[k], negative[k])
        tp += positive[k]
        fp += negative[k]
    return state


@jit_inline
def _piece_backward(options, context, below, positive, negative, start, end, tp, fp):
    state = scan_start(options, context, below)
    piece_positive, piece_negative = piece_totals(positive, negative, start, end)
    tp_below = tp + piece_positive
    fp_below = fp + piece_negative
    for k in range(end - 1, start - 1, -1):
        tp_below -= positive[k]
        fp_below -= negative[k]
        state = scan_fold(options, context, state, tp_below, fp_below, positive[k], negative[k])
    return state


def fold_piece(options, context, below, positive, negative, start, end, tp, fp):
    """The state of the atoms ``start .. end - 1`` with weight ``tp``, ``fp`` above them.

    ``below`` is the below-pass summary of everything under the piece (the identity
    for metrics without a below pass).  A backward scan visits the atoms from the lowest
    score up, with the weight above each atom obtained by subtracting from the piece's
    bottom.  Inside kernels the direction is chosen when the caller compiles
    (:func:`_fold_piece`), so only the scan's own direction is compiled.
    """
    if folds_backward(options):
        return _piece_backward(options, context, below, positive, negative, start, end, tp, fp)
    return _piece_forward(options, context, below, positive, negative, start, end, tp, fp)


def piece_kernel(options):
    """The compiled fold of one piece in the direction of the scan of ``options``
    (for Python callers that need the compiled dispatcher, e.g. to read its types)."""
    return _piece_backward if folds_backward(options) else _piece_forward


def _backward(options):
    """Whether the scan of the options type ``options`` (a Numba type) folds backward."""
    return SCANS[options.instance_class].backward


@overload(fold_piece, jit_options=OVERLOAD_OPTIONS)
def _fold_piece(options, context, below, positive, negative, start, end, tp, fp):
    # a branch on ``folds_backward`` would compile both directions into every caller
    def backward(options, context, below, positive, negative, start, end, tp, fp):
        return _piece_backward(options, context, below, positive, negative, start, end, tp, fp)

    def forward(options, context, below, positive, negative, start, end, tp, fp):
        return _piece_forward(options, context, below, positive, negative, start, end, tp, fp)

    return backward if _backward(options) else forward


@jit
def scan(options, positive, negative, integer_counts):
    """The metric of all atoms, folded as one piece."""
    m = positive.shape[0]
    first = np.int64(0)  # not a literal 0: a literal argument compiles its own callee
    total_positive, total_negative = piece_totals(positive, negative, first, m)
    context = make_context(total_positive, total_negative, integer_counts)
    state = fold_piece(options, context, below_identity(options), positive, negative, first, m,
                       0.0, 0.0)  # fmt: skip
    return scan_finish(options, context, state)


@jit
def scan_pieces(options, positive, negative, cuts, integer_counts):
    """The metric of all atoms, folded piece by piece (``cuts``: 0, ..., m) and combined.

    The reference implementation of the contract, serial; the one-machine parallel scan
    and the distributed scan run the same steps with the pieces elsewhere.
    """
    n_pieces = cuts.shape[0] - 1
    piece_positive = np.empty(n_pieces, dtype=np.float64)
    piece_negative = np.empty(n_pieces, dtype=np.float64)
    for j in range(n_pieces):
        piece_positive[j], piece_negative[j] = piece_totals(positive, negative, cuts[j],
                                                            cuts[j + 1])  # fmt: skip
    above_positive = np.zeros(n_pieces, dtype=np.float64)
    above_negative = np.zeros(n_pieces, dtype=np.float64)
    for j in range(1, n_pieces):
        above_positive[j] = above_positive[j - 1] + piece_positive[j - 1]
        above_negative[j] = above_negative[j - 1] + piece_negative[j - 1]
    total_positive = above_positive[n_pieces - 1] + piece_positive[n_pieces - 1]
    total_negative = above_negative[n_pieces - 1] + piece_negative[n_pieces - 1]
    context = make_context(total_positive, total_negative, integer_counts)
    # what lies below each piece: the exclusive suffix of the pieces' summaries
    below = below_identity(options)
    belows = [below] * n_pieces
    for j in range(n_pieces - 1, 0, -1):
        summary = below_summary(options, context, positive, negative, cuts[j], cuts[j + 1],
                                above_positive[j], above_negative[j])  # fmt: skip
        below = below_combine(options, summary, below)
        belows[j - 1] = below
    state = fold_piece(options, context, belows[0], positive, negative, cuts[0], cuts[1],
                       above_positive[0], above_negative[0])  # fmt: skip
    for j in range(1, n_pieces):
        lower = fold_piece(options, context, belows[j], positive, negative, cuts[j],
                           cuts[j + 1], above_positive[j], above_negative[j])  # fmt: skip
        state = scan_combine(options, state, lower)
    return scan_finish(options, context, state)


@jit
def curve_pieces(scores, positive, negative, cuts, mode):
    """The kept curve points of all atoms, piece by piece (``cuts``: 0, ..., m).

    The serial reference of a piecewise curve: the prefix of the pieces' totals, each
    piece's points from its prefix and one atom of lookahead (:func:`curve_piece`),
    concatenated in order.  Returns ``(thresholds, tp, fp)``.
    """
    m = scores.shape[0]
    if m <= 2:
        mode = DROP_NONE
    n_pieces = cuts.shape[0] - 1
    none = np.empty(0, dtype=np.float64)
    counts = np.zeros(n_pieces, dtype=np.int64)
    above_positive = np.zeros(n_pieces + 1, dtype=np.float64)
    above_negative = np.zeros(n_pieces + 1, dtype=np.float64)
    for j in range(n_pieces):
        piece_positive, piece_negative = piece_totals(positive, negative, cuts[j], cuts[j + 1])
        above_positive[j + 1] = above_positive[j] + piece_positive
        above_negative[j + 1] = above_negative[j] + piece_negative
    afters = np.full((n_pieces, 2), -1.0)
    for j in range(n_pieces):
        if cuts[j + 1] < m:  # the next atom (of the next non-empty piece)
            afters[j, 0] = positive[cuts[j + 1]]
            afters[j, 1] = negative[cuts[j + 1]]
    for j in range(n_pieces):
        start, end = cuts[j], cuts[j + 1]
        counts[j] = curve_piece(scores[start:end], positive[start:end], negative[start:end],
                                above_positive[j], above_negative[j], (afters[j, 0], afters[j, 1]),
                                mode, none, none, none)  # fmt: skip
    total = 0
    for j in range(n_pieces):
        total += counts[j]
    thresholds = np.empty(total, dtype=np.float64)
    true_positives = np.empty(total, dtype=np.float64)
    false_positives = np.empty(total, dtype=np.float64)
    offset = 0
    for j in range(n_pieces):
        start, end = cuts[j], cuts[j + 1]
        stop = offset + counts[j]
        curve_piece(scores[start:end], positive[start:end], negative[start:end],
                    above_positive[j], above_negative[j], (afters[j, 0], afters[j, 1]), mode,
                    thresholds[offset:stop], true_positives[offset:stop],
                    false_positives[offset:stop])  # fmt: skip
        offset = stop
    return thresholds, true_positives, false_positives


@jit_inline
def _group_backward(a, b, wa, wb, use_weights, i, j):
    """The tie group ending just before positions ``i``, ``j`` (walking down the scores;
    read at unsigned positions: Numba tests a signed index for being negative)."""
    # wraps when i == 0, read only when i > 0 (unsigned on both sides: without the JIT
    # too, where ``np.uint64(i - 1)`` of a Python -1 would raise)
    u = np.uint64(i) - _ONE
    v = np.uint64(j) - _ONE
    value = a[u] if i > 0 and (j <= 0 or a[u] >= b[v]) else b[v]
    p = 0.0
    while i > 0 and a[np.uint64(i - 1)] == value:
        i -= 1
        p += wa[np.uint64(i)] if use_weights else 1.0
    q = 0.0
    while j > 0 and b[np.uint64(j - 1)] == value:
        j -= 1
        q += wb[np.uint64(j)] if use_weights else 1.0
    return p, q, i, j


@jit_inline
def class_weights(a, b, wa, wb, use_weights):
    """Total positive weight P and negative weight N of two classes' entries."""
    if not use_weights:
        return float(a.shape[0]), float(b.shape[0])
    total_positive = 0.0
    for i in range(wa.shape[0]):
        total_positive += wa[i]
    total_negative = 0.0
    for j in range(wb.shape[0]):
        total_negative += wb[j]
    return total_positive, total_negative


@jit
def sorted_summary(a, b, wa, wb, use_weights):
    """What a piece of two classes' sorted entries tells the pieces around it.

    Returns ``(P, N, p, q, groups)``: its total positive and negative weight, the
    weights of its highest tie group (``p``, ``q``; zeros when empty), and its tie
    groups counted up to 3 (0, 1, 2 or 3: more are not visited).
    """
    total_positive, total_negative = class_weights(a, b, wa, wb, use_weights)
    first_positive = 0.0
    first_negative = 0.0
    groups = 0
    i = np.int64(0)  # not a literal 0: a literal argument compiles its own callee
    j = np.int64(0)
    while groups < 3 and (i < a.shape[0] or j < b.shape[0]):
        _, p, q, i, j = next_tie_group(a, b, wa, wb, use_weights, i, j)
        if groups == 0:
            first_positive = p
            first_negative = q
        groups += 1
    return total_positive, total_negative, first_positive, first_negative, groups


@jit_inline
def _merged_forward(options, context, below, a, b, wa, wb, use_weights, tp, fp):
    state = scan_start(options, context, below)
    i = np.int64(0)  # not a literal 0: a literal argument compiles its own callee
    j = np.int64(0)
    while i < a.shape[0] or j < b.shape[0]:
        _, p, q, i, j = next_tie_group(a, b, wa, wb, use_weights, i, j)
        state = scan_fold(options, context, state, tp, fp, p, q)
        tp += p
        fp += q
    return state


@jit_inline
def _merged_backward(options, context, below, a, b, wa, wb, use_weights, tp, fp):
    # ``tp``, ``fp``: the weight above the lowest tie group's bottom (all the piece's too)
    state = scan_start(options, context, below)
    i = a.shape[0]
    j = b.shape[0]
    while i > 0 or j > 0:
        p, q, i, j = _group_backward(a, b, wa, wb, use_weights, i, j)
        tp -= p
        fp -= q
        state = scan_fold(options, context, state, tp, fp, p, q)
    return state


def scan_merged(options, a, b, wa, wb, use_weights, integer_counts):
    """The metric of two classes' sorted scores, their tie groups visited by a merge.

    ``a``, ``b``: the negated scores of the positive and of the negative entries,
    ascending; ``wa``, ``wb``: their weights (read when ``use_weights``).  The same
    fold as :func:`scan` over the atoms, without building the atoms: memory O(1).
    The kernel of the scan's direction is chosen here (:func:`scan_merged_forward`,
    :func:`scan_merged_backward`): each compiles one function per metric, with the walk
    of its direction inlined (a loop compiled beside the other, unused one runs about
    half as fast).
    """
    kernel = scan_merged_backward if folds_backward(options) else scan_merged_forward
    return kernel(options, a, b, wa, wb, use_weights, integer_counts)


@jit
def scan_merged_forward(options, a, b, wa, wb, use_weights, integer_counts):
    """:func:`scan_merged` of a scan that folds from the highest score down."""
    total_positive, total_negative = class_weights(a, b, wa, wb, use_weights)
    context = make_context(total_positive, total_negative, integer_counts)
    state = _merged_forward(options, context, below_identity(options), a, b, wa, wb,
                            use_weights, 0.0, 0.0)  # fmt: skip
    return scan_finish(options, context, state)


@jit
def scan_merged_backward(options, a, b, wa, wb, use_weights, integer_counts):
    """:func:`scan_merged` of a scan that folds from the lowest score up."""
    total_positive, total_negative = class_weights(a, b, wa, wb, use_weights)
    context = make_context(total_positive, total_negative, integer_counts)
    state = _merged_backward(options, context, below_identity(options), a, b, wa, wb,
                             use_weights, total_positive, total_negative)  # fmt: skip
    return scan_finish(options, context, state)


def merged_state(options, context, below, a, b, wa, wb, use_weights, tp, fp, p, q):
    """The scan state of two classes' merged tie groups, folded in the scan's direction.

    ``tp``, ``fp``: the weight above the entries; ``p``, ``q``: the entries' own class
    weights (a backward fold starts from their bottom, ``tp + p``, ``fp + q``).  Inside
    kernels the direction is chosen when the caller compiles (:func:`_merged_state`),
    so only the scan's own direction is compiled.
    """
    if folds_backward(options):
        return _merged_backward(options, context, below, a, b, wa, wb, use_weights, tp + p,
                                fp + q)  # fmt: skip
    return _merged_forward(options, context, below, a, b, wa, wb, use_weights, tp, fp)


@overload(merged_state, jit_options=OVERLOAD_OPTIONS)
def _merged_state(options, context, below, a, b, wa, wb, use_weights, tp, fp, p, q):
    def backward(options, context, below, a, b, wa, wb, use_weights, tp, fp, p, q):
        return _merged_backward(options, context, below, a, b, wa, wb, use_weights, tp + p,
                                fp + q)  # fmt: skip

    def forward(options, context, below, a, b, wa, wb, use_weights, tp, fp, p, q):
        return _merged_forward(options, context, below, a, b, wa, wb, use_weights, tp, fp)

    return backward if _backward(options) else forward


# --- The parallel scan of the two sorted classes: the merged order cut into pieces. ---

PARALLEL_MIN_ENTRIES = 1 << 22
"""Below this many entries (both classes together) :func:`scan_sorted` folds one piece.

Measured (docs/performance.md, "The parallel scan of the sorted classes"): on one thread
the pieces cost the same CPU time as one piece; the scan is a fifth to a quarter of a
call (validation, the split of the classes and their sorts are the rest), so a second
free core saves about a tenth of a call (measured at 1e7); and the first parallel call
of a process loads the parallel kernel from the disk cache (30-40 ms of CPU, as much as
a whole call at 1e6 rows).  From about 4e6 entries that load is about a fifth of one
call, and a free second core repays it within about two calls."""
PIECE_ENTRIES = 1 << 17
"""Entries per piece of the parallel scan (about: pieces end where a tie group ends)."""
MAX_PIECES = 64


def pieces_for(n_entries: int) -> int:
    """The number of pieces of the parallel scan: a function of the size alone, never of
    the thread count, so that a result is the same on any number of threads."""
    return int(max(1, min(MAX_PIECES, n_entries // PIECE_ENTRIES)))


@jit
def merged_cuts(a, b, n_pieces):
    """Where to cut two ascending arrays into ``n_pieces`` pieces of their merged order.

    Returns ``(cuts_a, cuts_b)``, each ``0, ..., len``: piece ``j`` holds ``a[cuts_a[j]:
    cuts_a[j + 1]]`` and ``b[cuts_b[j]:cuts_b[j + 1]]``.  Piece ``j`` starts near merged
    position ``j (na + nb) / n_pieces``: at the value there, every entry below it (a
    higher score) above the cut, every entry equal to it below, so that no tie group is
    split.  Pieces may be empty (a tie group longer than a piece).
    """
    na = a.shape[0]
    nb = b.shape[0]
    cuts_a = np.empty(n_pieces + 1, dtype=np.int64)
    cuts_b = np.empty(n_pieces + 1, dtype=np.int64)
    cuts_a[0] = 0
    cuts_b[0] = 0
    cuts_a[n_pieces] = na
    cuts_b[n_pieces] = nb
    for piece in range(1, n_pieces):
        rank = (piece * (na + nb)) // n_pieces  # 0 < rank < na + nb
        # the first ``rank`` entries of the merge: ``a[:i]`` and ``b[:rank - i]``
        low = max(0, rank - nb)
        high = min(rank, na)
        while low < high:
            i = (low + high) // 2
            if a[i] < b[rank - i - 1]:
                low = i + 1
            else:
                high = i
        i = low
        j = rank - i
        value = a[i] if i < na and (j >= nb or a[i] <= b[j]) else b[j]
        cuts_a[piece] = np.searchsorted(a, value)  # side "left": ties go below the cut
        cuts_b[piece] = np.searchsorted(b, value)
    return cuts_a, cuts_b


@jit_inline
def _piece_entries(a, b, wa, wb, use_weights, cuts_a, cuts_b, piece):
    """Piece ``piece`` of both classes (and of their weights when ``use_weights``)."""
    start_a, end_a = cuts_a[piece], cuts_a[piece + 1]
    start_b, end_b = cuts_b[piece], cuts_b[piece + 1]
    if use_weights:
        return a[start_a:end_a], b[start_b:end_b], wa[start_a:end_a], wb[start_b:end_b]
    return a[start_a:end_a], b[start_b:end_b], wa, wb


@jit
def _piece_weights(a, b, wa, wb, use_weights, cuts_a, cuts_b, piece):
    pa, pb, pwa, pwb = _piece_entries(a, b, wa, wb, use_weights, cuts_a, cuts_b, piece)
    return class_weights(pa, pb, pwa, pwb, use_weights)


@jit_inline
def _merged_below(options, context, a, b, wa, wb, use_weights, tp, fp):
    summary = below_identity(options)
    i = np.int64(0)
    j = np.int64(0)
    while i < a.shape[0] or j < b.shape[0]:
        _, p, q, i, j = next_tie_group(a, b, wa, wb, use_weights, i, j)
        summary = below_fold(options, context, summary, tp, fp, p, q)
        tp += p
        fp += q
    return summary


def merged_below_summary(options, context, a, b, wa, wb, use_weights, tp, fp):
    """The below-pass summary of two classes' merged tie groups (weight ``tp``, ``fp``
    above them); the identity, without reading the entries, for a scan without one."""
    if SCANS[type(options)].below is None:
        return below_identity(options)
    return _merged_below(options, context, a, b, wa, wb, use_weights, tp, fp)


@overload(merged_below_summary, jit_options=OVERLOAD_OPTIONS)
def _merged_below_summary(options, context, a, b, wa, wb, use_weights, tp, fp):
    def summary(options, context, a, b, wa, wb, use_weights, tp, fp):
        return _merged_below(options, context, a, b, wa, wb, use_weights, tp, fp)

    def identity(options, context, a, b, wa, wb, use_weights, tp, fp):
        return below_identity(options)

    return summary if SCANS[options.instance_class].below is not None else identity


# The steps of the parallel scan that touch the scan's own types run in these serial
# kernels: the parallel kernel passes only numbers, arrays and lists of states between
# its loops (a named tuple made inside it, the context, cannot enter a ``prange`` loop).


@jit
def _empty_states(options, totals, integer_counts, n_pieces):
    context = make_context(totals[0], totals[1], integer_counts)
    below = below_identity(options)
    return [below] * n_pieces, [scan_start(options, context, below)] * n_pieces


@jit
def _piece_below(options, totals, integer_counts, a, b, wa, wb, use_weights, cuts_a, cuts_b,
                 piece, tp, fp):  # fmt: skip
    context = make_context(totals[0], totals[1], integer_counts)
    pa, pb, pwa, pwb = _piece_entries(a, b, wa, wb, use_weights, cuts_a, cuts_b, piece)
    return merged_below_summary(options, context, pa, pb, pwa, pwb, use_weights, tp, fp)


@jit
def _suffixes(options, summaries):
    """Below each piece: the exclusive suffix of the pieces' below summaries."""
    below = below_identity(options)
    belows = [below] * len(summaries)
    for piece in range(len(summaries) - 1, 0, -1):
        below = below_combine(options, summaries[piece], below)
        belows[piece - 1] = below
    return belows


@jit
def _piece_state(options, totals, integer_counts, below, a, b, wa, wb, use_weights, cuts_a,
                 cuts_b, piece, tp, fp, p, q):  # fmt: skip
    context = make_context(totals[0], totals[1], integer_counts)
    pa, pb, pwa, pwb = _piece_entries(a, b, wa, wb, use_weights, cuts_a, cuts_b, piece)
    return merged_state(options, context, below, pa, pb, pwa, pwb, use_weights, tp, fp, p, q)


@jit
def _combine_finish(options, totals, integer_counts, states):
    context = make_context(totals[0], totals[1], integer_counts)
    state = states[0]
    for piece in range(1, len(states)):
        state = scan_combine(options, state, states[piece])
    return scan_finish(options, context, state)


@jit_parallel
def scan_merged_parallel(options, a, b, wa, wb, use_weights, integer_counts, cuts_a, cuts_b):
    """:func:`scan_merged` folded in the pieces ``cuts_a``, ``cuts_b`` (:func:`merged_cuts`)
    on all threads: the pieces' totals in parallel, their exclusive prefix, the below
    pass if the scan has one, the pieces' folds in parallel, the states combined in order.

    Every piece is computed the same way on any number of threads and combined in a
    fixed order, so the result depends on the cuts only.  With integer counts it is
    bit-identical to :func:`scan_merged` for any cuts; with fractional weights it agrees
    to rounding (the totals are summed piece by piece).
    """
    n_pieces = cuts_a.shape[0] - 1
    piece_positive = np.empty(n_pieces, dtype=np.float64)
    piece_negative = np.empty(n_pieces, dtype=np.float64)
    # ``np.int64(piece)``: the loop index is int64 where Numba types the kernel and uint64
    # in the threads' function, and each type would compile the callee once more
    for piece in prange(n_pieces):
        piece_positive[piece], piece_negative[piece] = _piece_weights(
            a, b, wa, wb, use_weights, cuts_a, cuts_b, np.int64(piece)
        )
    above_positive = np.zeros(n_pieces, dtype=np.float64)
    above_negative = np.zeros(n_pieces, dtype=np.float64)
    for piece in range(1, n_pieces):
        above_positive[piece] = above_positive[piece - 1] + piece_positive[piece - 1]
        above_negative[piece] = above_negative[piece - 1] + piece_negative[piece - 1]
    last = n_pieces - 1
    totals = (above_positive[last] + piece_positive[last],
              above_negative[last] + piece_negative[last])  # fmt: skip
    summaries, states = _empty_states(options, totals, integer_counts, n_pieces)
    for piece in prange(n_pieces):
        summaries[piece] = _piece_below(options, totals, integer_counts, a, b, wa, wb,
                                        use_weights, cuts_a, cuts_b, np.int64(piece),
                                        above_positive[piece], above_negative[piece])  # fmt: skip
    belows = _suffixes(options, summaries)
    for piece in prange(n_pieces):
        states[piece] = _piece_state(options, totals, integer_counts, belows[piece], a, b, wa,
                                     wb, use_weights, cuts_a, cuts_b, np.int64(piece),
                                     above_positive[piece], above_negative[piece],
                                     piece_positive[piece], piece_negative[piece])  # fmt: skip
    return _combine_finish(options, totals, integer_counts, states)


def scan_sorted(options, a, b, wa, wb, use_weights, integer_counts):
    """The metric of two classes' sorted scores (the arguments of :func:`scan_merged`):
    one piece below :data:`PARALLEL_MIN_ENTRIES` entries, else the parallel scan with
    :func:`pieces_for` pieces (the same result on any number of threads)."""
    n_entries = a.shape[0] + b.shape[0]
    if n_entries < PARALLEL_MIN_ENTRIES:
        return scan_merged(options, a, b, wa, wb, use_weights, integer_counts)
    cuts_a, cuts_b = merged_cuts(a, b, np.int64(pieces_for(n_entries)))
    return scan_merged_parallel(options, a, b, wa, wb, np.bool_(use_weights),
                                np.bool_(integer_counts), cuts_a, cuts_b)  # fmt: skip
