"""Without Dask, importing ``assay.dask`` says which extra to install."""

from __future__ import annotations

import importlib
import sys

import pytest


def test_missing_dask_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.dataframe", None)  # makes its import fail
    for name in [module for module in sys.modules if module.startswith("assay.dask")]:
        monkeypatch.delitem(sys.modules, name)
    with pytest.raises(ImportError, match=r"pip install 'assay\[dask\]'"):
        importlib.import_module("assay.dask")


def test_assay_does_not_import_dask():
    import subprocess

    code = "import sys, assay; print('dask' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr
