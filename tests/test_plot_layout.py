"""critical_difference_layout: the positions of a CD diagram, computed without matplotlib."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from assay import bonferroni_dunn, friedman, nemenyi, rank_models
from assay.plot import critical_difference_layout
from tests.test_plot import NAMES, SCORES

OVERHANG = 0.03  # a clique bar reaches this far past its extreme members


def _brute_force_cliques(ranks: np.ndarray, cd: float) -> set[tuple[int, ...]]:
    """Maximal sets of models, consecutive in rank order, whose ranks all lie within < cd."""
    order = list(np.argsort(ranks, kind="stable"))
    runs = [
        tuple(order[start : end + 1])
        for start in range(len(order))
        for end in range(start + 1, len(order))
        if ranks[order[end]] - ranks[order[start]] < cd
    ]
    return {run for run in runs if not any(set(run) < set(other) for other in runs)}


def test_demsar_figure_1a_layout() -> None:
    result = nemenyi(SCORES, alpha=0.10, model_names=NAMES)
    layout = critical_difference_layout(result)
    ranks = result.average_ranks
    assert layout.method == "nemenyi" and layout.n_models == 4 and layout.ticks == (1, 2, 3, 4)
    assert [bar.members for bar in layout.cliques] == [(3, 1, 2), (2, 0)]
    assert [(bar.low, bar.high) for bar in layout.cliques] == [
        pytest.approx((ranks[3] - OVERHANG, ranks[2] + OVERHANG)),
        pytest.approx((ranks[2] - OVERHANG, ranks[0] + OVERHANG)),
    ]
    assert layout.cd_bar is not None and layout.control_bar is None
    assert layout.cd_bar.high - layout.cd_bar.low == pytest.approx(result.critical_difference)
    # best first; the better half on the right, each label in its own row
    assert [label.model for label in layout.labels] == [3, 1, 2, 0]
    assert [label.on_right for label in layout.labels] == [True, True, False, False]
    assert [label.rank for label in layout.labels] == list(ranks[[3, 1, 2, 0]])
    rights = [label.y for label in layout.labels if label.on_right]
    lefts = [label.y for label in layout.labels if not label.on_right]
    assert rights[0] > rights[1] and lefts[0] < lefts[1]  # the outermost models hang highest
    assert all(label.y < min(bar.y for bar in layout.cliques) for label in layout.labels)
    assert layout.labels[0].text == "C4.5+m+cf (1.96)" and not any(m.bold for m in layout.labels)
    assert layout.x_limits[0] > layout.x_limits[1]  # reversed: best on the right


@pytest.mark.parametrize("seed", range(12))
def test_cliques_are_the_maximal_groups_closer_than_the_cd(seed: int) -> None:
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 9))
    scores = rng.normal(size=(int(rng.integers(3, 30)), k)) + rng.uniform(0, 1.5, size=k)
    result = nemenyi(scores)
    layout = critical_difference_layout(result)
    ranks = result.average_ranks
    members = {bar.members for bar in layout.cliques}
    assert members == _brute_force_cliques(ranks, result.critical_difference)
    # every pair that Nemenyi does not separate shares a clique
    for i in range(k):
        for j in range(i + 1, k):
            if not result.significant[i, j]:
                assert any({i, j} <= set(clique) for clique in members)


def test_bonferroni_dunn_layout_marks_one_cd_around_the_control() -> None:
    result = bonferroni_dunn(SCORES, control="C4.5", model_names=NAMES)
    layout = critical_difference_layout(result, names=list("abcd"), show_ranks=False)
    assert layout.cliques == () and layout.cd_bar is None and layout.control_bar is not None
    control = result.average_ranks[0]
    assert (layout.control_bar.low, layout.control_bar.high) == pytest.approx(
        (control - result.critical_difference, 4.0)  # clipped to the axis
    )
    assert [label.text for label in layout.labels if label.bold] == ["a"]


def test_a_rank_models_result_chooses_its_test() -> None:
    plain = critical_difference_layout(rank_models(SCORES, model_names=NAMES, alpha=0.10))
    assert plain.method == "nemenyi" and len(plain.cliques) == 2
    controlled = critical_difference_layout(rank_models(SCORES, control=0))
    assert controlled.method == "bonferroni-dunn" and controlled.control_bar is not None


def test_layout_needs_no_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    assert len(critical_difference_layout(nemenyi(SCORES)).labels) == 4


def test_layout_errors() -> None:
    with pytest.raises(TypeError, match=r"or the result of rank_models\(\); got FriedmanResult"):
        critical_difference_layout(friedman(SCORES))
    with pytest.raises(ValueError, match=r"`names` has 3 names but the result has 4 models\."):
        critical_difference_layout(nemenyi(SCORES), names=["a", "b", "c"])
