"""Counter-based random streams: one stream per (seed, resample), any number of threads.

Every function threads a 64-bit state explicitly: a draw takes the state and returns
``(value, new_state)``; :func:`shuffle` returns only the new state.  Nothing is
global, nothing is shared, so a kernel running resamples in ``prange`` starts each
resample ``r`` from ``stream(seed, r)`` and the draws of that resample depend on
``(seed, r)`` alone, never on which thread runs it or in what order: results are
bit-identical for any number of threads (ARCHITECTURE.md, rule 5).

Generator
    SplitMix64 (Steele, Lea & Flood 2014): the state advances by the odd constant
    ``0x9E3779B97F4A7C15`` (a Weyl sequence, period 2**64, every state visited once)
    and each output is the state passed through Stafford's "Mix13" bijection.  It
    passes TestU01's BigCrush (Steele, Lea & Flood 2014, section 5); it is not
    cryptographic.
Streams
    ``stream(seed, index)`` is ``F(F(seed) + (index + 1) K)`` with ``F`` the MurmurHash3
    finaliser (a bijection of 64-bit words, distinct from the output mix) and ``K`` an
    odd constant.  For a fixed seed it is a bijection of the index (distinct resamples
    start from distinct states) and for a fixed index a bijection of the seed; neighbouring
    indices or seeds give unrelated starting points.  All streams are segments of the one
    cycle of 2**64 states starting at effectively random positions: ``B`` streams of
    ``L`` draws each overlap with probability below ``B**2 L / 2**64`` (1e4 resamples of
    1e8 draws: 5e-4; 2000 resamples of 1e6 draws: 2e-7).  An overlap would make two
    resamples share a run of draws at an offset; it cannot repeat a resample.
Integers
    Exactly uniform: rejection removes the bias of reducing 2**32 or 2**64 values to
    ``bound``.  The Poisson, binomial and multinomial samplers on these streams are in
    :mod:`assay._kernels._samplers`.

Inside ``prange`` keep the state in a variable local to the loop body, start it with
:func:`stream`, and never carry it across iterations.  Treat the state as opaque: in
Numba, arithmetic mixing uint64 and int64 gives float64.
"""

from __future__ import annotations

import numpy as np

from assay._kernels._jit import jit

_ONE = np.uint64(1)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_LOW_HALF = np.uint64(0xFFFFFFFF)
_TWO_32 = np.uint64(0x100000000)
_SHIFT_11 = np.uint64(11)
_SHIFT_27 = np.uint64(27)
_SHIFT_30 = np.uint64(30)
_SHIFT_31 = np.uint64(31)
_SHIFT_32 = np.uint64(32)
_SHIFT_33 = np.uint64(33)

_GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)  # SplitMix64's increment
_MIX13_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX13_2 = np.uint64(0x94D049BB133111EB)
_MURMUR_1 = np.uint64(0xFF51AFD7ED558CCD)
_MURMUR_2 = np.uint64(0xC4CEB9FE1A85EC53)
_STREAM_STEP = np.uint64(0xD1342543DE82EF95)  # odd: index -> index * K is a bijection

_UNIT = 2.0**-53  # spacing of the doubles next_double returns


# --- the generator ------------------------------------------------------------------


@jit
def _mix13(z):
    """Stafford's Mix13, SplitMix64's output function (a bijection of 64-bit words)."""
    z = (z ^ (z >> _SHIFT_30)) * _MIX13_1
    z = (z ^ (z >> _SHIFT_27)) * _MIX13_2
    return z ^ (z >> _SHIFT_31)


@jit
def _murmur_mix(z):
    """MurmurHash3's 64-bit finaliser fmix64 (a bijection of 64-bit words)."""
    z = (z ^ (z >> _SHIFT_33)) * _MURMUR_1
    z = (z ^ (z >> _SHIFT_33)) * _MURMUR_2
    return z ^ (z >> _SHIFT_33)


@jit
def stream(seed, index):
    """Initial state of the stream of resample ``index`` under the master ``seed``.

    Parameters
    ----------
    seed, index : int
        Non-negative integers below 2**64 (taken as uint64).

    Returns
    -------
    uint64
        ``F(F(seed) + (index + 1) K)`` with ``F`` MurmurHash3's fmix64 and ``K`` odd:
        a bijection of ``index`` for a fixed ``seed`` and of ``seed`` for a fixed index.
    """
    key = _murmur_mix(np.uint64(seed))
    return _murmur_mix(key + (np.uint64(index) + _ONE) * _STREAM_STEP)


@jit
def next_u64(state):
    """SplitMix64 step: ``(value, new_state)``, value uniform on all 2**64 words.

    Steele, Lea & Flood (2014), "Fast splittable pseudorandom number generators",
    OOPSLA, section 3: ``state += 0x9E3779B97F4A7C15``; the value is Mix13 of the state.
    """
    state = np.uint64(state) + _GOLDEN_GAMMA
    return _mix13(state), state


@jit
def next_double(state):
    """``(u, new_state)`` with ``u`` uniform on the 2**53 multiples of 2**-53 in [0, 1)."""
    value, state = next_u64(state)
    return np.float64(value >> _SHIFT_11) * _UNIT, state


@jit
def _next_positive_double(state):
    """Like :func:`next_double` on (0, 1]: safe to take the logarithm of."""
    value, state = next_u64(state)
    return np.float64((value >> _SHIFT_11) + _ONE) * _UNIT, state


@jit
def next_below(bound, state):
    """``(k, new_state)`` with ``k`` exactly uniform on ``0, ..., bound - 1`` (int64).

    ``1 <= bound < 2**63``.  For ``bound < 2**32``: Lemire's nearly divisionless method
    on the high 32 bits of a draw (Lemire 2019, "Fast random integer generation in an
    interval", ACM Transactions on Modeling and Computer Simulation 29(1)): the 64-bit
    product of two 32-bit numbers cannot overflow, and the one division is only needed
    with probability ``bound / 2**32``.  Larger bounds: ``x mod bound`` after rejecting
    the ``2**64 mod bound`` smallest words (OpenBSD's arc4random_uniform); fewer than
    two draws on average.
    """
    b = np.uint64(bound)
    if b <= _LOW_HALF:
        value, state = next_u64(state)
        product = (value >> _SHIFT_32) * b
        low = product & _LOW_HALF
        if low < b:
            threshold = (_TWO_32 - b) % b
            while low < threshold:
                value, state = next_u64(state)
                product = (value >> _SHIFT_32) * b
                low = product & _LOW_HALF
        return np.int64(product >> _SHIFT_32), state
    threshold = (_ALL - b + _ONE) % b  # 2**64 mod bound
    value, state = next_u64(state)
    while value < threshold:
        value, state = next_u64(state)
    return np.int64(value % b), state


@jit
def shuffle(values, state):
    """Shuffle a 1-d contiguous array in place (Fisher-Yates); returns the new state.

    Durstenfeld's form (Knuth, TAOCP vol. 2, 3.4.2, algorithm P): for i = n-1, ..., 1
    swap ``values[i]`` with ``values[j]``, ``j`` uniform on ``0..i`` from
    :func:`next_below`, so every permutation has probability exactly ``1 / n!``
    (up to the generator).
    """
    state = np.uint64(state)
    for i in range(values.shape[0] - 1, 0, -1):
        j, state = next_below(i + 1, state)
        held = values[i]
        values[i] = values[j]
        values[j] = held
    return state
