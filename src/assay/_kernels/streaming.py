"""Streaming bootstrap of ranking metrics: draw and sweep block by block, in cache.

The once-sorted rows are laid out in one merged order of decreasing score (ARCHITECTURE
rule 2): per atom a class flag, a flag saying whether the next atom shares its score (the
tie group continues), and a value (the row weight, or the number of rows of a tie cell).
A replicate walks that order in blocks of ``_BLOCK`` atoms: it draws the block's counts
into a small buffer and at once folds them into the running sums of the metric.  Nothing
of size n is written per replicate, so memory traffic is one read of the flags, and the
memory of a replicate is O(block) whatever n.

Counts of a block (exact, whatever the block size):

* multinomial: the block's total is a conditional binomial of the draws left, then its
  draws are uniform indices into the block (five exactly uniform 12-bit indices per
  64-bit draw for a full block);
* stratified: the same within each class, the block's positives and negatives counted
  separately;
* Poisson: an independent Poisson(size) count per atom;
* clusters: the drawn count of the atom's cluster (a multinomial over the clusters first);
* tie cells of several rows: conditional binomials per atom.

Every metric is its scan of :mod:`assay._kernels.scans`, selected by its options named
tuple: a scan that folds in one pass (ROC AUC, AP, the trapezoidal AUC-PR) is folded as the
tie groups close; one that needs the class totals or what lies below (partial AUC,
interpolated and 11-point AP, EER) records the replicate's weight per tie group and is
scanned at the end.  Replicate ``r`` draws from its own
stream ``stream(seed, r)`` in a fixed order: results do not depend on the number of
threads.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from assay._kernels._jit import jit, jit_parallel
from assay._kernels._rng import next_u64, stream
from assay._kernels._samplers import binomial, poisson
from assay._kernels.pieces import scan
from assay._kernels.resample import MULTINOMIAL, POISSON, _rows_multinomial
from assay._kernels.scans import (
    Context,
    below_identity,
    scan_finish,
    scan_fold,
    scan_records,
    scan_start,
)
from assay._kernels.scans.roc_auc import RocAuc, group_placements

_BLOCK_BITS = 12
_BLOCK = 1 << _BLOCK_BITS
_INDEX_MASK = np.uint64(_BLOCK - 1)

# slots of a replicate's running sums (kept between blocks)
_P, _Q, _TP, _FP, _GROUP = range(5)
_N_SLOTS = 5


@jit
def merge_atoms(a, b, wa, wb, use_weights):
    """Merge two classes' sorted atoms into one order of decreasing score.

    ``a``, ``b``: negated scores of the positive and negative atoms, ascending; ``wa``,
    ``wb``: their weights or cell sizes (read when ``use_weights``).  Returns
    ``(is_positive, continues, value)`` where ``continues[k]`` says that atom ``k + 1``
    has the same score (the tie group goes on).
    """
    na = a.shape[0]
    nb = b.shape[0]
    n = na + nb
    is_positive = np.empty(n, dtype=np.bool_)
    continues = np.empty(n, dtype=np.bool_)
    value = np.empty(n if use_weights else 0, dtype=np.float64)
    i = 0
    j = 0
    previous = 0.0
    for k in range(n):
        if i < na and (j >= nb or a[i] <= b[j]):
            is_positive[k] = True
            score = a[i]
            if use_weights:
                value[k] = wa[i]
            i += 1
        else:
            is_positive[k] = False
            score = b[j]
            if use_weights:
                value[k] = wb[j]
            j += 1
        if k > 0:
            continues[k - 1] = score == previous
        previous = score
    if n > 0:
        continues[n - 1] = False
    return is_positive, continues, value


@jit
def count_groups(continues):
    """Number of tie groups of the merged order."""
    groups = 0
    for k in range(continues.shape[0]):
        if not continues[k]:
            groups += 1
    return groups


@jit
def _fold(start, counts, is_positive, continues, value, weights_from_value, running, options,
          context, state, record, recorded_p, recorded_q):  # fmt: skip
    """Fold the counts of atoms ``start .. start + len(counts)``; returns the scan state.

    The running sums live in local variables inside the loop (loaded from and stored back
    to ``running`` once per block); a tie group closes where ``continues`` is False and is
    folded into the metric's scan, or, for a recording scan, its weights are recorded.
    """
    p = running[_P]
    q = running[_Q]
    tp = running[_TP]
    fp = running[_FP]
    group = np.int64(running[_GROUP])
    for offset in range(counts.shape[0]):
        k = start + offset
        weight = counts[offset] * value[k] if weights_from_value else float(counts[offset])
        positive = 1.0 if is_positive[k] else 0.0  # a select, not a branch
        p += weight * positive
        q += weight - weight * positive
        if not continues[k]:
            if record:
                recorded_p[group] = p
                recorded_q[group] = q
                group += 1
            else:
                state = scan_fold(options, context, state, tp, fp, p, q)
            tp += p
            fp += q
            p = 0.0
            q = 0.0
    running[_P] = p
    running[_Q] = q
    running[_TP] = tp
    running[_FP] = fp
    running[_GROUP] = group
    return state


@jit
def _start(options, exact, running):
    """The empty replicate: zero running sums and the scan's start state."""
    running[:] = 0.0
    context = Context(np.nan, np.nan, exact)
    return context, scan_start(options, context, below_identity(options))


