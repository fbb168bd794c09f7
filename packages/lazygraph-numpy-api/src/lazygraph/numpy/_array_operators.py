"""The operators of :class:`~lazygraph.numpy.Array`: arithmetic, comparison
and bitwise operators, and their in-place forms (which rebind the array, or
write through the views it shares a buffer with; see ``docs/drop-in.md``).

Each operator is the namespace function of numpy's ufunc for it (``a + b`` is
``add(a, b)``); known small operands of a kind the elementwise lane has decided
take numpy's ufunc at once (``_fastlane.call``). Operands that are not
array-like give ``NotImplemented``, so Python tries the other operand.

>>> import numpy as np
>>> import lazygraph.numpy as lnp
>>> a = lnp.asarray(np.array([1.0, 2.0]))
>>> (a * 2 + 1).compute(), (a ** 2).compute(), (a > 1).compute()
(array([3., 5.]), array([1., 4.]), array([False,  True]))
"""

from __future__ import annotations

from typing import Any

import numpy as np
from lazygraph.configuration import config
from lazygraph.numpy import _views
from lazygraph.numpy._eager import inplace_owned
from lazygraph.numpy._printing import is_scalar_result
from lazygraph.tensor.variable import TensorVariable

__all__ = ["ArrayOperators"]


def _ns() -> Any:
    # The namespace imports this module; import it at call time.
    import lazygraph.numpy as lnp

    return lnp


def _elementwise() -> Any:
    from lazygraph.numpy import _elementwise

    return _elementwise


def _elementwise_unary() -> Any:
    from lazygraph.numpy import _elementwise_unary

    return _elementwise_unary


def _elementwise_complex() -> Any:
    from lazygraph.numpy import _elementwise_complex

    return _elementwise_complex


_ELEMENTWISE_MODULE: Any = None
_OPERATOR_UFUNCS: dict[str, Any] = {}
_FASTLANE_CALL: Any = None
_UNDECIDED: Any = None


def _binary(name: str, x1: Any, x2: Any) -> Any:
    """``_elementwise.<name>(x1, x2)``, or ``NotImplemented`` for operands that are
    not array-like (so that Python tries the other operand, then raises TypeError).
    Known small operands of a kind the elementwise lane has decided take numpy's
    ufunc at once (``_fastlane.call``: the lane's own answer, without the
    namespace function's layers)."""
    if type(x2) not in _PLAIN_OPERANDS and not _is_operand(x2, True):
        return _foreign_operator(name, x1, x2, x2)
    if type(x1) not in _PLAIN_OPERANDS and not _is_operand(x1, True):
        return _foreign_operator(name, x1, x2, x1)
    if _ELEMENTWISE_MODULE is None:
        _import_operators()
    fn = _OPERATOR_UFUNCS.get(name)
    if fn is not None and config.eager_max_elements > 0:
        got = _FASTLANE_CALL(fn, (x1, x2))
        if got is not None and got is not _UNDECIDED:
            return got
    return getattr(_ELEMENTWISE_MODULE, name)(x1, x2)


#: operator names that are not numpy's ufunc names
_NUMPY_UFUNC_NAMES = {
    "pow": "power",
    "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift",
}


def _foreign_operator(name: str, x1: Any, x2: Any, other: Any) -> Any:
    """An operator with ``other``, an operand of another array type: numpy's
    ufunc, which hands it to that type (``ndarray + series`` is pandas'), when
    the type overrides ``__array_ufunc__`` (see _foreign); ``NotImplemented``
    otherwise, so that Python asks ``other`` (an ``__array_ufunc__ = None`` type
    asks for that)."""
    from lazygraph.numpy._foreign import is_foreign, numpy_call

    if not is_foreign(other):
        return NotImplemented
    return numpy_call(getattr(np, _NUMPY_UFUNC_NAMES.get(name, name)), x1, x2)


def _import_operators() -> None:
    global _ELEMENTWISE_MODULE, _FASTLANE_CALL, _UNDECIDED
    from lazygraph.numpy import _fastlane

    module = _elementwise()
    _OPERATOR_UFUNCS.update(module.OPERATOR_UFUNCS)
    _FASTLANE_CALL, _UNDECIDED = _fastlane.call, _fastlane.UNDECIDED
    _ELEMENTWISE_MODULE = module


