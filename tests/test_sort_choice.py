"""The choice between np.sort and the radix sort: forced, calibrated, cached."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import assay
from assay import _sort_choice as choice
from assay._kernels import _jit, sorting
from assay._kernels._cache import jit_is_disabled

LARGE = choice.CALIBRATION_MIN_ROWS


class FakeCalibration:
    """Stands in for the timing run: records the dtypes it ran for, returns a fixed choice."""

    def __init__(self, float64: str = "radix", float32: str = "numpy") -> None:
        self.dtypes: list[str] = []
        self.choice = {"float64": float64, "float32": float32, "int64": "radix"}

    @property
    def runs(self) -> int:
        return len(self.dtypes)

    def __call__(self, dtype: str) -> dict[str, Any]:
        self.dtypes.append(dtype)
        return {"format": 2, "dtype": dtype, "sample_size": 8, "repeats": 1,
                "seconds": {"numpy": 1.0, "radix": 1.0}, "choice": self.choice[dtype]}  # fmt: skip


@pytest.fixture(autouse=True)
def fresh_choice(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test starts with no choice in the process and ASSAY_SORT unset."""
    monkeypatch.delenv(choice.ENVIRONMENT_VARIABLE, raising=False)
    choice.forget_calibration()
    yield
    choice.forget_calibration()


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> FakeCalibration:
    """A fake calibration cached in a temporary directory (compiled kernels or not)."""
    calibration = FakeCalibration()
    monkeypatch.setattr(choice, "jit_is_disabled", lambda: False)
    monkeypatch.setattr(choice, "calibrate", calibration)
    monkeypatch.setattr(choice, "kernel_cache_directory", lambda: tmp_path / "cache")
    return calibration


def _cache_file(tmp_path: Path, dtype: str = "float64") -> Path:
    return choice.calibration_file(tmp_path / "cache", choice.calibration_key(), dtype)


# -- forcing the sort ----------------------------------------------------------------


@pytest.mark.parametrize("value", ["numpy", "radix", "RADIX", " numpy "])
@pytest.mark.parametrize("n_rows", [0, 10, LARGE])
def test_the_environment_variable_forces_the_sort_at_any_size(
    monkeypatch: pytest.MonkeyPatch, fake: FakeCalibration, value: str, n_rows: int
) -> None:
    monkeypatch.setenv("ASSAY_SORT", value)
    assert choice.sort_method(np.dtype(np.float64), n_rows) == value.strip().lower()
    assert fake.runs == 0  # a forced sort needs no calibration


@pytest.mark.parametrize("value", ["", "auto", "Auto"])
def test_auto_or_unset_uses_the_calibrated_choice(
    monkeypatch: pytest.MonkeyPatch, fake: FakeCalibration, value: str
) -> None:
    monkeypatch.setenv("ASSAY_SORT", value)
    assert choice.sort_method(np.dtype(np.float64), LARGE) == "radix"
    assert choice.sort_method(np.dtype(np.float32), LARGE) == "numpy"
    assert fake.dtypes == ["float64", "float32"]


def test_an_unknown_sort_is_an_error_naming_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSAY_SORT", "quick")
    with pytest.raises(ValueError, match=r"ASSAY_SORT is 'quick'; it must be 'numpy', 'radix'"):
        choice.sort_method(np.dtype(np.float64), 10)
    with pytest.raises(ValueError, match=r"ASSAY_SORT is 'quick'"):
        assay.roc_auc_score([0, 1, 1], [0.1, 0.4, 0.3])


def test_forced_radix_sort_is_what_the_ranking_functions_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []
    original = sorting.radix_sort_floats

    def spy(values: np.ndarray) -> np.ndarray:
        calls.append(values.dtype.name)
        return original(values)

    monkeypatch.setattr(sorting, "radix_sort_floats", spy)
    scores = np.array([0.1, 0.4, 0.35, 0.8], dtype=np.float32)
    monkeypatch.setenv("ASSAY_SORT", "numpy")
    assay.roc_auc_score([0, 0, 1, 1], scores)
    assert calls == []
    monkeypatch.setenv("ASSAY_SORT", "radix")
    assert assay.roc_auc_score([0, 0, 1, 1], scores) == 0.75
    assert calls == ["float32", "float32"]  # each class, on 32-bit keys


