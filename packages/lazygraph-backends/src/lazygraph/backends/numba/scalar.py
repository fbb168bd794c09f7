"""Scalar code generation: one table row (``ScalarOp``) or a ``Composite`` as
Python expressions that Numba compiles inside a loop nest.

Each row of :mod:`lazygraph.tensor.scalar.table` gets its expression from the
numpy name it carries: rows whose numpy function Numba supports on scalars
(``np.exp``, ``np.arctan2``...) need no code here; the exceptions (integer
division, shifts, NaN-propagating maximum, casts) call
:mod:`~lazygraph.backends.numba.helpers`. Inputs are converted to the dtype
numpy computes in before the operation, and every result is converted to the
node's output dtype, so wrapping and rounding follow numpy.

>>> from lazygraph.tensor.scalar.basic import scalar_op
>>> scalar_expr(scalar_op("add"), ["a", "b"], ["int8", "int8"], "int8")
'(a + b)'
>>> scalar_expr(scalar_op("exp"), ["a"], ["int8"], "float32")
'np.exp(np.float32(a))'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from lazygraph.backends.numba.complexmath import numpy_fuses
from lazygraph.graph.basic import Constant
from lazygraph.tensor.scalar.basic import ROWS, ScalarOp
from lazygraph.tensor.scalar.composite import Composite

__all__ = ["CodegenUnsupported", "composite_lines", "conv", "literal", "scalar_expr", "to_dtype"]

_LN2 = float(np.log(2.0))

#: an operand that is one value for the whole loop: a 0-d input, read once into
#: ``s<i>`` (see ``elemwise.operand_reads``), or a constant (:func:`literal`)
_SCALAR_OPERAND = re.compile(r"s\d+|np\.\w+\(.*\)")
#: an input of a flat loop (flat.py): ``x<k>[i * b<k>]``, ``b<k> == 0`` where the
#: input broadcasts (one element, read with stride 0 as numpy's loop reads it)
_FLAT_OPERAND = re.compile(r"x(\d+)\[i \* b\1\]")


class CodegenUnsupported(Exception):
    """This scalar op / dtype combination has no Numba lowering (the node then
    runs through its python ``perform``)."""


def _np_name(dtype: str) -> str:
    return "np.bool_" if dtype == "bool" else f"np.{dtype}"


def conv(expr: str, src: str, dst: str) -> str:
    """``expr`` (of dtype ``src``) converted to ``dst`` as numpy's astype would."""
    if src == dst:
        return expr
    s, d = np.dtype(src), np.dtype(dst)
    if d.kind == "b":
        return f"({expr} != 0)"
    if s.kind == "c" and d.kind != "c":
        # numpy drops the imaginary part (with a ComplexWarning)
        return conv(f"({expr}).real", "float64" if s.itemsize == 16 else "float32", dst)
    if s.kind == "f" and d.kind in "iu":
        return _float_to_int(expr, dst)
    return f"{_np_name(dst)}({expr})"


def _float_to_int(expr: str, dst: str) -> str:
    from lazygraph.backends.numba.helpers import numpy_cast_of

    bad = numpy_cast_of(float("nan"), dst)
    bits = np.dtype(dst).itemsize * 8
    signed = np.dtype(dst).kind == "i"
    if dst == "uint64":
        return f"cast_float_uint64({expr}, np.uint64({bad}))"
    if signed and bits == 64:
        lo, hi = -(2.0**63), 2.0**63
    elif signed or bits <= 16:
        lo, hi = -(2.0**31), 2.0**31  # C converts through a 32-bit int
    else:
        lo, hi = -(2.0**63), 2.0**63
    return f"{_np_name(dst)}(cast_float_int({expr}, {lo!r}, {hi!r}, {bad}))"