def _fast_power(base: Any, exponent: Any) -> str | None:
    """The unary function numpy's ``**`` uses for a float or complex array to the
    power of a Python ``int`` -1 or 2 or a Python ``float`` 0.5 (numpy 2's
    ``fast_scalar_power``; exact types: ``True``, ``2.0`` and ``np.int64(2)`` take
    ``power``). For complex arrays it matters: ``square`` rounds as ``multiply``
    does, where ``power``'s ``z**2`` multiplies its own way."""
    if base.dtype.kind not in "fc":
        return None
    if type(exponent) is int:
        return {-1: "reciprocal", 2: "square"}.get(exponent)
    if type(exponent) is float and exponent == 0.5:
        return "sqrt"
    return None


#: the operand classes every operator takes (``_array`` adds ``Array``)
_PLAIN_OPERANDS: set[type] = {bool, int, float, complex}
#: exact operand types read as arrays at once (lazygraph.numpy._array adds Array)
OWN_OPERANDS: set[type] = {np.ndarray, list, tuple}


def _is_operand(x: Any, ours: bool = False) -> bool:
    """Whether ``x`` is an operand the operators read as an array; with
    ``ours``, not one of another array type's (a masked array, a matrix: see
    _foreign), which numpy's ufunc hands to that type."""
    if type(x) in OWN_OPERANDS:
        return True
    if isinstance(x, np.ndarray) and ours and type(x) is not np.memmap:
        from lazygraph.numpy._foreign import is_foreign

        return not is_foreign(x)
    if isinstance(x, (np.ndarray, np.generic, bool, int, float, complex, list, tuple)):
        return True
    if hasattr(x, "__lazygraph_variable__") or isinstance(x, TensorVariable):
        return True
    from lazygraph.numpy._distributed import is_dask_array

    return is_dask_array(x)  # (bound by as_variable: see _distributed)


