"""Kernels passed to other kernels as values, compiled only when a kernel needs them.

A kernel that takes a function as an argument of Numba's first-class function type is
compiled for the function's signature alone, not for the function: every value of that
signature runs through the one compiled caller, which calls it through its address (never
inlined: for functions that are called rarely, or that take long).  Such a value is
compiled (or loaded from the cache) when it is passed to a kernel, not before, so a caller
given :class:`Absent` instead, where its data never reach the call, never waits for the
function to compile.
"""

from __future__ import annotations

from typing import Any

import numba.experimental.function_type  # noqa: F401  (registers the type of such values)
from llvmlite import ir
from numba.core import cgutils, types
from numba.core.types.function_type import WrapperAddressProtocol
from numba.extending import intrinsic

_NO_ADDRESS = -1  # Numba's address of a first-class function that has no implementation


class CompiledOnUse(WrapperAddressProtocol):
    """``function`` (a :func:`~assay._kernels._jit.jit` kernel) as a value of its one
    Numba ``signature``, compiled the first time it is passed to a kernel.  The caller's
    arguments must match the signature exactly (no implicit casts)."""

    def __init__(self, function: Any, signature: Any) -> None:
        self.function = function
        self._signature = signature
        self._address = 0

    def signature(self) -> Any:
        return self._signature

    def __wrapper_address__(self) -> int:
        if not self._address:  # concurrent first uses compile under Numba's lock
            result = self.function.get_compile_result(self._signature)
            name = result.fndesc.llvm_cfunc_wrapper_name
            self._address = int(result.library.get_pointer_to_function(name))
        return self._address

    def __call__(self, *args: Any) -> Any:  # from Python (with the JIT disabled)
        return self.function(*args)


class Absent(WrapperAddressProtocol):
    """No function, as a value of ``signature``: for a caller whose data never reach the
    call.  Nothing is compiled for it; a kernel checks :func:`is_given` before calling a
    value that may be absent, and raises instead of calling it."""

    def __init__(self, signature: Any) -> None:
        self._signature = signature

    def signature(self) -> Any:
        return self._signature

    def __wrapper_address__(self) -> int:
        return _NO_ADDRESS

    def __call__(self, *args: Any) -> Any:
        raise RuntimeError("called a function that was not given (a bug in assay)")


@intrinsic
def is_given(typingctx: Any, function: Any) -> Any:
    """Whether a first-class function value is a function (not :class:`Absent`)."""
    if not isinstance(function, types.FunctionType):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        value = cgutils.create_struct_proxy(function.get_precise())(
            context, builder, value=args[0]
        )
        address = builder.ptrtoint(value.c_addr, ir.IntType(64))
        absent = ir.Constant(ir.IntType(64), _NO_ADDRESS & (2**64 - 1))
        return builder.icmp_unsigned("!=", address, absent)

    return types.boolean(function), codegen