@jit
def _finish(options, context, state, running, record, recorded_p, recorded_q):
    """The metric of a folded replicate (a recording scan scans its recorded groups)."""
    if record:
        return scan(options, recorded_p, recorded_q, context.exact)
    return scan_finish(options, Context(running[_TP], running[_FP], context.exact), state)


_LOW_16 = np.uint64(0xFFFF)


@jit
def _draw_uniform(buffer, size, draws, state):
    """``draws`` exactly uniform indices into ``buffer[:size]`` (counts incremented).

    A full block of 4096 takes five 12-bit indices from every 64-bit draw; a smaller
    one takes four 16-bit pieces, each mapped by Lemire's multiply-shift with rejection
    of the ``2**16 mod size`` lowest products, which keeps them exactly uniform.
    """
    if size == _BLOCK:
        drawn = 0
        while drawn < draws:
            bits, state = next_u64(state)
            for _ in range(5):
                if drawn == draws:
                    break
                buffer[np.int64(bits & _INDEX_MASK)] += 1
                bits >>= np.uint64(_BLOCK_BITS)
                drawn += 1
        return state
    bound = np.uint64(size)
    threshold = np.uint64(65536 % size)
    drawn = 0
    while drawn < draws:
        bits, state = next_u64(state)
        for _ in range(4):
            if drawn == draws:
                break
            product = (bits & _LOW_16) * bound
            bits >>= np.uint64(16)
            if (product & _LOW_16) < threshold:
                continue  # rejected: would bias the low indices
            buffer[np.int64(product >> np.uint64(16))] += 1
            drawn += 1
    return state


@jit
def _take(total, size, remaining, state):
    """Draws falling in ``size`` of ``remaining`` units: a conditional binomial."""
    if total == 0 or size == 0:
        return 0, state
    if size == remaining:
        return total, state
    return binomial(total, size / remaining, state)


