"""SciPy's special functions, imported at their first use instead of with assay.

``scipy.special`` takes about 0.15 s to import, some 40 % of what the rest of
``import assay`` takes (``docs/performance.md``), and most programs call none of the
functions assay takes from it (the normal and Student t quantiles and tails of the
analytic intervals and tests, the incomplete beta function of the exact binomial
bounds).  Modules use ``from assay import _special as special`` and call
``special.ndtri(...)``: the first attribute looked up imports ``scipy.special`` and
keeps the function here, so later calls cost what a module attribute costs.  Nothing
else changes: the functions are SciPy's own.
"""

from __future__ import annotations

from typing import Any

__all__: list[str] = []


def __getattr__(name: str) -> Any:
    """SciPy's ``scipy.special.<name>``, kept in this module once looked up."""
    if name.startswith("__"):  # module protocol lookups (``__path__``, ``__wrapped__``...)
        raise AttributeError(name)
    import scipy.special

    value = getattr(scipy.special, name)  # AttributeError for a name SciPy lacks
    globals()[name] = value
    return value