def literal(value: Any, dtype: str) -> str:
    """A scalar constant as source text of exactly ``dtype``."""
    v = np.asarray(value, dtype=dtype).item()
    if np.dtype(dtype).kind == "c":
        part = "float64" if np.dtype(dtype).itemsize == 16 else "float32"
        return f"{_np_name(dtype)}(complex({literal(v.real, part)}, {literal(v.imag, part)}))"
    if isinstance(v, float):
        if v != v:
            text = "np.nan"
        elif v in (float("inf"), float("-inf")):
            text = "np.inf" if v > 0 else "-np.inf"
        else:
            text = repr(v)
    else:
        text = repr(v)
    return f"{_np_name(dtype)}({text})"


def _promoted(op: ScalarOp, in_dtypes: Sequence[str]) -> str:
    group = [in_dtypes[i] for i in op.row.promoted_inputs()]
    return np.result_type(*group).name


#: rows whose numpy function has no scalar form in Numba: the function it calls
_RENAMED = {"erf": "math.erf", "erfc": "math.erfc"}

_COMPARE = {
    "equal": "==",
    "not_equal": "!=",
    "less": "<",
    "less_equal": "<=",
    "greater": ">",
    "greater_equal": ">=",
}


@dataclass(frozen=True)
class _Call:
    """One real (non-complex) call of a scalar op: the operands ``a`` already
    converted to the computation dtype ``comp`` (of kind ``kind``), the raw
    operand names ``args`` and their dtypes, and the node's output dtype."""

    op: ScalarOp
    a: list[str]
    args: Sequence[str]
    in_dtypes: Sequence[str]
    out_dtype: str
    comp: str
    kind: str

    @property
    def isfloat(self) -> bool:
        return self.kind == "f"

    @property
    def bits(self) -> int:
        return np.dtype(self.comp).itemsize * 8


def scalar_expr(op: ScalarOp, args: Sequence[str], in_dtypes: Sequence[str], out_dtype: str) -> str:
    """The expression computing ``op`` on scalar operands ``args`` of
    ``in_dtypes``; its value converts to ``out_dtype`` with :func:`conv`.

    A row lowers to Numba's version of its numpy function (``np.<numpy_name>``
    on the operands converted to the dtype numpy computes in), unless
    :data:`_OVERRIDES` names it: operators, numpy's NaN and integer rules
    that Numba's functions do not follow, and rows numpy has no function for.
    Raises :class:`CodegenUnsupported` for combinations without a lowering."""
    name = op.name
    if name == "second":
        # the second operand, as the output's dtype reads it (numpy's astype): a
        # complex first operand (a gradient's shape template) changes nothing
        return conv(args[1], in_dtypes[1], out_dtype)
    if name != "cast" and any(np.dtype(d).kind == "c" for d in (*in_dtypes, out_dtype)):
        return _complex_expr(op, args, in_dtypes, out_dtype)
    if name == "cast":
        return conv(args[0], in_dtypes[0], out_dtype)
    comp = _promoted(op, in_dtypes)
    if op.row.cast_inputs or name == "divide":
        comp = out_dtype
    kind = np.dtype(comp).kind
    if kind == "b" and name in _BOOL_AS_INT8:
        comp, kind = "int8", "i"
    promoted = set(op.row.promoted_inputs())
    a = [
        conv(x, d, comp) if i in promoted else x
        for i, (x, d) in enumerate(zip(args, in_dtypes, strict=True))
    ]
    call = _Call(op, a, args, in_dtypes, out_dtype, comp, kind)
    override = _OVERRIDES.get(name)
    if override is not None:
        return override(call)
    fn = _RENAMED.get(name) or _numpy_function(op.row.numpy_name)
    return f"{fn}({', '.join(a)})"


def _numpy_function(numpy_name: str | None) -> str:
    if numpy_name is None or not isinstance(getattr(np, numpy_name, None), np.ufunc):
        raise CodegenUnsupported(f"no numba lowering for the scalar op {numpy_name!r}")
    return f"np.{numpy_name}"


