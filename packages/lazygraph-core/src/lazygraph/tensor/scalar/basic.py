"""The machinery of scalar ops: dtype categories, output-dtype rules, the
:class:`ScalarRow` record, the row registry and the :class:`ScalarOp` class that
one row (plus its parameters) turns into.

A scalar op is what ``Elemwise`` broadcasts. It is also an :class:`Op` over
0-d :class:`ScalarType` variables, so a scalar subgraph can be built and packed
into a :class:`~lazygraph.tensor.scalar.composite.Composite` (fusion).

>>> from lazygraph.tensor.scalar.basic import ScalarOp
>>> op = ScalarOp("exp")
>>> op.output_dtypes(["int8"]), op.output_dtypes(["float32"])
(['float32'], ['float32'])
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from lazygraph.graph.basic import Apply, Constant, Op, Type, Variable
from lazygraph.tensor.dtypes import is_weak_scalar, upcast_to_float
from lazygraph.tensor.fperrors import call_quietly
from lazygraph.tensor.type import (
    ALL_DTYPES,
    COMPLEX_DTYPES,
    FLOAT_DTYPES,
    INT_DTYPES,
    UINT_DTYPES,
    normalize_dtype,
)

__all__ = [
    "CATEGORIES",
    "ROWS",
    "ScalarConstant",
    "ScalarOp",
    "ScalarRow",
    "ScalarType",
    "ScalarVariable",
    "register_row",
    "scalar_op",
]

# -- dtype categories: which (promoted) input dtypes a row accepts -------------

CATEGORIES: dict[str, tuple[str, ...]] = {
    "all": ALL_DTYPES,
    # bool has no negative, subtract or sign in numpy
    "numeric": INT_DTYPES + UINT_DTYPES + FLOAT_DTYPES + COMPLEX_DTYPES,
    # ordered types: no complex (floor, remainder, atan2, copysign, ...)
    "real": ("bool", *INT_DTYPES, *UINT_DTYPES, *FLOAT_DTYPES),
    "integer_or_bool": ("bool", *INT_DTYPES, *UINT_DTYPES),
    # integers, not bool (gcd, lcm)
    "integer": (*INT_DTYPES, *UINT_DTYPES),
    # what converts safely to int64: ldexp's exponent
    "int64_safe": ("bool", *INT_DTYPES, "uint8", "uint16", "uint32"),
}

_CATEGORY_WORDS = {
    "all": "any dtype",
    "numeric": "numeric dtypes other than bool",
    "real": "real (non-complex) dtypes",
    "integer_or_bool": "integer and boolean dtypes",
    "integer": "integer dtypes",
    "int64_safe": "integer dtypes that convert to int64 safely",
}


# -- output dtype rules: (dtypes of the promoted inputs, params) -> output dtype --


#: dtype name -> numpy dtype (``dtype.name`` and ``np.dtype(name)`` cost
#: microseconds; impl compares a result's dtype on every call).
_NUMPY_DTYPES = {name: np.dtype(name) for name in ALL_DTYPES}

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1

#: The dtypes a Python float can overflow (to inf, with a RuntimeWarning).
_NARROW_INEXACT = frozenset({"float16", "float32", "complex64"})


def _promote(dtypes: Sequence[str]) -> str:
    return np.result_type(*dtypes).name


def out_same(dtypes: Sequence[str], params: tuple[Any, ...] = ()) -> str:
    """The promoted input dtype (``add``, ``maximum``, ``abs`` of reals...)."""
    return _promote(dtypes)


def out_same_bool_int8(dtypes: Sequence[str], params: tuple[Any, ...] = ()) -> str:
    """The promoted dtype, but int8 for bool (numpy has no bool loop: ``square``,
    ``power``, ``floor_divide``, shifts...)."""
    dtype = _promote(dtypes)
    return "int8" if dtype == "bool" else dtype


def out_bool(dtypes: Sequence[str], params: tuple[Any, ...] = ()) -> str:
    """Always bool (comparisons, predicates, logical functions)."""
    return "bool"


def out_float(dtypes: Sequence[str], params: tuple[Any, ...] = ()) -> str:
    """The smallest float (or complex) every input converts to safely, as numpy's
    loop search finds it (int8 with uint16 gives float32, not float64), with
    float32 where numpy says float16 (see
    :func:`~lazygraph.tensor.dtypes.upcast_to_float`)."""
    return _promote([upcast_to_float(d) for d in dtypes])


def out_true_divide(dtypes: Sequence[str], params: tuple[Any, ...] = ()) -> str:
    """``divide``: every integer and bool input gives float64, as in numpy."""
    dtype = _promote(dtypes)
    return "float64" if np.dtype(dtype).kind in "biu" else dtype


def out_real(dtypes: Sequence[str], params: tuple[Any, ...] = ()) -> str:
    """The real dtype of a complex one (``abs``, ``real``, ``imag``); reals stay."""
    dtype = _promote(dtypes)
    return {"complex64": "float32", "complex128": "float64"}.get(dtype, dtype)


def out_round(dtypes: Sequence[str], params: tuple[Any, ...] = ()) -> str:
    """``round``: numpy rounds bool in float16 (we use float32, see ``out_float``),
    and only to 0 decimals."""
    dtype = _promote(dtypes)
    if dtype != "bool":
        return dtype
    if params and params[0] != 0:
        raise TypeError(f"round: bool input can only be rounded to 0 decimals, not {params[0]}")
    return "float32"


def out_param_dtype(dtypes: Sequence[str], params: tuple[Any, ...] = ()) -> str:
    """``cast``: the dtype named by the op's parameter."""
    return str(params[0])


