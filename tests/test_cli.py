"""The command line: demo, selfcheck, --version, --help."""

from __future__ import annotations

import subprocess
import sys

import pytest

import assay
from assay import cli


def test_version(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"assay {assay.__version__}"


def test_no_command_prints_help(capsys) -> None:
    assert cli.main([]) == 0
    assert "demo" in capsys.readouterr().out


def test_demo_prints_every_metric_with_timings(capsys) -> None:
    assert cli.main(["demo", "--n-samples", "5000", "--seed", "3"]) == 0
    output = capsys.readouterr().out
    for name in ("roc_auc_score", "average_precision_score", "pr_auc_score(method='11-point')",
                 "equal_error_rate", "roc_curve", "f1_score (score >= 0.5)"):  # fmt: skip
        assert name in output
    assert "5,000 scored predictions" in output and "first call" in output
    assert "95% bootstrap interval of the ROC AUC (1000 replicates" in output
    assert "Paired bootstrap, AUC(model) - AUC(model + noise)" in output
    # no replicate difference reaches 0 here: the p-value 0 is shown as below 1/B
    assert "], p < 0.001 (" in output and "p = 0 " not in output


def test_demo_value_is_the_library_value(capsys) -> None:
    from assay.datasets import binormal_scores

    cli.main(["demo", "--n-samples", "3000", "--seed", "5"])
    line = next(
        row for row in capsys.readouterr().out.splitlines() if row.startswith("roc_auc_score ")
    )
    y_true, y_score = binormal_scores(3000, auc=0.85, prevalence=0.2, rng=5)
    assert f"{assay.roc_auc_score(y_true, y_score):.6f}" in line


@pytest.mark.parametrize(
    "arguments", [["demo", "--n-samples", "0"], ["selfcheck", "--n-trials", "0"]]
)
def test_bad_arguments_exit_with_usage_error(arguments, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(arguments)
    assert exit_info.value.code == 2
    assert "must be at least 1" in capsys.readouterr().err


def test_selfcheck_passes(capsys) -> None:
    assert cli.main(["selfcheck", "--n-trials", "8"]) == 0
    assert "all agree" in capsys.readouterr().out


def test_selfcheck_checks_every_registered_metric() -> None:
    from assay._selfcheck import CHECKS
    from assay.metrics._registry import METRICS

    assert set(METRICS) <= {check.name for check in CHECKS}


def test_selfcheck_fails_on_a_wrong_kernel(monkeypatch, capsys) -> None:
    monkeypatch.setattr(assay, "roc_auc_score", lambda *args, **kwargs: 0.123)
    assert cli.main(["selfcheck", "--n-trials", "4"]) == 1
    output = capsys.readouterr().out
    assert "DISAGREE roc_auc_score" in output and "FAILED" in output


def test_selfcheck_reports_a_missing_function(monkeypatch, capsys) -> None:
    monkeypatch.delattr(assay, "equal_error_rate")
    assert cli.main(["selfcheck", "--n-trials", "2"]) == 1
    assert "MISSING  equal_error_rate" in capsys.readouterr().out


def test_console_script_runs_as_a_module() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "assay.cli", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0 and result.stdout.startswith("assay ")