# -- when the calibration runs -----------------------------------------------------------


def test_small_inputs_use_np_sort_and_never_calibrate(fake: FakeCalibration) -> None:
    assert choice.sort_method(np.dtype(np.float64), LARGE - 1) == "numpy"
    assay.roc_auc_score([0, 1, 0, 1], [0.2, 0.9, 0.4, 0.3])
    assert fake.runs == 0


def test_nothing_is_calibrated_without_compiled_kernels(
    monkeypatch: pytest.MonkeyPatch, fake: FakeCalibration
) -> None:
    monkeypatch.setattr(choice, "jit_is_disabled", lambda: True)
    assert choice.sort_method(np.dtype(np.float64), LARGE) == "numpy"
    assert fake.runs == 0


def test_the_first_large_sort_of_a_dtype_calibrates_it_once_and_caches_the_result(
    fake: FakeCalibration, tmp_path: Path
) -> None:
    """A dtype is calibrated when it is first sorted, never before: float64 scores never
    compile the radix sort of float32 keys."""
    assert choice.sort_method(np.dtype(np.float64), LARGE) == "radix"
    assert choice.sort_method(np.dtype(np.float64), 10 * LARGE) == "radix"
    assert fake.dtypes == ["float64"]
    assert not _cache_file(tmp_path, "float32").exists()
    assert choice.sort_method(np.dtype(np.float32), 10 * LARGE) == "numpy"
    assert choice.sort_method(np.dtype(np.float32), LARGE) == "numpy"
    assert fake.dtypes == ["float64", "float32"]
    for dtype, expected in (("float64", "radix"), ("float32", "numpy")):
        record = json.loads(_cache_file(tmp_path, dtype).read_text())
        assert record["key"] == choice.calibration_key()
        assert (record["dtype"], record["choice"]) == (dtype, expected)


def test_a_later_process_reuses_the_cached_choice(fake: FakeCalibration) -> None:
    choice.sort_method(np.dtype(np.float64), LARGE)
    choice.forget_calibration()  # as a new process: nothing known but the file
    fake.choice = {"float64": "numpy", "float32": "radix"}  # what a new run would say
    assert choice.sort_method(np.dtype(np.float64), LARGE) == "radix"  # the cached one
    assert fake.runs == 1


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        "",
        "[1, 2]",
        json.dumps({"format": 2, "dtype": "float64", "choice": "radix"}),
        "wrong key",
        "bad choice",
        "another dtype",
        "older format",
    ],
)
def test_a_damaged_or_foreign_cache_file_is_ignored_and_rewritten(
    fake: FakeCalibration, tmp_path: Path, content: str
) -> None:
    path = _cache_file(tmp_path)
    path.parent.mkdir(parents=True)
    good = {"format": 2, "key": choice.calibration_key(), "dtype": "float64", "choice": "numpy"}
    if content == "wrong key":
        content = json.dumps({**good, "key": {**good["key"], "cpu": "another CPU"}})
    elif content == "bad choice":
        content = json.dumps({**good, "choice": "quick"})
    elif content == "another dtype":
        content = json.dumps({**good, "dtype": "float32"})
    elif content == "older format":
        content = json.dumps({**good, "format": 1, "choice": {"float64": "numpy"}})
    path.write_text(content)
    assert choice.sort_method(np.dtype(np.float64), LARGE) == "radix"
    assert fake.runs == 1
    record = json.loads(path.read_text())
    assert record["key"] == choice.calibration_key()
    assert (record["dtype"], record["choice"]) == ("float64", "radix")


def test_an_unwritable_location_calibrates_once_per_process(
    monkeypatch: pytest.MonkeyPatch, fake: FakeCalibration, tmp_path: Path
) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setattr(choice, "kernel_cache_directory", lambda: blocker / "cache")
    assert choice.sort_method(np.dtype(np.float64), LARGE) == "radix"
    assert choice.sort_method(np.dtype(np.float64), LARGE) == "radix"
    assert fake.runs == 1
    assert list(tmp_path.iterdir()) == [blocker]  # nothing written, no temporary left
    choice.forget_calibration()  # a new process measures again
    choice.sort_method(np.dtype(np.float64), LARGE)
    assert fake.runs == 2


