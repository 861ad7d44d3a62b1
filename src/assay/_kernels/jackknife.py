"""Jackknife values of ranking metrics over the streamed atoms, for BCa's acceleration.

The atoms are :class:`~assay._kernels.streaming.RowAtoms`.  ROC AUC has a closed form
(every row left out at once, from the placements); any other scan is refolded once per
group of a delete-a-group jackknife.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from assay._kernels._jit import jit, jit_parallel
from assay._kernels.atoms import count_groups
from assay._kernels.scans import scan_records
from assay._kernels.scans.roc_auc import RocAuc, group_placements
from assay._kernels.streaming import (
    _FP,
    _TP,
    _start,
    _Sums,
    finish_counts,
    fold_counts,
    new_sums,
)


def auc_jackknife(atoms):
    """Leave-one-out ROC AUC of every atom's rows, in closed form from the placements.

    With ``S = sum_pos sum_neg w_i w_j psi_ij = AUC P N`` (``psi`` 1 above, 1/2 tied), a
    positive row of weight ``u`` with placement ``V10`` leaves ``(S - u V10 N) /
    ((P - u) N)``, a negative row with placement ``V01`` leaves ``(S - u V01 P) /
    (P (N - u))`` (DeLong et al. 1988; Sun & Xu 2014).  The AUC comes from the ROC AUC
    scan, the placements from :func:`assay._kernels.scans.roc_auc.group_placements`.
    Returns ``(values, counts)``: one value per atom and the number of rows it stands for.
    """
    return _auc_jackknife(atoms, new_sums(0))


@jit
def _auc_jackknife(atoms, sums):
    is_positive = atoms.is_positive
    continues = atoms.continues
    value = atoms.value
    cells = atoms.cells
    weighted = atoms.weighted
    n = is_positive.shape[0]
    options = RocAuc()
    context, scan_state = _start(options, not weighted, np.bool_(False), sums)
    ones = np.ones(n, dtype=np.int64)
    # a typed number, not a literal: a literal argument compiles its own specialisation
    start = np.int64(0)
    scan_state = fold_counts(atoms, cells or weighted, start, ones, options, context, scan_state,
                             sums)  # fmt: skip
    total_positive = sums.running[_TP]
    total_negative = sums.running[_FP]
    auc = finish_counts(options, context, scan_state, sums)
    statistic = auc * total_positive * total_negative
    values = np.empty(n, dtype=np.float64)
    counts = np.empty(n, dtype=np.float64)
    tp = 0.0
    fp = 0.0
    start = 0
    p = 0.0
    q = 0.0
    for k in range(n):
        w = value[k] if (cells or weighted) else 1.0
        if is_positive[k]:
            p += w
        else:
            q += w
        if not continues[k]:
            v10, v01 = group_placements(total_positive, total_negative, tp, fp, p, q)
            for i in range(start, k + 1):
                u = value[i] if weighted else 1.0
                if is_positive[i]:
                    values[i] = (statistic - u * v10 * total_negative) / (
                        (total_positive - u) * total_negative
                    )
                else:
                    values[i] = (statistic - u * v01 * total_positive) / (
                        total_positive * (total_negative - u)
                    )
                counts[i] = value[i] if cells else 1.0
            tp += p
            fp += q
            p = 0.0
            q = 0.0
            start = k + 1
    return values, counts


@jit
def _grouped_values(atoms, groups, options, out, sums_of_workers, worker, n_workers):
    """Groups ``worker, worker + n_workers, ...`` of :func:`grouped_jackknife` (one
    thread's share; its sums, row ``worker`` of ``sums_of_workers``, and its scan context
    are made here, in a serial kernel: a named tuple made inside a ``prange`` loop cannot
    be compiled)."""
    n = atoms.is_positive.shape[0]
    n_groups = groups.n_clusters
    counts = np.empty(n, dtype=np.int64)
    running, recorded_p, recorded_q = sums_of_workers
    sums = _Sums(running[worker], recorded_p[worker], recorded_q[worker])
    for g in range(worker, n_groups, n_workers):
        for k in range(n):
            if atoms.cells:
                size = np.int64(atoms.value[k])
                removed = (g + 1) * size // n_groups - g * size // n_groups
                counts[k] = size - removed
            else:
                counts[k] = 0 if groups.cluster_of_atom[k] == g else 1
        context, scan_state = _start(options, not atoms.weighted, np.bool_(False), sums)
        scan_state = fold_counts(atoms, atoms.weighted, np.int64(0), counts, options,
                                 context, scan_state, sums)  # fmt: skip
        out[g] = finish_counts(options, context, scan_state, sums)


def grouped_jackknife(atoms, groups, options, out, n_workers):
    """Delete-a-group jackknife: ``out[g]`` is the metric without the rows of group ``g``.

    ``groups``: a :class:`~assay._kernels.streaming.Clusters` of the atoms' groups.  A
    row atom belongs to ``groups.cluster_of_atom[k]``; a tie cell of several rows gives an
    even share of its rows to every group.  For BCa where no closed form exists.
    """
    m = count_groups(atoms.continues) if scan_records(options) else 0
    sums_of_workers = tuple(np.stack(arrays) for arrays in zip(
        *(new_sums(m) for _ in range(n_workers)), strict=True))  # fmt: skip
    _grouped_jackknife(atoms, groups, options, out, sums_of_workers, n_workers)


@jit_parallel
def _grouped_jackknife(atoms, groups, options, out, sums_of_workers, n_workers):
    # ``np.int64(worker)``: one type of the index in the kernel and in the threads' function
    for worker in prange(n_workers):
        _grouped_values(atoms, groups, options, out, sums_of_workers, np.int64(worker),
                        n_workers)  # fmt: skip
