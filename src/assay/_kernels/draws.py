"""The counts of one block of a streamed bootstrap replicate, drawn in cache.

A streamed replicate (:mod:`assay._kernels.streaming`, and the paired lanes of
:mod:`assay._kernels.paired`) walks the once-sorted atoms in blocks of ``_BLOCK`` atoms
and draws each block's counts into a small buffer before folding them.  The counts of a
block (exact, whatever the block size):

* multinomial: the block's total is a conditional binomial of the draws left, then its
  draws are uniform indices into the block (five exactly uniform 12-bit indices per
  64-bit draw for a full block);
* stratified: the same within each class, the block's positives and negatives counted
  separately;
* clusters: the drawn count of the atom's cluster (a multinomial over the clusters first);
* tie cells of several rows: conditional binomials per atom;
* Poisson: one Poisson(m) count per cell of m alike rows, drawn from the cell's own keyed
  stream ``keyed_stream(stream(seed, r), key)`` (:mod:`assay._kernels._rng`).  Unweighted
  rows with one score and one class are alike (a sum of m independent Poisson(1) counts
  is Poisson(m)); their key hashes the score's bits and the class, so a cell gets the
  same count whatever the order of the rows, the layout (a tie cell, or its rows one by
  one: the rows after the first are marked ``repeats`` and get 0) and the pieces the
  atoms are split into.  A weighted row is its own cell, keyed by its position in the
  input.

:func:`draw_block` is the one block draw; the scheme's draw is chosen when the replicate
compiles (:func:`scheme_block`).  The conditional binomials are drawn by the sampler the
replicate's kernel is given (:func:`binomial_for`): one compiled kernel serves the exact
sampler and no sampler, and a replicate that draws none (one block of atoms of one row
each, Poisson, whole clusters) never waits for the exact sampler to compile.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numba import types
from numba.extending import overload

from assay._kernels._functions import Absent, CompiledOnUse, is_given
from assay._kernels._jit import OVERLOAD_OPTIONS, jit, jit_inline
from assay._kernels._rng import binomial, keyed_stream, next_u64, poisson
from assay._kernels.resample import (
    _BLOCK,
    MULTINOMIAL,
    POISSON,
    STRATIFIED,
    Draw,
    full_block_indices,
)

_LOW_16 = np.uint64(0xFFFF)


@jit_inline
def _draw_uniform(buffer, size, draws, state):
    """``draws`` exactly uniform indices into ``buffer[:size]`` (counts incremented).

    A full block of 4096 takes five 12-bit indices from every 64-bit draw; a smaller
    one takes four 16-bit pieces, each mapped by Lemire's multiply-shift with rejection
    of the ``2**16 mod size`` lowest products, which keeps them exactly uniform.
    """
    if size == _BLOCK:
        return full_block_indices(buffer, draws, state)
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


_BINOMIAL_SIGNATURE = types.Tuple((types.int64, types.uint64))(
    types.int64, types.float64, types.uint64
)
BINOMIAL = CompiledOnUse(binomial, _BINOMIAL_SIGNATURE)
"""The exact binomial sampler (:func:`assay._kernels._rng.binomial`), as a value."""
NO_BINOMIAL = Absent(_BINOMIAL_SIGNATURE)
"""No sampler, for replicates that draw no binomial: nothing to compile."""


def binomial_for(atoms: Any, scheme: Any, clustered: bool) -> CompiledOnUse | Absent:
    """The binomial sampler a streamed replicate of ``atoms`` draws its blocks with.

    :data:`NO_BINOMIAL` when the replicate draws none: a Poisson replicate, a clustered
    one (its blocks copy their clusters' counts; the clusters' own multinomial calls the
    exact sampler directly), or a multinomial or stratified one over a single block of
    atoms of one row each, whose block takes all the draws left (:func:`_take`);
    otherwise :data:`BINOMIAL`.  Both are values of one type: the replicate's kernel is
    compiled once for either.
    """
    one_block = not atoms.cells and atoms.is_positive.shape[0] <= _BLOCK
    if scheme == POISSON or clustered or one_block:
        return NO_BINOMIAL
    return BINOMIAL


def with_binomial(draw: Draw, atoms: Any, clusters: Any) -> Draw:
    """``draw`` with the binomial sampler of a streamed replicate of ``atoms``
    (:func:`binomial_for`)."""
    return draw._replace(binomial=binomial_for(atoms, draw.scheme, clusters.n_clusters > 0))


def draw_binomial(sampler, n, p, state):
    """``binomial(n, p)`` drawn by ``sampler`` (:func:`binomial_for`), or with ``sampler``
    None by :func:`~assay._kernels._rng.binomial` called directly, which a caller that
    always needs it compiles in (:func:`_draw_binomial`)."""
    return (binomial if sampler is None else sampler)(n, p, state)


@overload(draw_binomial, jit_options=OVERLOAD_OPTIONS)
def _draw_binomial(sampler, n, p, state):
    # a sampler that is a value is called through its address (a signature of exact types)
    def exact(sampler, n, p, state):
        return binomial(n, p, state)

    def given(sampler, n, p, state):
        if not is_given(sampler):  # never, if binomial_for is right: an error, not a crash
            raise RuntimeError("a replicate drew a binomial but was given no sampler")
        return sampler(np.int64(n), np.float64(p), np.uint64(state))

    return exact if isinstance(sampler, types.NoneType) else given


@jit_inline
def _take(total, size, remaining, state, sampler):
    """Draws falling in ``size`` of ``remaining`` units: a conditional binomial drawn by
    ``sampler`` (:func:`draw_binomial`)."""
    if total == 0 or size == 0:
        return 0, state
    if size == remaining:
        return total, state
    return draw_binomial(sampler, total, size / remaining, state)


@jit
def block_positive_counts(is_positive):
    """The positive atoms of every block of ``_BLOCK`` atoms (stratified draws)."""
    n = is_positive.shape[0]
    block_positives = np.empty((n + _BLOCK - 1) // _BLOCK, dtype=np.int64)
    for block in range(block_positives.shape[0]):
        count = 0
        for k in range(block * _BLOCK, min(n, (block + 1) * _BLOCK)):
            count += 1 if is_positive[k] else 0  # a select: the loop vectorises
        block_positives[block] = count
    return block_positives


@jit
def stratified_block(is_positive, start, counts, n_block_positive, positive, negative, left,
                     state, sampler):  # fmt: skip
    """A block's counts when each class draws among its own atoms (class sizes kept).

    ``counts``: the block's slice, filled in the merged order; ``positive``,
    ``negative``: buffers of at least the block's size plus one; ``left``: (positive
    draws, negative draws, positive atoms, negative atoms) still to come, updated and
    returned with the stream state; ``sampler``: the binomial sampler (:func:`_take`).
    """
    size = counts.shape[0]
    draws_positive, draws_negative, remaining_positive, remaining_negative = left
    n_block_negative = size - n_block_positive
    positive_counts = positive[:n_block_positive]
    negative_counts = negative[:n_block_negative]
    positive_counts[:] = 0
    negative_counts[:] = 0
    taken, state = _take(draws_positive, n_block_positive, remaining_positive, state, sampler)
    state = _draw_uniform(positive_counts, n_block_positive, taken, state)
    draws_positive -= taken
    remaining_positive -= n_block_positive
    taken, state = _take(draws_negative, n_block_negative, remaining_negative, state, sampler)
    state = _draw_uniform(negative_counts, n_block_negative, taken, state)
    draws_negative -= taken
    remaining_negative -= n_block_negative
    i = 0
    j = 0
    for offset in range(size):  # back into the merged order, without branches
        flag = is_positive[start + offset]
        counts[offset] = positive[i] if flag else negative[j]
        i += 1 if flag else 0
        j += 0 if flag else 1
    return (draws_positive, draws_negative, remaining_positive, remaining_negative), state


@jit
def _poisson_counts(atoms, start, counts, replicate_state):
    """Poisson counts of atoms ``start .. start + len(counts)``, each from its keyed stream.

    A tie cell of m rows draws Poisson(m); an atom followed by atoms marked ``repeats``
    draws for all their rows together and they get 0; any other atom draws Poisson(1).
    """
    key = atoms.key
    if atoms.cells:
        for offset in range(counts.shape[0]):
            k = start + offset
            count, _ = poisson(atoms.value[k], keyed_stream(replicate_state, key[k]))
            counts[offset] = count
    elif atoms.repeats.shape[0] == 0:  # the common case: every atom a row of its own
        for offset in range(counts.shape[0]):
            count, _ = poisson(1.0, keyed_stream(replicate_state, key[start + offset]))
            counts[offset] = count
    else:
        repeats = atoms.repeats
        n = repeats.shape[0]
        for offset in range(counts.shape[0]):
            k = start + offset
            if repeats[k]:
                counts[offset] = 0
                continue
            following = k + 1
            while following < n and repeats[following]:
                following += 1
            count, _ = poisson(float(following - k), keyed_stream(replicate_state, key[k]))
            counts[offset] = count


def scheme_block(scheme, atoms, classes, buffers, start, counts, replicate_state, state, left):
    """The counts of one block drawn by ``scheme`` (see :func:`draw_block`).

    Inside kernels the draw is chosen by the scheme's type when the caller compiles
    (:func:`_scheme_block`), so a multinomial replicate compiles no Poisson or
    stratified draw; called from Python it is chosen by ``type(scheme)``.
    """
    draw = _SCHEME_DRAWS[type(scheme)]
    return draw(scheme, atoms, classes, buffers, start, counts, replicate_state, state, left)


@overload(scheme_block, jit_options=OVERLOAD_OPTIONS)
def _scheme_block(scheme, atoms, classes, buffers, start, counts, replicate_state, state, left):
    # a branch on the scheme's value would compile every scheme into every replicate; the
    # draw itself is the supplied function (not a wrapper inlining it: the copy of a large
    # inlined body costs Numba more than the body's own typing)
    return {
        numba.typeof(MULTINOMIAL): _multinomial_block,
        numba.typeof(STRATIFIED): _stratified_block,
        numba.typeof(POISSON): _poisson_block,
    }[scheme]


def _multinomial_block(scheme, atoms, classes, buffers, start, counts, replicate_state, state,
                       left):  # fmt: skip
    """Multinomial counts: a conditional binomial per tie cell of several rows, else the
    block's total as a conditional binomial, spread by uniform indices into the block.

    The draws of the schemes are plain functions: :func:`_scheme_block` supplies them to
    the kernel that compiles them, and :func:`scheme_block` calls them from Python."""
    draws, remaining, stratified = left
    size = counts.shape[0]
    cells = atoms.cells
    for offset in range(size if cells else 1):  # one site of the conditional binomial
        units = np.int64(atoms.value[start + offset]) if cells else size
        count, state = _take(draws, units, remaining, state, classes.binomial)
        draws -= count
        remaining -= units
        if cells:
            counts[offset] = count
        else:
            state = _draw_uniform(counts, size, count, state)
    return state, (draws, remaining, stratified)


def _stratified_block(scheme, atoms, classes, buffers, start, counts, replicate_state, state,
                      left):  # fmt: skip
    """Stratified counts: the multinomial draw within each class (class sizes kept)."""
    draws, remaining, stratified = left
    if not atoms.cells:
        stratified, state = stratified_block(
            atoms.is_positive, start, counts, classes.block_positives[start // _BLOCK],
            buffers.positive, buffers.negative, stratified, state, classes.binomial,
        )  # fmt: skip
        return state, (draws, remaining, stratified)
    draws_positive, draws_negative, remaining_positive, remaining_negative = stratified
    for offset in range(counts.shape[0]):
        k = start + offset
        cell = np.int64(atoms.value[k])
        if atoms.is_positive[k]:
            count, state = _take(draws_positive, cell, remaining_positive, state,
                                 classes.binomial)  # fmt: skip
            draws_positive -= count
            remaining_positive -= cell
        else:
            count, state = _take(draws_negative, cell, remaining_negative, state,
                                 classes.binomial)  # fmt: skip
            draws_negative -= count
            remaining_negative -= cell
        counts[offset] = count
    stratified = (draws_positive, draws_negative, remaining_positive, remaining_negative)
    return state, (draws, remaining, stratified)


def _poisson_block(scheme, atoms, classes, buffers, start, counts, replicate_state, state, left):
    """Poisson counts, each from its cell's keyed stream (the sequential stream unused)."""
    _poisson_counts(atoms, start, counts, replicate_state)
    return state, left


