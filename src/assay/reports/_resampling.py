"""How a report resamples, and where it runs: one machine, or Dask (a dask DataFrame).

The classical (multinomial) bootstrap draws ``n`` rows from all ``n`` of them: a draw
that needs the total ``n`` and one pass over every row, which no partition can make on
its own.  The Poisson bootstrap counts every row Poisson(1) times, keyed by what the row
is (an unweighted row by its score and class, a confusion cell by its labels), so each
partition draws its own rows' counts and the replicates do not depend on the partitions:
a report on Dask resamples that way, and equals the one-machine report with
``resampling='poisson'``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from assay._validation import check_option

RESAMPLINGS = ("multinomial", "poisson")


class Arguments(NamedTuple):
    """A report's checked arguments (the Dask path's input)."""

    target: str
    scores: list[str]
    pred: list[str]
    weight: str | None
    pos_label: Any
    threshold: float
    cost_matrix: tuple[tuple[float, float], tuple[float, float]] | None
    n_resamples: int
    confidence_level: float
    seed: int
    dropna: bool
    progress: bool


def is_dask_frame(data: Any) -> bool:
    """Whether ``data`` is a dask DataFrame (without importing dask)."""
    return (
        type(data).__module__.startswith("dask")
        and hasattr(data, "npartitions")
        and hasattr(data, "columns")
    )


def check_resampling(resampling: Any, on_dask: bool, group: str | None) -> str:
    """The report's resampling: Poisson on Dask, multinomial by default elsewhere."""
    if resampling is None:
        resampling = "poisson" if on_dask else "multinomial"
    check_option(resampling, "resampling", RESAMPLINGS)
    if on_dask and resampling == "multinomial":
        raise ValueError(
            "`resampling='multinomial'` draws n rows from all n rows, which no partition "
            "can do on its own; a report on Dask resamples with resampling='poisson' "
            "(the same numbers as the one-machine report with resampling='poisson')."
        )
    if group is not None and resampling == "poisson":
        raise ValueError(
            f"`group` ({group!r}) resamples whole groups with a multinomial draw; it cannot "
            "be combined with resampling='poisson' (nor run on Dask)."
        )
    return str(resampling)
