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
from collections.abc import Sequence
from typing import Any

import numpy as np

from lazygraph.backends.numba.complexmath import numpy_fuses
from lazygraph.graph.basic import Constant
from lazygraph.tensor.scalar.basic import ScalarOp
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


_UFUNC_FLOAT = {
    "exp": "np.exp",
    "exp2": "np.exp2",
    "expm1": "np.expm1",
    "log": "np.log",
    "log2": "np.log2",
    "log10": "np.log10",
    "log1p": "np.log1p",
    "sqrt": "np.sqrt",
    "cbrt": "np.cbrt",
    "logaddexp": "np.logaddexp",
    "logaddexp2": "np.logaddexp2",
    "sin": "np.sin",
    "cos": "np.cos",
    "tan": "np.tan",
    "asin": "np.arcsin",
    "acos": "np.arccos",
    "atan": "np.arctan",
    "sinh": "np.sinh",
    "cosh": "np.cosh",
    "tanh": "np.tanh",
    "asinh": "np.arcsinh",
    "acosh": "np.arccosh",
    "atanh": "np.arctanh",
    "atan2": "np.arctan2",
    "hypot": "np.hypot",
    "deg2rad": "np.deg2rad",
    "rad2deg": "np.rad2deg",
    "copysign": "np.copysign",
    "nextafter": "np.nextafter",
    "erf": "math.erf",
    "erfc": "math.erfc",
}

_COMPARE = {
    "equal": "==",
    "not_equal": "!=",
    "less": "<",
    "less_equal": "<=",
    "greater": ">",
    "greater_equal": ">=",
}


