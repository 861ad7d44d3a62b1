"""Small array helpers shared by kernels.

:func:`copy_into` replaces the slice assignment ``target[:] = source`` between arrays
inside kernels.  Numba compiles such an assignment with a shape check whose error
message is formatted at run time, which pulls its string machinery (``str`` of
integers, concatenation, ``repr``) into the calling kernel: about two seconds of
compilation the first time in a process, and more LLVM work in every kernel that
links it.  A plain loop compiles in a fraction of that and runs as fast.
"""

from __future__ import annotations

from assay._kernels._jit import jit


@jit
def copy_into(target, source):
    """Copy ``source`` into ``target[:len(source)]`` (the caller ensures it fits)."""
    for i in range(source.shape[0]):
        target[i] = source[i]
