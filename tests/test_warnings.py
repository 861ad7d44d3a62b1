"""RepeatedWarnings: the same warning from many calls is shown once, with a count."""

from __future__ import annotations

import warnings
from concurrent.futures import ThreadPoolExecutor

import pytest

from assay._warnings import RepeatedWarnings
from assay.exceptions import DegenerateDataWarning, UndefinedMetricWarning


def _warn_if(index: int, every: int) -> int:
    if index % every == 0:
        warnings.warn("tick", UndefinedMetricWarning, stacklevel=2)
    warnings.warn("tock", DegenerateDataWarning, stacklevel=2)
    warnings.warn("tock", DegenerateDataWarning, stacklevel=2)  # twice in one call
    return index


def _protocol(n_calls: int, threads: int) -> list[int]:
    with RepeatedWarnings("splits") as repeated:
        if threads == 1:
            results = [repeated.call(_warn_if, index, 3) for index in range(n_calls)]
        else:
            with ThreadPoolExecutor(threads) as pool:
                results = list(pool.map(lambda i: repeated.call(_warn_if, i, 3), range(n_calls)))
    repeated.emit(stacklevel=2)
    return results


@pytest.mark.parametrize("threads", [1, 3])
def test_each_distinct_warning_once_with_the_number_of_calls_that_raised_it(threads):
    with pytest.warns(Warning) as record:
        results = _protocol(7, threads)
    assert results == list(range(7))
    shown = sorted((type(item.message).__name__, str(item.message)) for item in record)
    # calls 0, 3 and 6 raise "tick"; every call raises "tock", twice, counted once per call
    assert shown == [
        ("DegenerateDataWarning", "tock [in 7 of 7 splits]"),
        ("UndefinedMetricWarning", "tick [in 3 of 7 splits]"),
    ]
    assert all(item.filename == __file__ for item in record)


def test_a_single_call_keeps_the_message_and_filters_apply_after():
    with pytest.warns(Warning) as record:
        _protocol(1, 1)
    assert [str(item.message) for item in record] == ["tick", "tock"]
    # the user's filters apply to what is re-emitted
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        _protocol(4, 1)
    assert [str(item.message) for item in record] == ["tock [in 4 of 4 splits]"]


def test_filters_are_restored_and_an_error_propagates():
    before = list(warnings.filters)
    with pytest.raises(ZeroDivisionError), RepeatedWarnings("splits") as repeated:
        repeated.call(lambda: 1 / 0)
    assert warnings.filters == before