def scalar_expr(op: ScalarOp, args: Sequence[str], in_dtypes: Sequence[str], out_dtype: str) -> str:
    """The expression computing ``op`` on scalar operands ``args`` of
    ``in_dtypes``; its value converts to ``out_dtype`` with :func:`conv`.
    Raises :class:`CodegenUnsupported` for combinations without a lowering."""
    name = op.name
    if name != "cast" and any(np.dtype(d).kind == "c" for d in (*in_dtypes, out_dtype)):
        return _complex_expr(op, args, in_dtypes, out_dtype)
    if name == "cast":
        return conv(args[0], in_dtypes[0], out_dtype)
    comp = _promoted(op, in_dtypes)
    if op.row.cast_inputs or name in ("divide",):
        comp = out_dtype
    kind = np.dtype(comp).kind
    if name in ("floor_divide", "remainder", "fmod", "pow", "square", "reciprocal") and (
        kind == "b"
    ):
        comp, kind = "int8", "i"
    if name in ("bitwise_left_shift", "bitwise_right_shift") and kind == "b":
        comp, kind = "int8", "i"
    promoted = set(op.row.promoted_inputs())
    a = [
        conv(x, d, comp) if i in promoted else x
        for i, (x, d) in enumerate(zip(args, in_dtypes, strict=True))
    ]
    isfloat = kind == "f"
    bits = np.dtype(comp).itemsize * 8

    if name in _UFUNC_FLOAT:
        return f"{_UFUNC_FLOAT[name]}({', '.join(a)})"
    if name in _COMPARE:
        return f"({a[0]} {_COMPARE[name]} {a[1]})"
    simple = {
        "add": "({0} + {1})",
        "subtract": "({0} - {1})",
        "multiply": "({0} * {1})",
        "divide": "({0} / {1})",
        "positive": "{0}",
        "second": "{1}",
        "copy": "{0}",
        "conj": "{0}",
        "real": "{0}",
        "where": "({1} if {0} != 0 else {2})",
        "logical_and": "(({0} != 0) and ({1} != 0))",
        "logical_or": "(({0} != 0) or ({1} != 0))",
        "logical_xor": "(({0} != 0) != ({1} != 0))",
        "logical_not": "({0} == 0)",
        "bitwise_and": "({0} & {1})",
        "bitwise_or": "({0} | {1})",
        "bitwise_xor": "({0} ^ {1})",
    }
    if name in simple:
        return simple[name].format(*a)
    if name == "imag":
        return literal(0, out_dtype)
    if name == "negative":
        if kind == "u":
            return f"(~{a[0]} + {literal(1, comp)})"
        return f"(-{a[0]})"
    if name == "abs":
        return f"abs({a[0]})" if kind != "b" else a[0]
    if name == "sign":
        if isfloat:
            x = a[0]
            return f"(1.0 if {x} > 0 else (-1.0 if {x} < 0 else (0.0 if {x} == 0 else {x})))"
        return f"(({a[0]} > 0) - ({a[0]} < 0))"
    if name == "square":
        return f"({a[0]} * {a[0]})"
    if name == "reciprocal":
        if isfloat:
            return f"({literal(1, comp)} / {a[0]})"
        zero = _numpy_int_reciprocal_of_zero(comp)
        return f"({zero} if {a[0]} == 0 else ({a[0]} if ({a[0]} == 1 or {a[0]} == -1) else 0))"
    if name in ("maximum", "minimum", "fmax", "fmin"):
        if isfloat:
            fn = {
                "maximum": "nan_max",
                "minimum": "nan_min",
                "fmax": "num_fmax",
                "fmin": "num_fmin",
            }
            return f"{fn[name]}({a[0]}, {a[1]})"
        return f"{'max' if name in ('maximum', 'fmax') else 'min'}({a[0]}, {a[1]})"
    if name == "clip":
        if isfloat:
            # numpy's clip of arrays: maximum, then minimum (ties give the bound)
            return f"nan_min(nan_max({a[0]}, {a[1]}), {a[2]})"
        return f"min(max({a[0]}, {a[1]}), {a[2]})"
    if name == "floor_divide":
        return f"{'float' if isfloat else 'int'}_floor_divide({a[0]}, {a[1]})"
    if name == "remainder":
        return f"{'float' if isfloat else 'int'}_remainder({a[0]}, {a[1]})"
    if name == "fmod":
        return f"np.fmod({a[0]}, {a[1]})" if isfloat else f"int_fmod({a[0]}, {a[1]})"
    if name == "pow":
        if not isfloat:
            return f"int_power({a[0]}, {a[1]})"
        scalar = f"power_scalar_exponent({a[0]}, {a[1]}, {literal(1, comp)})"
        if _SCALAR_OPERAND.fullmatch(args[1]):
            # a 0-d input or constant: numpy's loop reads it with stride 0
            return scalar
        flat = _FLAT_OPERAND.fullmatch(args[1])
        if flat:  # a flat loop's input: stride 0 when it broadcasts
            return f"({scalar} if b{flat.group(1)} == 0 else np.power({a[0]}, {a[1]}))"
        return f"np.power({a[0]}, {a[1]})"
    if name in ("floor", "ceil", "trunc"):
        return f"np.{name}({a[0]})" if isfloat else a[0]
    if name == "rint":
        return f"np.rint({a[0]})"
    if name == "round":
        decimals = int(op.params[0]) if op.params else 0
        if not isfloat:
            if decimals >= 0:
                return conv(a[0], comp, out_dtype) if kind == "b" else a[0]
            if kind == "b":
                raise CodegenUnsupported("round of booleans to negative decimals")
            # numpy: through float64 (x / 10**-d, rint, * 10**-d), cast back
            factor = repr(10.0**-decimals)
            rounded = f"(np.rint(np.float64({a[0]}) / {factor}) * {factor})"
            return conv(rounded, "float64", out_dtype)
        if decimals == 0:
            return f"np.rint({a[0]})"
        factor = literal(10.0 ** abs(decimals), comp)
        if decimals > 0:
            return f"(np.rint({a[0]} * {factor}) / {factor})"
        return f"(np.rint({a[0]} / {factor}) * {factor})"
    if name in ("isnan", "isinf", "isfinite"):
        if np.dtype(in_dtypes[0]).kind == "f":
            return f"np.{name}({args[0]})"
        return "True" if name == "isfinite" else "False"
    if name == "signbit":
        return f"signbit({a[0]})" if isfloat else f"({a[0]} < 0)"
    if name == "bitwise_invert":
        return f"(not {a[0]})" if kind == "b" else f"(~{a[0]})"
    if name == "bitwise_left_shift":
        return f"left_shift({a[0]}, {a[1]}, {bits})"
    if name == "bitwise_right_shift":
        return f"right_shift({a[0]}, {a[1]}, {bits})"
    if name == "sigmoid":
        return f"sigmoid({a[0]}, {literal(1, comp)})"
    if name == "softplus":
        return f"softplus({a[0]}, {literal(0, comp)})"
    if name == "log_sigmoid":
        return f"(-softplus(-{a[0]}, {literal(0, comp)}))"
    if name == "log1mexp":
        return f"log1mexp({a[0]}, {literal(-_LN2, comp)})"
    raise CodegenUnsupported(f"no numba lowering for scalar op {name}")