#: rows numpy computes on booleans as int8 (``True // True``, ``True << True``)
_BOOL_AS_INT8 = frozenset(
    {"floor_divide", "remainder", "fmod", "pow", "square", "reciprocal"}
    | {"bitwise_left_shift", "bitwise_right_shift"}
)


def _template(text: str) -> Callable[[_Call], str]:
    return lambda c: text.format(*c.a)


def _negative(c: _Call) -> str:
    if c.kind == "u":
        return f"(~{c.a[0]} + {literal(1, c.comp)})"
    return f"(-{c.a[0]})"


def _sign(c: _Call) -> str:
    x = c.a[0]
    if c.isfloat:
        return f"(1.0 if {x} > 0 else (-1.0 if {x} < 0 else (0.0 if {x} == 0 else {x})))"
    return f"(({x} > 0) - ({x} < 0))"


def _reciprocal(c: _Call) -> str:
    x = c.a[0]
    if c.isfloat:
        return f"({literal(1, c.comp)} / {x})"
    zero = _numpy_int_reciprocal_of_zero(c.comp)
    return f"({zero} if {x} == 0 else ({x} if ({x} == 1 or {x} == -1) else 0))"


def _extremum(c: _Call) -> str:
    name = c.op.name
    if c.isfloat:  # numpy's NaN rules (maximum propagates NaN, fmax ignores it)
        fn = {"maximum": "nan_max", "minimum": "nan_min", "fmax": "num_fmax", "fmin": "num_fmin"}
        return f"{fn[name]}({c.a[0]}, {c.a[1]})"
    return f"{'max' if name in ('maximum', 'fmax') else 'min'}({c.a[0]}, {c.a[1]})"


def _clip(c: _Call) -> str:
    x, lo, hi = c.a
    if c.isfloat:  # numpy's clip of arrays: maximum, then minimum (ties give the bound)
        return f"nan_min(nan_max({x}, {lo}), {hi})"
    return f"min(max({x}, {lo}), {hi})"


def _divmod_family(c: _Call) -> str:
    name, x, y = c.op.name, c.a[0], c.a[1]
    if name == "fmod":
        return f"np.fmod({x}, {y})" if c.isfloat else f"int_fmod({x}, {y})"
    return f"{'float' if c.isfloat else 'int'}_{name}({x}, {y})"


def _power(c: _Call) -> str:
    x, y = c.a
    if not c.isfloat:
        return f"int_power({x}, {y})"
    scalar = f"power_scalar_exponent({x}, {y}, {literal(1, c.comp)})"
    if _SCALAR_OPERAND.fullmatch(c.args[1]):
        # a 0-d input or constant: numpy's loop reads it with stride 0
        return scalar
    flat = _FLAT_OPERAND.fullmatch(c.args[1])
    if flat:  # a flat loop's input: stride 0 when it broadcasts
        return f"({scalar} if b{flat.group(1)} == 0 else np.power({x}, {y}))"
    return f"np.power({x}, {y})"


def _integral(c: _Call) -> str:  # floor, ceil, trunc: integers unchanged
    return f"np.{c.op.name}({c.a[0]})" if c.isfloat else c.a[0]


def _round(c: _Call) -> str:
    decimals = int(c.op.params[0]) if c.op.params else 0
    x, comp = c.a[0], c.comp
    if not c.isfloat:
        if decimals >= 0:
            return conv(x, comp, c.out_dtype) if c.kind == "b" else x
        if c.kind == "b":
            raise CodegenUnsupported("round of booleans to negative decimals")
        # numpy: through float64 (x / 10**-d, rint, * 10**-d), cast back
        factor = repr(10.0**-decimals)
        rounded = f"(np.rint(np.float64({x}) / {factor}) * {factor})"
        return conv(rounded, "float64", c.out_dtype)
    if decimals == 0:
        return f"np.rint({x})"
    factor = literal(10.0 ** abs(decimals), comp)
    if decimals > 0:
        return f"(np.rint({x} * {factor}) / {factor})"
    return f"(np.rint({x} / {factor}) * {factor})"


