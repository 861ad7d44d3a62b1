"""The binomial sampler a streamed replicate is given (:mod:`assay._kernels.draws`).

A replicate over one block of atoms of one row each takes all its draws in that block, so
it is given no sampler (``NO_BINOMIAL``, nothing to compile) instead of the exact one
(``BINOMIAL``): the choice must never change a replicate.  A replicate that would call an
absent sampler raises instead, so replicates that are equal with either show that it is
not called.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay._kernels import draws, resample, streaming
from assay._kernels.resample import MULTINOMIAL, POISSON, STRATIFIED
from assay._kernels.scans.average_precision import AveragePrecision
from assay._kernels.scans.roc_auc import RocAuc
from assay.resampling._plans import stream_plan
from tests.strategies import binary_ranking_data

_SCHEMES = [MULTINOMIAL, STRATIFIED, POISSON]


def _plan(y, s, weight, scheme, clusters=None):
    return stream_plan(y, s, pos_label=None, sample_weight=weight, clusters=clusters,
                       keyed=scheme == POISSON)  # fmt: skip


def _traces(plan, scheme, sampler, options=None, replicates=range(4)):
    """Every atom's count in each replicate, drawn with ``sampler`` given explicitly."""
    atoms = plan.atoms
    options = options or RocAuc()
    classes = streaming._class_counts(atoms)
    scratch = streaming._ranking_scratch(atoms, plan.clusters, options)
    found = []
    for r in replicates:
        draw = resample.Draw(scheme, np.uint64(20261128), r, sampler)
        trace = np.zeros(atoms.is_positive.shape[0], dtype=np.int64)
        value = streaming._traced_replicate(
            atoms, plan.clusters, options, draw, *classes, *scratch(), trace
        )
        found.append((value, trace))
    return found


def _same(first, second) -> bool:
    return all(
        np.array_equal(a[1], b[1]) and (a[0] == b[0] or (np.isnan(a[0]) and np.isnan(b[0])))
        for a, b in zip(first, second, strict=True)
    )


@settings(max_examples=60, deadline=None)
@given(
    data=binary_ranking_data(max_n=300),
    scheme=st.sampled_from(_SCHEMES),
    clustered=st.booleans(),
    ties=st.booleans(),
)
def test_a_small_replicate_given_no_sampler_draws_as_with_the_exact_one(
    data, scheme, clustered, ties
) -> None:
    """Small data (one block, rows too few for tie cells), any scheme, weights, ties,
    clusters."""
    y, s, weight = data
    if ties:
        s = np.round(s * 2) / 2
    clusters = np.arange(y.shape[0]) % 7 if clustered else None
    plan = _plan(y, s, weight, scheme, clusters)
    chosen = draws.binomial_for(plan.atoms, scheme, plan.clusters.n_clusters > 0)
    assert chosen is draws.NO_BINOMIAL
    exact = _traces(plan, scheme, draws.BINOMIAL)
    assert _same(_traces(plan, scheme, draws.NO_BINOMIAL), exact)


@pytest.mark.parametrize("scheme", [MULTINOMIAL, STRATIFIED])
def test_several_blocks_or_tie_cells_get_the_exact_sampler(scheme) -> None:
    generator = np.random.default_rng(3)
    n = 2 * resample._BLOCK + 5  # three blocks of atoms of one row each
    y = (generator.random(n) < 0.3).astype(np.int64)
    s = generator.standard_normal(n) + y
    plan = _plan(y, s, None, scheme)
    assert not plan.atoms.cells
    assert draws.binomial_for(plan.atoms, scheme, False) is draws.BINOMIAL
    # which matters: without a sampler such a replicate stops with an error
    with pytest.raises(RuntimeError, match="given no sampler"):
        _traces(plan, scheme, draws.NO_BINOMIAL, AveragePrecision(0.0))
    tied = _plan(y[:3000], np.round(s[:3000]), None, scheme)  # few cells of many rows
    assert tied.atoms.cells
    assert draws.binomial_for(tied.atoms, scheme, False) is draws.BINOMIAL
    with pytest.raises(RuntimeError, match="given no sampler"):
        _traces(tied, scheme, draws.NO_BINOMIAL)


def test_poisson_and_clustered_replicates_never_need_the_block_sampler() -> None:
    generator = np.random.default_rng(4)
    n = 3 * resample._BLOCK
    y = (generator.random(n) < 0.4).astype(np.int64)
    s = np.round(generator.standard_normal(n) + y, 1)
    poisson = _plan(y, s, None, POISSON)
    assert draws.binomial_for(poisson.atoms, POISSON, False) is draws.NO_BINOMIAL
    assert _same(_traces(poisson, POISSON, draws.NO_BINOMIAL),
                 _traces(poisson, POISSON, draws.BINOMIAL))  # fmt: skip
    clustered = _plan(y, s, None, MULTINOMIAL, np.arange(n) % 50)
    assert draws.binomial_for(clustered.atoms, MULTINOMIAL, True) is draws.NO_BINOMIAL
    assert _same(_traces(clustered, MULTINOMIAL, draws.NO_BINOMIAL),
                 _traces(clustered, MULTINOMIAL, draws.BINOMIAL))  # fmt: skip


def test_the_draw_of_a_public_call_carries_the_chosen_sampler() -> None:
    """The wrappers set the sampler; a draw built elsewhere carries none."""
    assert resample.Draw(MULTINOMIAL, np.uint64(1), 0).binomial is None
    generator = np.random.default_rng(5)
    y = (generator.random(100) < 0.5).astype(np.int64)
    plan = _plan(y, generator.standard_normal(100), None, MULTINOMIAL)
    draw = draws.with_binomial(resample.Draw(MULTINOMIAL, np.uint64(1), 0), plan.atoms,
                               plan.clusters)  # fmt: skip
    assert draw.binomial is draws.NO_BINOMIAL
    assert draw[:3] == (MULTINOMIAL, np.uint64(1), 0)


def test_an_absent_function_cannot_be_called_from_python_either() -> None:
    with pytest.raises(RuntimeError, match="not given"):
        draws.NO_BINOMIAL(10, 0.5, np.uint64(1))
    assert draws.BINOMIAL(10, 1.0, np.uint64(1))[0] == 10  # the exact sampler, called