OutRule = Callable[[Sequence[str], tuple[Any, ...]], str]
GradRule = Callable[..., Any]


@dataclass(frozen=True)
class ScalarRow:
    """One elementwise function: everything lazygraph and the backends need to
    know about it, in one place.

    - ``name``: the array API / numpy name (the ScalarOp's identity).
    - ``nin``: number of inputs.
    - ``accepts``: key of :data:`CATEGORIES` that the promoted input dtype must be in.
    - ``out``: the output dtype rule, from the dtypes of the promoted inputs and the
      params.
    - ``fn``: the numpy function for ``perform``; called as ``fn(*arrays, *params)``.
    - ``grad``: ``grad(*inputs, out, gz)`` returns one graph expression per input
      (``None`` for a zero gradient), in the output's (broadcast) shape; ``Elemwise``
      reduces them to each input's shape. ``None`` here: no gradient anywhere
      (discrete results). Never called for integer inputs.
    - ``promote``: indices of the inputs whose dtypes are promoted together to get
      the dtype the rule and the category see (``where``: only ``x`` and ``y``).
    - ``cast_inputs``: cast integer/bool inputs to the output dtype before calling
      ``fn``, so numpy computes in float32 where it would use float16.
    - ``weak``: how a Python-scalar operand is converted to the promoted dtype:
      ``"raise"`` (numpy's OverflowError when it does not fit), ``"wrap"`` (numpy's
      ``where`` casts unsafely), ``"clip"`` (numpy's ``clip`` clamps to the dtype's
      range), ``"compare"`` (numpy 2 compares out-of-range ints exactly),
      ``"truth"`` (the logical functions read a Python scalar as a C long, a
      double or a complex, and only its truth matters: a bool).
    - ``numpy_name``: the name of the numpy function, for backends and docs.
    - ``others``: key of :data:`CATEGORIES` that each input outside ``promote``
      must be in (``ldexp``'s exponent: integers); a Python scalar there keeps
      its own default dtype.
    - ``simd``: numpy computes it with vectorised (SIMD) loops of its own, where
      a compiled scalar loop calls the C library once per element (``exp``,
      ``sin``...): a backend may then prefer numpy's loop on large arrays.
    - ``jvp``: ``jvp(*inputs, out, tangent)``, the forward derivative for complex
      inputs where ``grad`` with ``gz = tangent`` is not it: a complex-valued
      function that is not holomorphic (``sign``; ``conj`` is its own). ``None``:
      ``grad`` serves (holomorphic functions, real-valued ones).
    """

    name: str
    nin: int
    accepts: str
    out: OutRule
    fn: Callable[..., Any]
    grad: GradRule | None
    promote: tuple[int, ...] | None = None
    cast_inputs: bool = False
    weak: str = "raise"
    numpy_name: str | None = None
    others: str = "all"
    simd: bool = False
    jvp: GradRule | None = None

    def promoted_inputs(self) -> tuple[int, ...]:
        return tuple(range(self.nin)) if self.promote is None else self.promote


#: name -> row; filled by :mod:`lazygraph.tensor.scalar.table`.
ROWS: dict[str, ScalarRow] = {}


def register_row(row: ScalarRow) -> ScalarRow:
    """Add ``row`` to :data:`ROWS` (a second row of the same name is a bug)."""
    if row.name in ROWS:
        raise ValueError(f"scalar op {row.name!r} is already registered")
    for category in (row.accepts, row.others):
        if category not in CATEGORIES:
            raise ValueError(f"scalar op {row.name!r}: unknown dtype category {category!r}")
    ROWS[row.name] = row
    return row


# -- the scalar type (inner graphs of Composite) -------------------------------


