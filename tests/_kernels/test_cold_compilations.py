"""What a public call compiles in a fresh process with an empty kernel cache.

Every function Numba compiles costs a fixed price of typing, lowering and optimising, so
the first call of a public function with an empty cache (once per installation) is slow
in proportion to their number (docs/performance.md).  These tests name what a small call
must not compile: a sort with a payload (only the weighted ranking sort has one; an order
is a sort of packed words, and a small order is NumPy's argsort, which compiles nothing),
the small helpers of a streamed replicate
(inlined into the kernels that call them), without clusters, the draw of clusters, for a
bootstrap's or a comparison's replicates any NumPy allocation (their buffers and the
merged atoms are allocated in Python and given to the kernels), and
for the estimates of a bootstrap or a comparison and a permutation test's statistic, the
plain metric's scan; the estimates of a bootstrap and of a comparison are computed by the
kernel of their replicates, compiled once; and a replicate of one block of atoms, which
draws no binomial, compiles no binomial sampler (a larger one compiles it, and not its
replicates' kernel again).
They compare names, never times.
"""

from __future__ import annotations

import pytest

from tests._kernels._isolated import RECORD_COMPILATIONS, last_json_line, run_python

pytestmark = pytest.mark.slow  # each compiles a public call's kernels from nothing

_COMPILED_BY = (
    RECORD_COMPILATIONS
    + """
import json

import numpy as np

import assay

generator = np.random.default_rng(20261127)
y = (generator.random(300) < 0.3).astype(np.int64)
s = generator.standard_normal(300) + y
s2 = generator.standard_normal(300) + 0.5 * y
record_compilations()
CALL
print(json.dumps(compiled))
"""
)

# no call sorts with a payload but a weighted one (its radix passes, its bucket passes)
_PAYLOAD_SORTS = {"_lsd_with_payload", "bucket_sort_with_payload", "_sort_bucket_with_payload"}
# the order of at most NUMPY_ORDER_MAX rows is NumPy's argsort: no packed words, no sort
_SMALL_ORDER = {"row_words", "rows_of_sorted_words", "order_words_by_keys", "sort_float_bits"}
# the plain metric's scan (either direction)
_PLAIN_SCANS = {"scan_merged_forward", "scan_merged_backward"}
# and, without clusters, the multinomial draw over the clusters
_REPLICATE_HELPERS = {"_small", "_exactness", "_start", "_rows_multinomial"}
# the replicates' buffers and the merged atoms are allocated in NumPy, not in the kernels
_ALLOCATIONS = {
    "ol_np_empty.<locals>.impl",
    "ol_np_zeros.<locals>.impl",
    "ol_array_zero_fill.<locals>.impl",
    "_ol_array_allocate.<locals>.impl",
}
# a replicate over one block of atoms of one row each takes all its draws in that block
_BINOMIAL = {"binomial", "_binomial_btrd", "_binomial_inversion", "_binomial_log_ratio"}


@pytest.mark.parametrize(
    ("call", "not_compiled", "once"),
    [
        ("assay.delong_test(y, s, s2)", _PAYLOAD_SORTS, None),
        # the estimate is the replicates' kernel counting every row once: no plain scan,
        # no kernel of its own
        (
            "assay.bootstrap(assay.roc_auc_score, y, s, n_resamples=20, rng=1)",
            _REPLICATE_HELPERS | _PLAIN_SCANS | _BINOMIAL | _ALLOCATIONS,
            "_ranking_replicates",
        ),
        (
            "assay.bootstrap(assay.roc_auc_score, y, s, n_resamples=20, rng=1, stratify=True)",
            _REPLICATE_HELPERS | _PLAIN_SCANS | _BINOMIAL | _ALLOCATIONS,
            "_ranking_replicates",
        ),
        # the observed statistic is the permutations' scan of the sorted rows
        (
            "assay.permutation_test(assay.roc_auc_score, y, s, n_resamples=20, rng=1)",
            _SMALL_ORDER | _PLAIN_SCANS,
            None,
        ),
        (
            "assay.compare(assay.roc_auc_score, y, s, s2, n_resamples=20, rng=1)",
            _PAYLOAD_SORTS
            | _REPLICATE_HELPERS
            | _SMALL_ORDER
            | _PLAIN_SCANS
            | _BINOMIAL
            | _ALLOCATIONS,
            "_paired_replicates",
        ),
        # more rows than LANES_MIN_ATOMS: the replicates and the estimates in lanes of
        # eight, no kernel drawing one replicate at a time
        (
            "big = np.arange(120 * 300) % 300; "
            "assay.compare(assay.roc_auc_score, y[big], s[big] + 1e-9 * big, s2[big], "
            "n_resamples=20, rng=1)",
            _REPLICATE_HELPERS | _PLAIN_SCANS | {"_paired_replicates"},
            "_lane_batches",
        ),
    ],
)
def test_a_small_call_compiles_only_what_it_runs(
    call: str, not_compiled: set[str], once: str | None, tmp_path
):
    process = run_python(
        _COMPILED_BY.replace("CALL", call), environment={"NUMBA_CACHE_DIR": str(tmp_path)}
    )
    compiled = last_json_line(process)
    assert compiled  # the cache was empty: the call compiled its kernels
    assert not set(compiled) & not_compiled
    if once is not None:  # the estimates come from the replicates' own kernel
        assert compiled.count(once) == 1, compiled


def test_more_blocks_compile_the_binomial_sampler_and_no_second_replicates_kernel(tmp_path):
    """After a bootstrap of one block, one of several blocks (tie cells, or more atoms
    than a block) draws conditional binomials: it compiles the exact sampler, which the
    replicates' kernel calls as a value, so that kernel is not compiled again."""
    call = (
        "assay.bootstrap(assay.roc_auc_score, y, s, n_resamples=20, rng=1); "
        "big = np.arange(20 * 300) % 300; "
        "assay.bootstrap(assay.roc_auc_score, y[big], s[big] + 1e-9 * big, n_resamples=20, "
        "rng=1)"
    )
    process = run_python(
        _COMPILED_BY.replace("CALL", call), environment={"NUMBA_CACHE_DIR": str(tmp_path)}
    )
    compiled = last_json_line(process)
    assert compiled.count("_ranking_replicates") == 1, compiled
    assert {"binomial", "_binomial_btrd"} <= set(compiled)