def _classify(c: _Call) -> str:  # isnan, isinf, isfinite: integers are finite
    if np.dtype(c.in_dtypes[0]).kind == "f":
        return f"np.{c.op.name}({c.args[0]})"
    return "True" if c.op.name == "isfinite" else "False"


def _shift(c: _Call) -> str:
    direction = "left" if c.op.name == "bitwise_left_shift" else "right"
    return f"{direction}_shift({c.a[0]}, {c.a[1]}, {c.bits})"


#: Python's operators on the operands, the same for real and complex ones
_OPERATORS: dict[str, Callable[[_Call], str]] = {
    "add": _template("({0} + {1})"),
    "subtract": _template("({0} - {1})"),
    "positive": _template("{0}"),
    "second": _template("{1}"),
    "copy": _template("{0}"),
    "equal": _template("({0} == {1})"),
    "not_equal": _template("({0} != {1})"),
    "where": _template("({1} if {0} != 0 else {2})"),
    "logical_and": _template("(({0} != 0) and ({1} != 0))"),
    "logical_or": _template("(({0} != 0) or ({1} != 0))"),
    "logical_xor": _template("(({0} != 0) != ({1} != 0))"),
    "logical_not": _template("({0} == 0)"),
}

#: row name -> its lowering, where the row's numpy function is not the answer
_OVERRIDES: dict[str, Callable[[_Call], str]] = {
    **{name: _template(f"({{0}} {sym} {{1}})") for name, sym in _COMPARE.items()},
    **_OPERATORS,
    "multiply": _template("({0} * {1})"),
    "divide": _template("({0} / {1})"),
    "square": _template("({0} * {0})"),
    "conj": _template("{0}"),
    "real": _template("{0}"),
    "imag": lambda c: literal(0, c.out_dtype),
    "bitwise_and": _template("({0} & {1})"),
    "bitwise_or": _template("({0} | {1})"),
    "bitwise_xor": _template("({0} ^ {1})"),
    "bitwise_invert": lambda c: f"(not {c.a[0]})" if c.kind == "b" else f"(~{c.a[0]})",
    "bitwise_left_shift": _shift,
    "bitwise_right_shift": _shift,
    "negative": _negative,
    "abs": lambda c: f"abs({c.a[0]})" if c.kind != "b" else c.a[0],
    "sign": _sign,
    "reciprocal": _reciprocal,
    "maximum": _extremum,
    "minimum": _extremum,
    "fmax": _extremum,
    "fmin": _extremum,
    "clip": _clip,
    "floor_divide": _divmod_family,
    "remainder": _divmod_family,
    "fmod": _divmod_family,
    "pow": _power,
    "floor": _integral,
    "ceil": _integral,
    "trunc": _integral,
    "round": _round,
    "isnan": _classify,
    "isinf": _classify,
    "isfinite": _classify,
    "signbit": lambda c: f"signbit({c.a[0]})" if c.isfloat else f"({c.a[0]} < 0)",
    "sigmoid": lambda c: f"sigmoid({c.a[0]}, {literal(1, c.comp)})",
    "softplus": lambda c: f"softplus({c.a[0]}, {literal(0, c.comp)})",
    "log_sigmoid": lambda c: f"(-softplus(-{c.a[0]}, {literal(0, c.comp)}))",
    "log1mexp": lambda c: f"log1mexp({c.a[0]}, {literal(-_LN2, c.comp)})",
    # numpy's spacing of -0.0 is that of +0.0 (Numba's has the sign bit's sign);
    # -0.0 + 0.0 is +0.0, every other value is unchanged
    "spacing": lambda c: f"np.spacing({c.a[0]} + {literal(0, c.comp)})",
}