class ScalarType(Type):
    """A 0-d value of ``dtype``: the type of the variables of scalar subgraphs."""

    __props__: ClassVar[tuple[str, ...]] = ("dtype",)

    def __init__(self, dtype: Any) -> None:
        self.dtype = normalize_dtype(dtype)

    def filter(self, data: Any, strict: bool = False, allow_downcast: bool | None = None) -> Any:
        arr = np.asarray(data)
        if arr.ndim != 0:
            raise TypeError(f"a scalar of {self.dtype} must be 0-d, got shape {arr.shape}")
        if arr.dtype.name != self.dtype:
            if strict:
                raise TypeError(f"expected a {self.dtype} scalar, got {arr.dtype}")
            arr = np.asarray(data, dtype=self.dtype)
        return arr

    def constant_key(self, data: Any) -> Any:
        arr = np.asarray(data)
        return (arr.dtype.str, arr.tobytes())

    def __str__(self) -> str:
        return f"ScalarType({self.dtype})"


class ScalarVariable(Variable):
    """A variable of a :class:`ScalarType`."""

    __slots__ = ()

    @property
    def dtype(self) -> str:
        return self.type.dtype  # type: ignore[attr-defined,no-any-return]


class ScalarConstant(ScalarVariable, Constant):
    """A constant of a :class:`ScalarType`."""

    __slots__ = ()


ScalarType.variable_type = ScalarVariable
ScalarType.constant_type = ScalarConstant


def as_scalar(x: Any, dtype: str | None = None) -> ScalarVariable:
    """``x`` as a scalar variable: scalar variables pass, numbers become constants."""
    if isinstance(x, Variable):
        if not isinstance(x.type, ScalarType):
            raise TypeError(f"expected a scalar variable, got {x} of type {x.type}")
        return x  # type: ignore[return-value]
    data = np.asarray(x, dtype=dtype)
    return ScalarType(data.dtype.name).make_constant(data)  # type: ignore[return-value]


# -- the op -------------------------------------------------------------------