#: scalar ops whose complex form is Numba's own (cmath / complex arithmetic)
_COMPLEX_UFUNC = {
    "exp": "np.exp",
    "log": "np.log",
    "log10": "np.log10",
    "tan": "np.tan",
    "sinh": "np.sinh",
    "cosh": "np.cosh",
    "tanh": "complex_tanh",
    "asin": "np.arcsin",
    "acos": "np.arccos",
    "atan": "np.arctan",
    "asinh": "np.arcsinh",
    "acosh": "np.arccosh",
    "atanh": "np.arctanh",
    "isnan": "np.isnan",
    "isinf": "np.isinf",
    "isfinite": "np.isfinite",
}


#: scalar ops with numpy's complex semantics: ``complex_<name>`` in
#: :mod:`~lazygraph.backends.numba.complexmath`
_COMPLEX_HELPER = frozenset(
    {"less", "less_equal", "greater", "greater_equal", "maximum", "minimum", "fmax", "fmin"}
    | {"sign", "rint", "exp2", "expm1", "log2", "sin", "cos"}
)


def _complex_expr(
    op: ScalarOp, args: Sequence[str], in_dtypes: Sequence[str], out_dtype: str
) -> str:
    """Complex operands: arithmetic, conj/real/imag/abs, equality, the
    transcendental functions Numba implements for complex numbers, and
    numpy's own complex loops (lexicographic ordering, sign, rounding, exp2,
    expm1, log2) through :mod:`~lazygraph.backends.numba.complexmath`. Other
    ops raise :class:`CodegenUnsupported`."""
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
    if name in _COMPLEX_UFUNC:
        return f"{_COMPLEX_UFUNC[name]}({a[0]})"
    if name in ("equal", "not_equal"):
        return f"({a[0]} {_COMPARE[name]} {a[1]})"
    simple = {
        "add": "({0} + {1})",
        "subtract": "({0} - {1})",
        "positive": "{0}",
        "negative": "(-{0})",
        "copy": "{0}",
        "second": "{1}",
        "conj": "np.conj({0})",
        "real": "({0}).real",
        "imag": "({0}).imag",
        "abs": "np.abs({0})",
        "where": "({1} if {0} != 0 else {2})",
        "logical_not": "({0} == 0)",
        "logical_and": "(({0} != 0) and ({1} != 0))",
        "logical_or": "(({0} != 0) or ({1} != 0))",
        "logical_xor": "(({0} != 0) != ({1} != 0))",
    }
    if name in simple:
        return simple[name].format(*a)
    if name in _COMPLEX_HELPER:
        return f"complex_{name}({', '.join(a)})"
    if name in ("multiply", "square", "pow"):
        # numpy's loops, each rounding as this numpy's build does (FMA or not)
        fused = numpy_fuses("power" if name == "pow" else name, comp)
        if name == "square":
            return f"complex_square({a[0]}, {fused})"
        if name == "multiply":
            return f"complex_multiply({a[0]}, {a[1]}, {fused})"
        part = "float32" if comp == "complex64" else "float64"
        return f"complex_power({a[0]}, {a[1]}, {literal(1, part)}, {fused})"
    if name == "round":
        decimals = int(op.params[0]) if op.params else 0
        if decimals == 0:
            return f"complex_rint({a[0]})"
        return f"complex_round({a[0]}, {10.0 ** abs(decimals)!r}, {decimals > 0})"
    info = np.finfo(np.dtype(comp))
    part = str(info.dtype)
    if name == "sqrt":  # C's csqrt, which numpy calls, in the parts' precision
        half_bits = (info.nmant + 2) // 2
        consts = (1, 2 * info.smallest_normal, info.max / 4, 2.0 ** (2 * half_bits))
        consts += (2.0**-half_bits,)
        return f"complex_sqrt({a[0]}, {', '.join(literal(c, part) for c in consts)})"
    if name == "reciprocal":
        return f"complex_reciprocal({a[0]}, {literal(1, part)})"
    if name == "divide":  # numpy's complex division: its edge cases
        return f"complex_divide({a[0]}, {a[1]}, {literal(1, part)})"
    raise CodegenUnsupported(f"{name} on complex values")


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
    | {name for name in _UFUNC_FLOAT if not name.startswith("erf")}
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
