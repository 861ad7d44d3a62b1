"""The reference must stay independent of the code it checks (ARCHITECTURE rule 7).

Two checks: a static one (every import in the reference sources names an allowed
module) and a dynamic one (the package loads and computes in a fresh interpreter in
which importing ``assay`` fails).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import assay.reference

REFERENCE_DIR = Path(assay.reference.__file__).parent

# Standard library and numpy only; relative imports stay inside the reference.  The one
# exception: scipy's distribution functions (``scipy.stats`` / ``scipy.special``), which the
# reference of a statistical test uses for the reference distribution itself (a t or beta
# quantile), never for the statistic.
ALLOWED_SCIPY_MODULES = {"scipy.stats", "scipy.special"}
ALLOWED_TOP_LEVEL_MODULES = {
    "__future__",
    "collections",
    "copy",
    "fractions",
    "itertools",
    "math",
    "numpy",
    "typing",
}


def _imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every absolute import in a source file; relative ones as '.'."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level > 0:
                found.append((node.lineno, "."))
            elif node.module == "scipy":  # from scipy import stats -> scipy.stats
                found.extend((node.lineno, f"scipy.{alias.name}") for alias in node.names)
            else:
                found.append((node.lineno, node.module or ""))
    return found


def test_reference_sources_import_only_numpy_and_the_standard_library() -> None:
    sources = sorted(REFERENCE_DIR.glob("*.py"))
    assert sources, "no reference sources found"
    offending = []
    for path in sources:
        for line, module in _imported_modules(path):
            top_level = module.split(".")[0]
            if top_level == "scipy":
                if ".".join(module.split(".")[:2]) not in ALLOWED_SCIPY_MODULES:
                    offending.append(f"{path.name}:{line} imports {module}")
            elif module != "." and top_level not in ALLOWED_TOP_LEVEL_MODULES:
                offending.append(f"{path.name}:{line} imports {module}")
    assert not offending, "\n".join(offending)


def test_reference_has_no_dynamic_imports() -> None:
    """No importlib / __import__ calls that could reach assay behind the static check."""
    for path in sorted(REFERENCE_DIR.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "__import__" not in text, path.name
        assert "importlib" not in text, path.name


def test_reference_loads_and_computes_with_assay_blocked() -> None:
    """Load the reference as a stand-alone package while every ``assay`` import fails."""
    script = textwrap.dedent(
        f"""
        import importlib.abc
        import importlib.util
        import sys

        class BlockAssay(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name == "assay" or name.startswith("assay."):
                    raise ImportError(f"blocked import of {{name}}")
                return None

        sys.meta_path.insert(0, BlockAssay())
        spec = importlib.util.spec_from_file_location(
            "standalone_reference",
            {str(REFERENCE_DIR / "__init__.py")!r},
            submodule_search_locations=[{str(REFERENCE_DIR)!r}],
        )
        module = importlib.util.module_from_spec(spec)
        sys.modules["standalone_reference"] = module
        spec.loader.exec_module(module)
        assert not any(name == "assay" or name.startswith("assay.") for name in sys.modules)
        assert module.roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) == 0.75
        print(len(module.__all__))
        """
    )
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert completed.returncode == 0, completed.stderr
    assert int(completed.stdout.strip()) == len(assay.reference.__all__)


def test_every_public_name_is_exported() -> None:
    expected = {
        "confusion_matrix_at_thresholds",
        "roc_curve",
        "precision_recall_curve",
        "det_curve",
        "roc_auc_score",
        "average_precision_score",
        "pr_auc_score",
        "equal_error_rate",
        "lift_score",
        "cumulative_gain_curve",
        "coverage_error",
        "label_ranking_average_precision_score",
        "label_ranking_loss",
        "confusion_matrix",
        "accuracy_score",
        "error_rate",
        "precision_score",
        "recall_score",
        "specificity_score",
        "npv_score",
        "false_positive_rate",
        "false_negative_rate",
        "false_discovery_rate",
        "f1_score",
        "fbeta_score",
        "matthews_corrcoef",
        "balanced_accuracy_score",
        "cohen_kappa_score",
        "classification_report",
        "expected_cost",
        "bayes_decision",
        "mean_squared_error",
        "root_mean_squared_error",
        "mean_absolute_error",
        "r2_score",
        # analytic inference
        "proportion_ci",
        "error_rate_ci",
        "difference_ci",
        "mean_ci",
        "auc_ci",
        "delong_covariance",
        "delong_test",
        "delong_test_unpaired",
        "mcnemar",
        "cochrans_q",
        "paired_ttest",
        "welch_ttest",
        "corrected_resampled_ttest",
        "ttest_5x2cv",
        "ftest_5x2cv",
        "wilcoxon_signed_rank",
        "sign_test",
        "adjust_pvalues",
        "friedman",
        "nemenyi",
        "bonferroni_dunn",
        # estimation protocols
        "decompose",
        "bootstrap_632",
        "bayes_error_rate",
        "one_standard_error_rule",
        # curves read at a grid, and their bootstrap bands (from given replicate counts)
        "tpr_at_fpr",
        "precision_at_recall",
        "roc_band",
        "precision_recall_band",
        # thresholds and naive baselines
        "posterior_fdr_threshold",
        "optimal_threshold",
        "baseline_score",
        # probabilistic predictions
        "log_loss",
        "brier_score_loss",
        "brier_decomposition",
        "calibration_curve",
        "expected_calibration_error",
        "maximum_calibration_error",
        # multilabel targets
        "multilabel_confusion_matrix",
        "hamming_loss",
        "jaccard_score",
        "zero_one_loss",
    }
    assert set(assay.reference.__all__) == expected
    for name in expected:
        function = getattr(assay.reference, name)
        assert function.__doc__ and "Notes" in function.__doc__, name