class ScalarOp(Op):
    """The elementwise function of table row ``name``, with ``params`` (e.g. the
    target dtype of ``cast``, the ``decimals`` of ``round``).

    Equal names and params make equal ops. ``impl`` evaluates it on whole arrays
    (the numpy reference); ``make_node`` applies it to scalar variables.
    """

    __props__: ClassVar[tuple[str, ...]] = ("name", "params")
    nout = 1

    def __init__(self, name: str, params: tuple[Any, ...] = ()) -> None:
        if name not in ROWS:
            raise ValueError(f"no scalar op named {name!r}")
        self.name = name
        self.params = tuple(params)
        self.row = ROWS[name]
        self.nin = self.row.nin

    def __reduce__(self) -> tuple[Any, ...]:
        # the row holds lambdas: pickle the op by name, look the row up again
        return (ScalarOp, (self.name, self.params))

    def __str__(self) -> str:
        if self.params:
            return f"{self.name}{{{', '.join(map(str, self.params))}}}"
        return self.name

    # -- types ----------------------------------------------------------------

    def output_dtypes(self, input_dtypes: Sequence[str]) -> list[str]:
        """The output dtype for these input dtypes, or ``TypeError`` (numpy's type
        for a ufunc with no loop) when the row does not accept them."""
        if len(input_dtypes) != self.nin:
            raise TypeError(f"{self.name} takes {self.nin} inputs, got {len(input_dtypes)}")
        group = [input_dtypes[i] for i in self.row.promoted_inputs()]
        if _promote(group) not in CATEGORIES[self.row.accepts]:
            raise TypeError(
                f"{self.name}: not supported for input dtypes ({', '.join(input_dtypes)}); "
                f"it accepts {_CATEGORY_WORDS[self.row.accepts]}"
            )
        if self.row.promote is not None:
            allowed = CATEGORIES[self.row.others]
            for i, dtype in enumerate(input_dtypes):
                if i not in self.row.promote and dtype not in allowed:
                    raise TypeError(
                        f"{self.name}: not supported for input dtypes ({', '.join(input_dtypes)});"
                        f" its input {i} accepts {_CATEGORY_WORDS[self.row.others]}"
                    )
        return [self.row.out(group, self.params)]

    def weak_dtype(
        self, strong_dtypes: Sequence[Any], value: Any, bool_beside: bool = False
    ) -> str:
        """The dtype a Python scalar operand takes beside operands of
        ``strong_dtypes`` (its promotion group): the promoted dtype, or for a
        function numpy computes only in floats, the float it computes in (numpy
        converts the scalar to the loop's dtype: ``int8_x / 200`` is fine).
        ``bool_beside``: an operand outside the promotion group is boolean."""
        if self.row.weak == "truth":
            return "bool"
        dtype = np.result_type(*strong_dtypes, value).name
        float_loop = self.row.cast_inputs or self.row.out is out_true_divide
        if float_loop and not strong_dtypes and self.row.promote is not None:
            # alone in its group beside strong operands (ldexp(0, e)): numpy's
            # first loop that takes it, float16 for an int (float32 here); but
            # no float16 loop takes a bool exponent, and numpy then promotes
            if isinstance(value, float) or (not isinstance(value, bool) and bool_beside):
                return "float64"
            return "float32"
        if float_loop and np.dtype(dtype).kind in "biu":
            dtype = self.row.out([dtype], self.params)
        return dtype

    def convert_weak(self, value: Any, dtype: str, strong_dtypes: Sequence[Any] = ()) -> np.ndarray:
        """A Python scalar operand as a 0-d array of the promoted ``dtype``, following
        numpy's rule for this function (see :attr:`ScalarRow.weak`)."""
        policy = self.row.weak
        if policy == "truth":
            if isinstance(value, int) and not _INT64_MIN <= value <= _INT64_MAX:
                raise OverflowError("Python int too large to convert to C long")
            return np.asarray(bool(value))
        if policy == "wrap" and isinstance(value, int) and np.dtype(dtype).kind in "iub":
            return np.asarray(value).astype(dtype)
        # numpy's clip clamps a Python int bound to the range of an integer array
        # (not of bool arrays, whose int bounds promote to int64 first)
        in_range_of_array = np.dtype(dtype).kind in "iu" and any(
            np.dtype(d).name == dtype for d in strong_dtypes
        )
        if policy == "clip" and isinstance(value, int) and in_range_of_array:
            info = np.iinfo(dtype)
            return np.asarray(min(max(value, int(info.min)), int(info.max)), dtype=dtype)
        if dtype not in _NARROW_INEXACT:
            return np.asarray(value, dtype=dtype)
        with warnings.catch_warnings():
            # numpy converts a float that overflows float32 to inf, with a warning
            warnings.simplefilter("ignore", RuntimeWarning)
            return np.asarray(value, dtype=dtype)

    # -- evaluation -----------------------------------------------------------

    def plain_ufunc(self, input_dtypes: Sequence[np.dtype[Any]]) -> np.ufunc | None:
        """The numpy ufunc :meth:`impl` calls, when impl on inputs of these dtypes is
        just that call (floating-point errors ignored, the result cast to the output
        dtype where numpy's loop gives another): a ufunc row with one output and
        no parameters, whose inputs need no cast first. None otherwise. The eager
        lanes of lazygraph.numpy call it directly.

        >>> import numpy as np
        >>> from lazygraph.tensor.scalar import scalar_op
        >>> scalar_op("cos").plain_ufunc([np.dtype("float32")])
        <ufunc 'cos'>
        >>> scalar_op("cos").plain_ufunc([np.dtype("int8")]) is None  # computed in float32
        True
        """
        row = self.row
        fn = row.fn
        if not isinstance(fn, np.ufunc) or fn.nout != 1 or self.params:
            return None
        if row.cast_inputs and any(d.kind in "biu" for d in input_dtypes):
            return None
        return fn

    def impl(self, inputs: Sequence[np.ndarray], out_dtypes: Sequence[str]) -> list[np.ndarray]:
        """numpy's result on whole arrays (broadcasting), in exactly ``out_dtypes``."""
        out_dtype = out_dtypes[0]
        if self.row.cast_inputs:
            promoted = self.row.promoted_inputs()
            inputs = [
                x.astype(out_dtype) if x.dtype.kind in "biu" and i in promoted else x
                for i, x in enumerate(map(np.asarray, inputs))
            ]
        result = np.asarray(call_quietly(self.row.fn, *inputs, *self.params))
        target = _NUMPY_DTYPES[out_dtype]
        if result.dtype != target:
            result = result.astype(target)
        return [result]

    # -- as an Op over scalar variables ----------------------------------------

    def make_node(self, *inputs: Any) -> Apply:
        strong = [x for x in inputs if isinstance(x, Variable)]
        if not strong:
            raise TypeError(f"{self.name}: needs at least one scalar variable input")
        dtypes = [x.type.dtype for x in strong]
        converted = []
        for x in inputs:
            if is_weak_scalar(x):
                target = self.weak_dtype(dtypes, x)
                converted.append(as_scalar(self.convert_weak(x, target, dtypes)))
            else:
                converted.append(as_scalar(x))
        out_dtype = self.output_dtypes([x.type.dtype for x in converted])[0]
        return Apply(self, converted, [ScalarType(out_dtype)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        out_dtypes = [o.type.dtype for o in node.outputs]
        for cell, value in zip(output_storage, self.impl(inputs, out_dtypes), strict=True):
            cell[0] = value


def scalar_op(name: str, *params: Any) -> ScalarOp:
    """The :class:`ScalarOp` of row ``name`` with ``params``."""
    return ScalarOp(name, params)
