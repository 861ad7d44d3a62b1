"""``assay.dask`` has the names and keyword arguments of the top level, and ``compute``.

The differences are listed here, each with its reason; a new one fails until it is.
"""

from __future__ import annotations

import inspect

import pytest

import assay
import assay.dask

# parameters of the top level the dask function does not take
MISSING = {
    "average_precision_score": {"average"},  # binary targets only
    "roc_auc_score": {"average", "multi_class", "labels"},  # binary targets only
    "pr_auc_score": {"average"},  # binary targets only
    "mean_absolute_error": {"multioutput"},  # one output
    "mean_squared_error": {"multioutput"},
    "root_mean_squared_error": {"multioutput"},
    "r2_score": {"multioutput"},
    # the Poisson bootstrap: no strata or clusters; Dask has its own progress bars
    "bootstrap": {"y_pred", "stratify", "groups", "progress"},
    "compare": {"progress"},
}
# parameters besides `compute` that only the dask function takes
EXTRA = {
    "bootstrap": {"y_score"},  # named for the scores it takes (ranking metrics only)
    "roc_curve": {"max_points"},
    "precision_recall_curve": {"max_points"},
}
# defaults that differ: the only resampling on Dask is the Poisson bootstrap
DEFAULTS = {("bootstrap", "resampling"), ("compare", "resampling")}


@pytest.mark.parametrize("name", assay.dask.__all__)
def test_the_signature_is_the_top_levels(name):
    top = inspect.signature(getattr(assay, name)).parameters
    on_dask = inspect.signature(getattr(assay.dask, name)).parameters
    assert set(top) - set(on_dask) == MISSING.get(name, set())
    assert set(on_dask) - set(top) == EXTRA.get(name, set()) | {"compute"}
    assert on_dask["compute"].default is True
    for parameter in set(top) & set(on_dask):
        if (name, parameter) in DEFAULTS:
            continue
        same = top[parameter].default == on_dask[parameter].default
        nan = top[parameter].default != top[parameter].default  # a NaN default
        assert same or nan, parameter
        assert top[parameter].kind == on_dask[parameter].kind, parameter
