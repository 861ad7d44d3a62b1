"""``import assay`` leaves SciPy's slow modules for the first call that needs them."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
import scipy.special

from assay import _special

SLOW_MODULES = ["scipy.special", "scipy.stats", "scipy.optimize"]


def _modules_after(code: str) -> dict[str, bool]:
    """Which of ``SLOW_MODULES`` a fresh interpreter has imported after ``code``."""
    flags = f"[m in sys.modules for m in {SLOW_MODULES!r}]"
    probe = f"{code}\nimport json, sys\nprint(json.dumps({flags}))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    imported = json.loads(result.stdout.strip().splitlines()[-1])
    return dict(zip(SLOW_MODULES, imported, strict=True))


def test_import_assay_imports_no_slow_scipy_module():
    assert _modules_after("import assay, assay.cli") == dict.fromkeys(SLOW_MODULES, False)


@pytest.mark.parametrize(
    ("code", "imported"),
    [
        # the normal quantile of the binormal model
        ("import assay; assay.datasets.binormal_scores(10, rng=0)", "scipy.special"),
        # the exact binomial expectation of a naive classifier's F1
        (
            "import assay; assay.baseline_score(assay.f1_score, [0, 1, 1, 0, 1], "
            "strategy='stratified')",
            "scipy.stats",
        ),
    ],
)
def test_first_use_imports_what_it_needs(code, imported):
    assert _modules_after(code)[imported]


def test_the_tests_over_data_sets_do_not_import_scipy_stats():
    code = (
        "import numpy as np, assay\n"
        "table = np.random.default_rng(0).random((10, 4))\n"
        "assay.friedman(table); assay.nemenyi(table); assay.rank_models(table)"
    )
    assert not _modules_after(code)["scipy.stats"]


def test_functions_are_scipys_own_and_kept():
    assert _special.ndtri is scipy.special.ndtri
    assert "ndtri" in vars(_special)  # looked up once, then an ordinary attribute
    np.testing.assert_array_equal(_special.ndtr(np.array([-1.0, 0.0, 2.5])),
                                  scipy.special.ndtr(np.array([-1.0, 0.0, 2.5])))  # fmt: skip


def test_unknown_names_raise_attribute_error():
    with pytest.raises(AttributeError, match="no_such_function"):
        _special.no_such_function  # noqa: B018


def test_module_protocol_names_are_not_scipys():
    # scipy.special is a package: forwarding ``__path__`` would make this module look like one
    assert hasattr(scipy.special, "__path__")
    with pytest.raises(AttributeError):
        _special.__path__  # noqa: B018
    # and looking such a name up imports nothing
    probe = "from assay import _special; hasattr(_special, '__path__')"
    assert not _modules_after(probe)["scipy.special"]