def test_no_kernel_cache_calibrates_once_per_process(
    monkeypatch: pytest.MonkeyPatch, fake: FakeCalibration
) -> None:
    monkeypatch.setattr(choice, "kernel_cache_directory", lambda: None)
    for _ in range(2):
        choice.sort_method(np.dtype(np.float64), LARGE)
        choice.sort_method(np.dtype(np.float32), LARGE)
    assert fake.dtypes == ["float64", "float32"]


# -- the real calibration and its location -------------------------------------------


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_calibration_times_both_sorts_of_its_dtype(dtype: str) -> None:
    record = choice.calibrate(dtype, sample_size=4096, repeats=2)
    assert record["dtype"] == dtype
    times = record["seconds"]
    assert 0.0 < times["numpy"] < float("inf")
    assert 0.0 < times["radix"] < float("inf")
    faster = times["radix"] < choice.RADIX_MARGIN * times["numpy"]
    assert record["choice"] == ("radix" if faster else "numpy")


def test_the_calibration_warms_up_the_path_it_times(monkeypatch: pytest.MonkeyPatch) -> None:
    """The untimed first radix sort is large enough to take the bucket pass, so a timed
    sort never includes its compilation (one repeat would then time it).  int64 words
    are sorted by the float radix sort (their bits are those of non-negative floats)."""
    sizes: list[int] = []
    original = sorting.radix_sort_floats

    def spy(values: np.ndarray) -> np.ndarray:
        sizes.append(values.shape[0])
        return original(values)

    monkeypatch.setattr(sorting, "radix_sort_floats", spy)
    choice.calibrate("int64", sample_size=2 * sorting.MSD_THRESHOLD, repeats=1)
    assert sizes[0] >= sorting.MSD_THRESHOLD
    assert sizes[1:] == [2 * sorting.MSD_THRESHOLD]


@pytest.mark.skipif(not _jit.CACHE or jit_is_disabled(), reason="Numba caches no kernel here")
def test_the_cache_file_lies_beside_the_sorting_kernels() -> None:
    sorting.radix_sort_floats(np.array([2.0, 1.0]))  # compiled and cached by now
    directory = choice.kernel_cache_directory()
    assert directory is not None
    assert list(directory.glob("sorting.sort_float_bits-*.nbi"))


def test_the_key_names_the_cpu_and_the_versions() -> None:
    key = choice.calibration_key()
    assert key["numpy"] == np.__version__
    assert key["assay"] == assay.__version__
    assert key["cpu"]  # model and flags, never empty
    name = choice.calibration_file(Path("x"), key, "float32").name
    assert name.startswith("assay-sort-choice-float32-")


# -- sorting in place ------------------------------------------------------------------


@pytest.mark.parametrize("method", choice.METHODS)
@pytest.mark.parametrize("n", [0, 1, 7, 5000, sorting.MSD_THRESHOLD + 3])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_both_sorts_give_np_sorts_values(method: str, n: int, dtype: str) -> None:
    generator = np.random.default_rng(n)
    if dtype == "int64":  # non-negative words over 63 bits, with repeats
        values = generator.integers(0, np.iinfo(np.int64).max, size=n, dtype=np.int64)
        values[::3] = values[0] if n else 0
    else:
        values = generator.choice([-1.5, 0.0, 2.0], size=n).astype(dtype)
        values[::2] = generator.normal(size=values[::2].shape[0])
    expected = np.sort(values)
    sorted_values = values.copy()
    choice.sort_in_place(sorted_values, method)
    np.testing.assert_array_equal(sorted_values, expected)


@pytest.mark.parametrize("method", choice.METHODS)
def test_negative_int64_values_are_refused_by_both_sorts(method: str) -> None:
    values = np.array([3, -1, 2], dtype=np.int64)
    with pytest.raises(ValueError, match="non-negative int64 values only"):
        choice.sort_in_place(values, method)
    np.testing.assert_array_equal(values, [3, -1, 2])  # left as it was
