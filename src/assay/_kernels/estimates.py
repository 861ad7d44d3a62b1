"""The metric of the data themselves, computed by the kernels of their replicates.

A resampling call needs its estimate, the metric of the rows as they are.  Computing it
by the plain scan would compile that scan's kernels too, on a call's first run; instead
the kernel that draws the replicates (:func:`assay._kernels.streaming.bootstrap_ranking`;
for two models :func:`~assay._kernels.streaming.paired_bootstrap_ranking`, or
:func:`~assay._kernels.paired.paired_bootstrap_lanes` where the replicates are drawn
eight at a time) runs once with every atom counted as the rows it stands for
(:class:`~assay._kernels.streaming.Counting`), with the same argument types as the
replicates, so nothing more is compiled.
"""

from __future__ import annotations

import numpy as np

from assay._kernels.draws import NO_BINOMIAL
from assay._kernels.paired import _lane_batches, lanes_scratch
from assay._kernels.pieces import EXACT_LIMIT, FLOAT_EXACT_LIMIT
from assay._kernels.resample import Draw
from assay._kernels.streaming import (
    Counting,
    _class_counts,
    _paired_arguments,
    _paired_replicates,
    _ranking_replicates,
    _ranking_scratch,
)


def _data_counting(atoms, n_positive, n_negative):
    """How the data ``atoms``, with these class totals, are counted: each atom as its
    rows, in the plain scan's context (:func:`assay._kernels.pieces.make_context`)."""
    twice_pairs = 2.0 * n_positive * n_negative
    exact = not atoms.weighted and twice_pairs < EXACT_LIMIT
    return Counting(True, bool(exact), bool(exact and twice_pairs < FLOAT_EXACT_LIMIT))


def folded_estimate(atoms, clusters, options, scheme):
    """The metric of unweighted ``atoms`` themselves: the replicates' kernel of
    :func:`~assay._kernels.streaming.bootstrap_ranking` (the one a bootstrap compiles
    anyway: pass its ``clusters`` and ``scheme``) with every row counted once (a tie
    cell's count is its rows), so that a bootstrap's estimate compiles no kernel of its
    own.

    For unweighted rows with both classes present it is the metric's value bit for bit:
    the tie groups' class counts and their running sums are the same integers, and the
    context is chosen as the plain scan's (:func:`_data_counting`).
    """
    n_positive, n_negative, block_positives = _class_counts(atoms)
    out = np.empty(1, dtype=np.float64)
    _ranking_replicates(atoms, clusters, options, Draw(scheme, np.uint64(0), 0, NO_BINOMIAL),
                        _data_counting(atoms, n_positive, n_negative), out, n_positive, n_negative,
                        block_positives, *_ranking_scratch(atoms, clusters, options)(), 0,
                        1)  # fmt: skip
    return out[0]


def paired_folded_estimates(a, b, a_position_of_b, clusters, options, scheme, lanes):
    """Both models' metric on their unweighted rows themselves (:func:`folded_estimate`),
    by the kernel of their paired replicates (pass its ``clusters`` and ``scheme``):
    :func:`~assay._kernels.streaming.paired_bootstrap_ranking`'s, or with ``lanes``
    :func:`~assay._kernels.paired.paired_bootstrap_lanes`'s.  Returns ``(value of A,
    value of B)``, each its metric's value bit for bit when both classes are present."""
    out_a = np.empty(1, dtype=np.float64)
    out_b = np.empty(1, dtype=np.float64)
    n_positive, n_negative, block_positives = _class_counts(a)
    counting = _data_counting(a, n_positive, n_negative)
    draw = Draw(scheme, np.uint64(0), 0, NO_BINOMIAL)
    if lanes:
        saturated_b = np.zeros(1, dtype=np.bool_)  # a count of one fits in a byte
        _lane_batches(a, b, a_position_of_b, clusters, options, draw, counting, out_a, out_b,
                      saturated_b, n_positive, n_negative, block_positives,
                      *lanes_scratch(clusters)(), 0, 1)  # fmt: skip
    else:
        arguments, scratch = _paired_arguments(a, b, a_position_of_b, clusters, options, draw,
                                               counting, out_a, out_b)  # fmt: skip
        _paired_replicates(*arguments, *scratch(), 0, 1)
    return out_a[0], out_b[0]