_SCHEME_DRAWS = {
    type(MULTINOMIAL): _multinomial_block,
    type(STRATIFIED): _stratified_block,
    type(POISSON): _poisson_block,
}


@jit_inline
def draw_block(atoms, clusters, scheme, classes, buffers, start, counts, replicate_state, state,
               left):  # fmt: skip
    """The counts of atoms ``start .. start + len(counts) - 1`` of a replicate: whole
    clusters, or the draw of ``scheme`` (:func:`scheme_block`).

    ``replicate_state`` keys the Poisson cells; ``state`` is the replicate's sequential
    stream; ``left``: (draws, units) left to the multinomial and (positive draws, negative
    draws, positive units, negative units) left to the stratified draw, a unit being an
    atom of one row or a row of a tie cell (:func:`draws_left`).  Returns ``(state,
    left)`` updated.
    """
    counts[:] = 0
    if clusters.n_clusters > 0:
        for k in range(start, start + counts.shape[0]):
            counts[k - start] = buffers.cluster_counts[clusters.cluster_of_atom[k]]
        return state, left
    return scheme_block(scheme, atoms, classes, buffers, start, counts, replicate_state, state,
                        left)  # fmt: skip


@jit_inline
def draws_left(classes):
    """What a replicate has left to draw before its first block (see :func:`draw_block`)."""
    n = classes.n_positive + classes.n_negative
    stratified = (classes.n_positive, classes.n_negative, classes.n_positive, classes.n_negative)
    return n, n, stratified