def _complex_multiply(c: _Call) -> str:
    # numpy's loops, each rounding as this numpy's build does (FMA or not)
    name, comp = c.op.name, c.comp
    fused = numpy_fuses("power" if name == "pow" else name, comp)
    if name == "square":
        return f"complex_square({c.a[0]}, {fused})"
    if name == "multiply":
        return f"complex_multiply({c.a[0]}, {c.a[1]}, {fused})"
    part = "float32" if comp == "complex64" else "float64"
    return f"complex_power({c.a[0]}, {c.a[1]}, {literal(1, part)}, {fused})"


def _complex_round(c: _Call) -> str:
    decimals = int(c.op.params[0]) if c.op.params else 0
    if decimals == 0:
        return f"complex_rint({c.a[0]})"
    # the factor in the parts' precision: numpy's complex64 loop overflows in float32
    part = str(np.finfo(np.dtype(c.comp)).dtype)
    factor = literal(10.0 ** abs(decimals), part)
    return f"complex_round({c.a[0]}, {factor}, {decimals > 0})"


def _one(c: _Call) -> str:
    """1 in the precision of ``c``'s complex parts."""
    return literal(1, str(np.finfo(np.dtype(c.comp)).dtype))


def _complex_sqrt(c: _Call) -> str:
    # C's csqrt, which numpy calls, in the parts' precision
    info = np.finfo(np.dtype(c.comp))
    half_bits = (info.nmant + 2) // 2
    consts = (1, 2 * info.smallest_normal, info.max / 4, 2.0 ** (2 * half_bits))
    consts += (2.0**-half_bits,)
    part = str(info.dtype)
    return f"complex_sqrt({c.a[0]}, {', '.join(literal(v, part) for v in consts)})"


def _complex_helper(c: _Call) -> str:
    return f"complex_{c.op.name}({', '.join(c.a)})"


#: row name -> its lowering on complex operands, where Numba's version of the
#: row's numpy function is not numpy's answer (special values, ordering,
#: rounding: ``complex_<name>`` in :mod:`~lazygraph.backends.numba.complexmath`)
_COMPLEX_OVERRIDES: dict[str, Callable[[_Call], str]] = {
    **{name: _complex_helper for name in ("less", "less_equal", "greater", "greater_equal")},
    **{name: _complex_helper for name in ("maximum", "minimum", "fmax", "fmin", "clip")},
    **{name: _complex_helper for name in ("sign", "rint", "exp2", "expm1", "log2", "log1p")},
    **{name: _complex_helper for name in ("sin", "cos", "tanh")},
    **_OPERATORS,
    "negative": _template("(-{0})"),
    "real": _template("({0}).real"),
    "imag": _template("({0}).imag"),
    "multiply": _complex_multiply,
    "square": _complex_multiply,
    "pow": _complex_multiply,
    "round": _complex_round,
    "sqrt": _complex_sqrt,
    "reciprocal": lambda c: f"complex_reciprocal({c.a[0]}, {_one(c)})",
    # numpy's complex division: its edge cases
    "divide": lambda c: f"complex_divide({c.a[0]}, {c.a[1]}, {_one(c)})",
}


def _complex_expr(
    op: ScalarOp, args: Sequence[str], in_dtypes: Sequence[str], out_dtype: str
) -> str:
    """Complex operands: Numba's version of the row's numpy function (its
    ``cmath``-based ``np.exp``, ``np.log``, ``np.arctanh``...) where that is
    numpy's answer, else the row's entry of :data:`_COMPLEX_OVERRIDES`."""
    name = op.name
    comp = _promoted(op, in_dtypes)
    if name == "where" and np.dtype(comp).kind != "c":  # only the condition is complex
        x, y = (conv(v, d, comp) for v, d in zip(args[1:], in_dtypes[1:], strict=True))
        return f"({x} if {args[0]} != 0 else {y})"
    if np.dtype(comp).kind != "c":
        comp = out_dtype if np.dtype(out_dtype).kind == "c" else "complex128"
    promoted = set(op.row.promoted_inputs())
    a = [
        conv(x, d, comp) if i in promoted else x
        for i, (x, d) in enumerate(zip(args, in_dtypes, strict=True))
    ]
    call = _Call(op, a, args, in_dtypes, out_dtype, comp, "c")
    override = _COMPLEX_OVERRIDES.get(name)
    if override is not None:
        return override(call)
    if name in _RENAMED or not _complex_accepted(op):
        raise CodegenUnsupported(f"{name} on complex values")
    return f"{_numpy_function(op.row.numpy_name)}({', '.join(a)})"