class ArrayOperators:
    """The operators of :class:`~lazygraph.numpy.Array` (a mixin: the array's
    ``_in_own``, ``_assign`` and ``dtype`` come from the class itself)."""

    __slots__ = ()

    def __add__(self, other: Any) -> Any:
        return _binary("add", self, other)

    def __radd__(self, other: Any) -> Any:
        return _binary("add", other, self)

    def __sub__(self, other: Any) -> Any:
        return _binary("subtract", self, other)

    def __rsub__(self, other: Any) -> Any:
        return _binary("subtract", other, self)

    def __mul__(self, other: Any) -> Any:
        return _binary("multiply", self, other)

    def __rmul__(self, other: Any) -> Any:
        return _binary("multiply", other, self)

    def __truediv__(self, other: Any) -> Any:
        return _binary("divide", self, other)

    def __rtruediv__(self, other: Any) -> Any:
        return _binary("divide", other, self)

    def __floordiv__(self, other: Any) -> Any:
        return _binary("floor_divide", self, other)

    def __rfloordiv__(self, other: Any) -> Any:
        return _binary("floor_divide", other, self)

    def __mod__(self, other: Any) -> Any:
        return _binary("remainder", self, other)

    def __rmod__(self, other: Any) -> Any:
        return _binary("remainder", other, self)

    def __divmod__(self, other: Any) -> Any:
        if not _is_operand(other):
            return NotImplemented
        return (self // other, self % other)

    def __rdivmod__(self, other: Any) -> Any:
        if not _is_operand(other):
            return NotImplemented
        return (other // self, other % self)

    def __pow__(self, other: Any, mod: Any = None) -> Any:
        if mod is not None:
            return NotImplemented
        fast = _fast_power(self, other)
        if fast is not None:
            return getattr(_elementwise_unary(), fast)(self)
        return _binary("pow", self, other)

    def __rpow__(self, other: Any, mod: Any = None) -> Any:
        if mod is not None:
            return NotImplemented
        return _binary("pow", other, self)

    def __matmul__(self, other: Any) -> Any:
        if not _is_operand(other):
            return NotImplemented
        return _ns().matmul(self, other)  # the public function: its replay lane

    def __rmatmul__(self, other: Any) -> Any:
        if not _is_operand(other):
            return NotImplemented
        return _ns().matmul(other, self)

    def __and__(self, other: Any) -> Any:
        return _binary("bitwise_and", self, other)

    def __rand__(self, other: Any) -> Any:
        return _binary("bitwise_and", other, self)

    def __or__(self, other: Any) -> Any:
        return _binary("bitwise_or", self, other)

    def __ror__(self, other: Any) -> Any:
        return _binary("bitwise_or", other, self)

    def __xor__(self, other: Any) -> Any:
        return _binary("bitwise_xor", self, other)

    def __rxor__(self, other: Any) -> Any:
        return _binary("bitwise_xor", other, self)

    def __lshift__(self, other: Any) -> Any:
        return _binary("bitwise_left_shift", self, other)

    def __rlshift__(self, other: Any) -> Any:
        return _binary("bitwise_left_shift", other, self)

    def __rshift__(self, other: Any) -> Any:
        return _binary("bitwise_right_shift", self, other)

    def __rrshift__(self, other: Any) -> Any:
        return _binary("bitwise_right_shift", other, self)

    def __neg__(self) -> Any:
        return _elementwise_unary().negative(self)  # type: ignore[no-any-return]

    def __pos__(self) -> Any:
        return _elementwise_unary().positive(self)  # type: ignore[no-any-return]

    def __abs__(self) -> Any:
        return _elementwise_unary().abs(self)  # type: ignore[no-any-return]

    def __invert__(self) -> Any:
        return _elementwise_unary().bitwise_invert(self)  # type: ignore[no-any-return]

    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        return _binary("equal", self, other)

    def __ne__(self, other: Any) -> Any:  # type: ignore[override]
        return _binary("not_equal", self, other)

    def __lt__(self, other: Any) -> Any:
        return _binary("less", self, other)

    def __le__(self, other: Any) -> Any:
        return _binary("less_equal", self, other)

    def __gt__(self, other: Any) -> Any:
        return _binary("greater", self, other)

    def __ge__(self, other: Any) -> Any:
        return _binary("greater_equal", self, other)

    __hash__ = None  # type: ignore[assignment]  (mutable and compared elementwise, as ndarray)

    # -- in-place operators: rebind (and write through views) -----------------------

    def _inplace(self, name: str, ufunc_name: str, other: Any) -> Any:
        if not _is_operand(other):
            return NotImplemented
        if self._in_own and inplace_owned(self, name, ufunc_name, other):
            return self  # written into the base's own buffer
        if is_scalar_result(self):
            # A computed 0-d result is numpy's immutable scalar: ``s += x``
            # rebinds ``s`` (to a broadcast result, if ``x`` is larger) and
            # leaves every other name for the old value alone.
            return self._operate(name, other)
        try:
            result = self._operate(name, other)
        except (ValueError, ArithmeticError) as exc:
            # numpy checks the output's casting before it computes: a bool
            # ``a **= int8(-1)`` is its TypeError, not the negative power's error,
            # and an int ``a += floats`` of another shape its TypeError, not the
            # broadcasting ValueError
            _views.check_output_cast(self.dtype, ufunc_name, other)
            from lazygraph.configuration import config

            with config.change(eager_max_elements=0):
                recorded = self._operate(name, other)
            _views.inplace_result(self, recorded, ufunc_name, other)
            raise exc from None
        self._assign(_views.inplace_result(self, result, ufunc_name, other))
        return self

    def _operate(self, name: str, other: Any) -> Any:
        if name == "matmul":
            from lazygraph.numpy._linear_algebra import matmul

            return matmul(self, other)
        return getattr(_elementwise(), name)(self, other)

    def __iadd__(self, other: Any) -> Any:
        return self._inplace("add", "add", other)

    def __isub__(self, other: Any) -> Any:
        return self._inplace("subtract", "subtract", other)

    def __imul__(self, other: Any) -> Any:
        return self._inplace("multiply", "multiply", other)

    def __itruediv__(self, other: Any) -> Any:
        return self._inplace("divide", "divide", other)

    def __ifloordiv__(self, other: Any) -> Any:
        return self._inplace("floor_divide", "floor_divide", other)

    def __imod__(self, other: Any) -> Any:
        return self._inplace("remainder", "remainder", other)

    def __ipow__(self, other: Any) -> Any:
        fast = _fast_power(self, other)
        if fast is not None:  # numpy's in-place ** takes the same unary fast path
            result = getattr(_elementwise_unary(), fast)(self)
            self._assign(_views.inplace_result(self, result, fast))
            return self
        return self._inplace("pow", "power", other)

    def __imatmul__(self, other: Any) -> Any:
        return self._inplace("matmul", "matmul", other)

    def __iand__(self, other: Any) -> Any:
        return self._inplace("bitwise_and", "bitwise_and", other)

    def __ior__(self, other: Any) -> Any:
        return self._inplace("bitwise_or", "bitwise_or", other)

    def __ixor__(self, other: Any) -> Any:
        return self._inplace("bitwise_xor", "bitwise_xor", other)

    def __ilshift__(self, other: Any) -> Any:
        return self._inplace("bitwise_left_shift", "left_shift", other)

    def __irshift__(self, other: Any) -> Any:
        return self._inplace("bitwise_right_shift", "right_shift", other)