@jit
def _rows_replicate(
    is_positive, continues, value, weighted, cluster_of_atom, cluster_counts, n_positive,
    n_negative, scheme, options, exact, record, state, buffer, positive_buffer,
    negative_buffer, block_positives, running, recorded_p, recorded_q, trace,
):  # fmt: skip
    """One replicate over atoms of one row each (block by block).

    ``trace``: when not empty, receives every atom's count (for tests).
    """
    n = is_positive.shape[0]
    context, scan_state = _start(options, exact, running)
    draws = n
    draws_positive = n_positive
    draws_negative = n_negative
    if cluster_counts.shape[0] > 0:
        # whole clusters: a multinomial over the clusters first, drawn exactly as the
        # other resampling paths draw it (:func:`assay._kernels.resample.row_counts`)
        state = _rows_multinomial(cluster_counts.shape[0], cluster_counts, state)
    remaining_atoms = n
    remaining_positive = n_positive
    remaining_negative = n_negative
    for start in range(0, n, _BLOCK):
        end = min(start + _BLOCK, n)
        size = end - start
        counts = buffer[:size]
        counts[:] = 0
        if cluster_counts.shape[0] > 0:
            for k in range(start, end):
                counts[k - start] = cluster_counts[cluster_of_atom[k]]
        elif scheme == POISSON:
            for offset in range(size):
                count, state = poisson(1.0, state)
                counts[offset] = count
        elif scheme == MULTINOMIAL:
            block_total, state = _take(draws, size, remaining_atoms, state)
            state = _draw_uniform(counts, size, block_total, state)
            draws -= block_total
            remaining_atoms -= size
        else:  # STRATIFIED: each class of the block draws among its own atoms
            n_block_positive = block_positives[start // _BLOCK]
            n_block_negative = size - n_block_positive
            positive_counts = positive_buffer[:n_block_positive]
            negative_counts = negative_buffer[:n_block_negative]
            positive_counts[:] = 0
            negative_counts[:] = 0
            taken, state = _take(draws_positive, n_block_positive, remaining_positive, state)
            state = _draw_uniform(positive_counts, n_block_positive, taken, state)
            draws_positive -= taken
            remaining_positive -= n_block_positive
            taken, state = _take(draws_negative, n_block_negative, remaining_negative, state)
            state = _draw_uniform(negative_counts, n_block_negative, taken, state)
            draws_negative -= taken
            remaining_negative -= n_block_negative
            i = 0
            j = 0
            for offset in range(size):  # back into the merged order, without branches
                flag = is_positive[start + offset]
                counts[offset] = positive_buffer[i] if flag else negative_buffer[j]
                i += 1 if flag else 0
                j += 0 if flag else 1
        if trace.shape[0] > 0:
            trace[start:end] = counts
        scan_state = _fold(start, counts, is_positive, continues, value, weighted, running,
                           options, context, scan_state, record, recorded_p,
                           recorded_q)  # fmt: skip
    value_of_replicate = _finish(options, context, scan_state, running, record, recorded_p,
                                 recorded_q)  # fmt: skip
    return value_of_replicate, state


@jit
def _cells_replicate(
    is_positive, continues, sizes, n_positive, n_negative, scheme, options, exact, record,
    state, counts, running, recorded_p, recorded_q, trace,
):  # fmt: skip
    """One replicate over tie cells of several rows (unweighted): binomials per cell."""
    context, scan_state = _start(options, exact, running)
    draws = n_positive + n_negative
    remaining = n_positive + n_negative
    draws_positive = n_positive
    draws_negative = n_negative
    remaining_positive = n_positive
    remaining_negative = n_negative
    for k in range(sizes.shape[0]):
        size = np.int64(sizes[k])
        if scheme == POISSON:
            count, state = poisson(float(size), state)
        elif scheme == MULTINOMIAL:
            count, state = _take(draws, size, remaining, state)
            draws -= count
            remaining -= size
        elif is_positive[k]:
            count, state = _take(draws_positive, size, remaining_positive, state)
            draws_positive -= count
            remaining_positive -= size
        else:
            count, state = _take(draws_negative, size, remaining_negative, state)
            draws_negative -= count
            remaining_negative -= size
        counts[k] = count
    if trace.shape[0] > 0:
        trace[:] = counts
    scan_state = _fold(0, counts, is_positive, continues, sizes, False, running, options,
                       context, scan_state, record, recorded_p, recorded_q)  # fmt: skip
    value_of_replicate = _finish(options, context, scan_state, running, record, recorded_p,
                                 recorded_q)  # fmt: skip
    return value_of_replicate, state


@jit
def _class_sizes(is_positive, value, cells):
    n_positive = 0.0
    n_negative = 0.0
    for k in range(is_positive.shape[0]):
        size = value[k] if cells else 1.0
        if is_positive[k]:
            n_positive += size
        else:
            n_negative += size
    return np.int64(n_positive), np.int64(n_negative)


@jit
def _block_positives(is_positive):
    n = is_positive.shape[0]
    block_positives = np.zeros((n + _BLOCK - 1) // _BLOCK, dtype=np.int64)
    for k in range(n):
        if is_positive[k]:
            block_positives[k // _BLOCK] += 1
    return block_positives


@jit
def _replicate(
    is_positive, continues, value, cells, weighted, cluster_of_atom, n_positive, n_negative,
    block_positives, options, exact, record, scheme, state, workspace, trace,
):  # fmt: skip
    (buffer, positive_buffer, negative_buffer, cluster_counts, running, recorded_p,
     recorded_q) = workspace  # fmt: skip
    if cells:
        return _cells_replicate(
            is_positive, continues, value, n_positive, n_negative, scheme, options, exact,
            record, state, buffer, running, recorded_p, recorded_q, trace,
        )  # fmt: skip
    return _rows_replicate(
        is_positive, continues, value, weighted, cluster_of_atom, cluster_counts, n_positive,
        n_negative, scheme, options, exact, record, state, buffer, positive_buffer,
        negative_buffer, block_positives, running, recorded_p, recorded_q, trace,
    )  # fmt: skip


@jit
def _workspace(n, cells, n_clusters, m):
    return (
        np.empty(n if cells else _BLOCK, dtype=np.int64),
        np.zeros(_BLOCK + 1, dtype=np.int64),  # + 1: the merge back reads one past the end
        np.zeros(_BLOCK + 1, dtype=np.int64),
        np.empty(n_clusters, dtype=np.int64),
        np.empty(_N_SLOTS, dtype=np.float64),
        np.empty(m, dtype=np.float64),
        np.empty(m, dtype=np.float64),
    )


@jit_parallel
def bootstrap_ranking(
    is_positive, continues, value, cells, weighted, cluster_of_atom, n_clusters, options,
    exact, scheme, seed, first_replicate, out, n_workers,
):  # fmt: skip
    """Metric of replicates ``first_replicate + r`` for ``r < len(out)``, into ``out``.

    ``is_positive``, ``continues``, ``value``: the merged atoms (:func:`merge_atoms`);
    ``cells``: atoms are tie cells whose ``value`` is their number of rows (unweighted),
    otherwise rows whose ``value`` is their weight (read when ``weighted``);
    ``cluster_of_atom``: with ``n_clusters > 0`` replicates draw whole clusters;
    ``options``: the metric's scan options (:mod:`assay._kernels.scans`); ``exact``: the
    counts are integers, sums are kept exactly; ``scheme``: MULTINOMIAL, STRATIFIED or
    POISSON; ``seed``: uint64.
    """
    n = is_positive.shape[0]
    n_positive, n_negative = _class_sizes(is_positive, value, cells)
    record = scan_records(options)
    m = count_groups(continues) if record else 0
    block_positives = _block_positives(is_positive)
    no_trace = np.empty(0, dtype=np.int64)
    count = out.shape[0]
    for worker in prange(n_workers):
        workspace = _workspace(n, cells, n_clusters, m)
        for r in range(worker, count, n_workers):
            state = stream(seed, np.uint64(first_replicate + r))
            result, state = _replicate(
                is_positive, continues, value, cells, weighted, cluster_of_atom, n_positive,
                n_negative, block_positives, options, exact, record, scheme, state, workspace,
                no_trace,
            )  # fmt: skip
            out[r] = result


@jit
def traced_replicate(
    is_positive, continues, value, cells, weighted, cluster_of_atom, n_clusters, options,
    exact, scheme, seed, replicate,
):  # fmt: skip
    """One replicate of :func:`bootstrap_ranking` with every atom's count (for tests)."""
    n = is_positive.shape[0]
    n_positive, n_negative = _class_sizes(is_positive, value, cells)
    record = scan_records(options)
    m = count_groups(continues) if record else 0
    trace = np.zeros(n, dtype=np.int64)
    result, _ = _replicate(
        is_positive, continues, value, cells, weighted, cluster_of_atom, n_positive,
        n_negative, _block_positives(is_positive), options, exact, record, scheme,
        stream(seed, np.uint64(replicate)), _workspace(n, cells, n_clusters, m), trace,
    )  # fmt: skip
    return result, trace


@jit
def auc_jackknife(is_positive, continues, value, cells, weighted):
    """Leave-one-out ROC AUC of every atom's rows, in closed form from the placements.

    With ``S = sum_pos sum_neg w_i w_j psi_ij = AUC P N`` (``psi`` 1 above, 1/2 tied), a
    positive row of weight ``u`` with placement ``V10`` leaves ``(S - u V10 N) /
    ((P - u) N)``, a negative row with placement ``V01`` leaves ``(S - u V01 P) /
    (P (N - u))`` (DeLong et al. 1988; Sun & Xu 2014).  The AUC comes from the ROC AUC
    scan, the placements from :func:`assay._kernels.scans.roc_auc.group_placements`.
    Returns ``(values, counts)``: one value per atom and the number of rows it stands for.
    """
    n = is_positive.shape[0]
    options = RocAuc(1.0)
    running = np.zeros(_N_SLOTS, dtype=np.float64)
    context, scan_state = _start(options, not weighted, running)
    none = np.empty(0, dtype=np.float64)
    ones = np.ones(n, dtype=np.int64)
    scan_state = _fold(0, ones, is_positive, continues, value, cells or weighted, running,
                       options, context, scan_state, False, none, none)  # fmt: skip
    total_positive = running[_TP]
    total_negative = running[_FP]
    auc = _finish(options, context, scan_state, running, False, none, none)
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


@jit_parallel
def grouped_jackknife(
    is_positive, continues, value, cells, weighted, group_of_atom, n_groups, options, exact,
    out, n_workers,
):  # fmt: skip
    """Delete-a-group jackknife: ``out[g]`` is the metric without the rows of group ``g``.

    A row atom belongs to ``group_of_atom[k]``; a tie cell of several rows gives an even
    share of its rows to every group.  For BCa where no closed form exists.
    """
    n = is_positive.shape[0]
    record = scan_records(options)
    m = count_groups(continues) if record else 0
    for worker in prange(n_workers):
        counts = np.empty(n, dtype=np.int64)
        running = np.empty(_N_SLOTS, dtype=np.float64)
        recorded_p = np.empty(m, dtype=np.float64)
        recorded_q = np.empty(m, dtype=np.float64)
        for g in range(worker, n_groups, n_workers):
            for k in range(n):
                if cells:
                    size = np.int64(value[k])
                    removed = (g + 1) * size // n_groups - g * size // n_groups
                    counts[k] = size - removed
                else:
                    counts[k] = 0 if group_of_atom[k] == g else 1
            context, scan_state = _start(options, exact, running)
            scan_state = _fold(0, counts, is_positive, continues, value, weighted, running,
                               options, context, scan_state, record, recorded_p,
                               recorded_q)  # fmt: skip
            out[g] = _finish(options, context, scan_state, running, record, recorded_p,
                             recorded_q)  # fmt: skip


@jit_parallel
def paired_bootstrap_ranking(
    a_is_positive, a_continues, a_value, b_is_positive, b_continues, b_value,
    a_position_of_b, weighted, cluster_of_atom, n_clusters, options, exact, scheme, seed,
    first_replicate, out_a, out_b, n_workers,
):  # fmt: skip
    """Both models' metric on the same replicates (a paired bootstrap).

    Rows are atoms in model A's merged order (``a_*``); a replicate is streamed over A's
    order exactly as in :func:`bootstrap_ranking`, keeping every row's count, and model
    B folds the same counts in its own order, reading them at ``a_position_of_b``.
    ``cluster_of_atom`` is in A's order.
    """
    n = a_is_positive.shape[0]
    n_positive, n_negative = _class_sizes(a_is_positive, a_value, False)
    record = scan_records(options)
    m_a = count_groups(a_continues) if record else 0
    m_b = count_groups(b_continues) if record else 0
    block_positives = _block_positives(a_is_positive)
    count = out_a.shape[0]
    for worker in prange(n_workers):
        workspace = _workspace(n, False, n_clusters, m_a)
        counts = np.zeros(n, dtype=np.int64)
        buffer = np.empty(_BLOCK, dtype=np.int64)
        running = np.empty(_N_SLOTS, dtype=np.float64)
        recorded_p = np.empty(m_b, dtype=np.float64)
        recorded_q = np.empty(m_b, dtype=np.float64)
        for r in range(worker, count, n_workers):
            state = stream(seed, np.uint64(first_replicate + r))
            result, state = _replicate(
                a_is_positive, a_continues, a_value, False, weighted, cluster_of_atom,
                n_positive, n_negative, block_positives, options, exact, record, scheme, state,
                workspace, counts,
            )  # fmt: skip
            out_a[r] = result
            context, scan_state = _start(options, exact, running)
            for start in range(0, n, _BLOCK):
                size = min(_BLOCK, n - start)
                block = buffer[:size]
                for offset in range(size):
                    block[offset] = counts[a_position_of_b[start + offset]]
                scan_state = _fold(start, block, b_is_positive, b_continues, b_value, weighted,
                                   running, options, context, scan_state, record, recorded_p,
                                   recorded_q)  # fmt: skip
            out_b[r] = _finish(options, context, scan_state, running, record, recorded_p,
                               recorded_q)  # fmt: skip