def _complex_accepted(op: ScalarOp) -> bool:
    from lazygraph.tensor.scalar.basic import CATEGORIES

    return "complex128" in CATEGORIES[op.row.accepts]


def _numpy_int_reciprocal_of_zero(dtype: str) -> int:
    import warnings

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return int(np.reciprocal(np.zeros(1, dtype=dtype))[0])


def composite_lines(
    comp: Composite | ScalarOp, args: Sequence[str], prefix: str
) -> tuple[list[str], list[str]]:
    """Statements computing ``comp`` on scalar names ``args`` (of the composite's
    input dtypes), and the names of its outputs (already in the output dtypes).
    Local names start with ``prefix``."""
    if isinstance(comp, ScalarOp):
        raise TypeError("composite_lines: expected a Composite")
    lines: list[str] = []
    env: dict[Any, str] = dict(zip(comp.inputs, args, strict=True))
    for n, node in enumerate(comp.nodes):
        ins = []
        for v in node.inputs:
            if isinstance(v, Constant):
                ins.append(literal(v.data, v.type.dtype))  # type: ignore[attr-defined]
            else:
                ins.append(env[v])
        in_dtypes = [v.type.dtype for v in node.inputs]  # type: ignore[attr-defined]
        if isinstance(node.op, Composite):
            inner, outs = composite_lines(node.op, ins, f"{prefix}{n}_")
            lines.extend(inner)
            for v, o in zip(node.outputs, outs, strict=True):
                env[v] = o
            continue
        out_dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]
        expr = scalar_expr(node.op, ins, in_dtypes, out_dtype)  # type: ignore[arg-type]
        name = f"{prefix}{n}"
        if _keeps_float64(node.op, in_dtypes, out_dtype):
            lines.append(f"{name} = {expr}")  # already float64: no conversion to type
        else:
            lines.append(f"{name} = {to_dtype(expr, out_dtype)}")
        env[node.outputs[0]] = name
    outs = []
    for v in comp.outputs:
        if isinstance(v, Constant):
            outs.append(literal(v.data, v.type.dtype))  # type: ignore[attr-defined]
        else:
            outs.append(env[v])
    return lines, outs


#: float64 in, float64 out in Numba's typing as in numpy's: a fused kernel's
#: statements for these need no conversion (each one costs compile time)
_FLOAT64_CLOSED = frozenset(
    {"add", "subtract", "multiply", "divide", "negative", "positive", "square", "copy"}
    | {
        name
        for name, row in ROWS.items()
        if row.cast_inputs and name not in _OVERRIDES and name not in _RENAMED
    }
)


def _keeps_float64(op: Any, in_dtypes: Sequence[str], out_dtype: str) -> bool:
    return (
        out_dtype == "float64"
        and getattr(op, "name", None) in _FLOAT64_CLOSED
        and all(d == "float64" for d in in_dtypes)
    )


def to_dtype(expr: str, dtype: str) -> str:
    """Force the value of ``expr`` (whatever type Numba inferred for it: Python
    arithmetic widens small ints and mixes floats) to exactly ``dtype``."""
    if dtype == "bool":
        return f"({expr} != 0)"
    return f"{_np_name(dtype)}({expr})"
