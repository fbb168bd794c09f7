"""First- and second-order gradients of the ``lazygraph.numpy`` namespace
functions, with their argument variants (axis, keepdims, ddof, weights,
offsets, sublists, broadcasting...), against central finite differences, real
and complex (issue 20). Each case's value is also compared with numpy's.

The variants follow the shape of autograd's systematic tests (statistics,
shape functions, products, einsum in both notations, splitting and joining,
selection) plus the functions issue 20 names (sort- and quantile-based
statistics, cumulative ops, piecewise, pad, roll, interp, weights).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import lazygraph
import lazygraph.numpy as lnp
from tests.gradients.cases import combos, custom, points
from tests.gradients.checks import check_grads, leaves

R, C = points(0)

# -- statistics -------------------------------------------------------------------

STATS: list[Any] = []
for _name in ["sum", "mean", "prod", "max", "min", "amax", "amin", "var", "std", "ptp"]:
    STATS += combos(_name, [R(), R(3)])
    STATS += combos(_name, [R(3), R(2, 3), R(1, 3)], axis=[None, 0], keepdims=[True, False])
    STATS += combos(_name, [R(2, 3)], axis=[1, (0, 1)], keepdims=[False])
for _name in ["sum", "mean", "prod", "var", "std"]:
    STATS += combos(_name, [C(), C(2, 3)]) + combos(_name, [C(2, 3)], axis=[0])
STATS += combos("var", [R(3), R(3, 4), R(1, 3)], axis=[None], keepdims=[True, False], ddof=[0, 1])
STATS += combos("std", [R(3, 4), R(1, 3)], axis=[None, 1], keepdims=[False], ddof=[1, 2])
STATS += combos("average", [R(2, 3)], axis=[None, 0, 1])
STATS += combos("average", [R(2, 3)], axis=[None, 1], weights=[R(2, 3) ** 2 + 0.5])
STATS += combos("average", [R(2, 3)], axis=[1], weights=[R(3) ** 2 + 0.5], returned=[False, True])
STATS += combos("median", [R(5), R(4, 3)], axis=[None, 0])
STATS += combos("median", [R(4, 3)], axis=[1], keepdims=[True])
STATS += combos("percentile", [R(6), R(3, 4)], [30.0, [10.0, 75.0]], axis=[None, 0], wrt=[0])
QUANTILE_METHODS = [
    "inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
    "hazen", "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher",
    "midpoint", "nearest",
]  # fmt: skip
STATS += combos("quantile", [R(7)], [0.3, [0.15, 0.8]], method=QUANTILE_METHODS, wrt=[0])
STATS += combos("nanquantile", [R(6)], [0.4], method=["linear"], wrt=[0])
STATS += combos("nanpercentile", [R(2, 5)], [35.0], axis=[None, 1], wrt=[0])
STATS += combos("cov", [R(3, 5)], rowvar=[True, False], ddof=[None, 0])
STATS += combos("cov", [R(5)], [R(5)])
STATS += combos("cov", [R(2, 5)], aweights=[R(5) ** 2 + 0.5], ddof=[None, 0, 2])
STATS += combos("cov", [R(2, 5)], fweights=[np.array([1, 2, 0, 3, 1])], ddof=[None, 2])
STATS += combos("cov", [R(2, 5), C(2, 5)], fweights=[[2, 1, 1, 1, 3]], aweights=[[0.5, 1, 2, 1, 1]])
STATS += combos("corrcoef", [R(3, 5)])
for _name in ["nansum", "nanmean", "nanprod", "nanmax", "nanmin", "nanvar", "nanstd", "nanmedian"]:
    STATS += combos(_name, [R(2, 3)], axis=[None, 1])

# -- cumulative and differences -----------------------------------------------------

CUMULATIVE = combos("cumsum", [R(4), R(3, 4)], axis=[None, 0, -1])
CUMULATIVE += combos("cumprod", [R(4) ** 2 + 0.2, R(3, 4) + 2.5], axis=[None, 0])
CUMULATIVE += combos("cumprod", [R(3, 4) + 2.5], axis=[1])
CUMULATIVE += combos("cumulative_sum", [R(3, 4)], axis=[1], include_initial=[False, True])
CUMULATIVE += combos("cumulative_prod", [R(5) + 2.5])
CUMULATIVE += combos("nancumsum", [R(2, 3)], axis=[None, 1])
CUMULATIVE += combos("nancumprod", [R(2, 3) + 2.5], axis=[None, 0])
CUMULATIVE += combos("cumsum", [C(4)])
CUMULATIVE += combos("cumprod", [C(4) + 2.0])
CUMULATIVE += combos("diff", [R(5, 5), R(3, 4, 5)], n=[1, 2], axis=[0, -1])
CUMULATIVE += combos("diff", [R(1), R(1, 1)], axis=[0])
CUMULATIVE += combos("diff", [R(6)], prepend=[0.5], append=[[1.0, 2.0]])
CUMULATIVE += combos("ediff1d", [R(5), R(2, 3)])
CUMULATIVE += combos("gradient", [R(6)])
CUMULATIVE += combos("gradient", [R(6)], [0.5], wrt=[0])
CUMULATIVE += combos("gradient", [R(4, 5)], axis=[0, 1], edge_order=[1, 2])
CUMULATIVE += combos("trapezoid", [R(6), R(3, 4)])
CUMULATIVE += combos("trapezoid", [R(6)], [np.cumsum(R(6) ** 2 + 0.1)])
CUMULATIVE += combos("convolve", [R(5)], [R(3)], mode=["full", "same", "valid"])
CUMULATIVE += combos("correlate", [R(5)], [R(3)], mode=["valid", "full"])
CUMULATIVE += combos("convolve", [C(4)], [C(3)])

# -- shape and layout ----------------------------------------------------------------

A3 = R(2, 3, 4)
SHAPE = combos("transpose", [A3], axes=[None, (0, 2, 1), (2, 0, 1), (1, 2, 0)])
SHAPE += combos("reshape", [A3], [(6, 4), (-1,), (4, 3, 2)])
SHAPE += combos("ravel", [A3, C(2, 3)])
SHAPE += combos("squeeze", [R(5, 1, 4)], axis=[None, 1])
SHAPE += combos("expand_dims", [R(5, 4)], [0, 2, (0, 3)])
SHAPE += combos("moveaxis", [A3], [0, -1], [2, 1])
SHAPE += combos("swapaxes", [A3], [0, 2], [1, -1])
SHAPE += combos("rollaxis", [A3], [0, 2], start=[0, 1, 3])
SHAPE += combos("repeat", [R(2, 3, 4), R(3, 1)], [0, 1, 2], axis=[None, 0, 1])
SHAPE += combos("repeat", [R(3)], [[1, 0, 3]])
SHAPE += combos("tile", [R(2, 1, 3)], [(1, 2, 1), 2, (2, 1, 1, 2)])
SHAPE += combos("tile", [R(1, 2)], [(1, 2), (2, 3), (3, 2, 1)])
SHAPE += combos("atleast_1d", [R(), R(3), R(2, 4)])
SHAPE += combos("atleast_2d", [R(), R(3), R(2, 4)])
SHAPE += combos("atleast_3d", [R(), R(3), R(2, 4), R(2, 3, 4, 2)])
SHAPE += combos("broadcast_to", [R(3), R(1, 3)], [(2, 3)])
SHAPE += combos("flip", [A3], axis=[None, 0, (1, 2)])
SHAPE += combos("fliplr", [R(3, 4)]) + combos("flipud", [R(3, 4)])
SHAPE += combos("rot90", [R(3, 4)], k=[1, 2, -1])
SHAPE += combos("roll", [R(4, 5)], [2, -7], axis=[None, 1])
SHAPE += combos("roll", [R(4, 5)], [(1, 2)], axis=[(0, 1)])
SHAPE += combos("pad", [R(3, 4)], [1, ((1, 0), (2, 3))], mode=["constant", "edge", "reflect"])
SHAPE += combos(
    "pad", [R(5)], [3], mode=["wrap", "symmetric", "linear_ramp", "maximum", "mean", "median"]
)
SHAPE += combos(
    "pad", [R(3, 4)], [((1, 0), (2, 3))], mode=["minimum", "mean"], stat_length=[((1, 2), (3, 1))]
)
SHAPE += combos("pad", [R(3, 4)], [2], mode=["linear_ramp"], end_values=[(1.0, -2.0)])
SHAPE += combos("pad", [R(4)], [2], constant_values=[1.5])
SHAPE += combos("resize", [R(2, 3)], [(3, 4), (2,)])

# -- joining and splitting -----------------------------------------------------------

JOIN = combos("concatenate", [(R(1), R(3)), [R(2, 2), R(2, 2)]], axis=[0])
JOIN += combos("concatenate", [(R(2, 2, 2), R(2, 2, 2))], axis=[1, 2, None])
JOIN += combos("stack", [(R(2),), (R(2), R(2))], axis=[0, 1])
JOIN += combos("vstack", [(R(2), R(2)), (R(2, 4), R(1, 4)), (R(2, 3, 4), R(5, 3, 4))])
JOIN += combos("hstack", [(R(2), R(2)), (R(3, 4), R(3, 5)), (R(2, 1, 4), R(2, 5, 4))])
JOIN += combos("dstack", [(R(2), R(2)), (R(2, 3), R(2, 3))])
JOIN += combos("column_stack", [(R(2), R(2)), (R(2, 2), R(2, 2))])
JOIN += combos("append", [R(3)], [R(2)]) + combos("append", [R(2, 3)], [R(1, 3)], axis=[0])
JOIN += combos("insert", [R(4)], [1, [0, 2]], [R()], wrt=[0, 2])
JOIN += combos("delete", [R(5), R(3, 4)], [1, [0, 2]], axis=[0])
JOIN += combos("block", [[[R(2, 2), R(2, 3)], [R(1, 2), R(1, 3)]]], wrt=[])
JOIN += combos("split", [R(6)], [3, [1, 4]])
JOIN += combos("split", [R(4, 8)], [2, [1, 2]], axis=[0, 1])
JOIN += combos("array_split", [R(7), R(7, 7)], [3, [3, 5]], axis=[0])
JOIN += combos("array_split", [R(7, 7, 7)], [4], axis=[1, 2])
JOIN += combos("vsplit", [R(4, 8), R(4, 4, 4)], [2, [1, 2]])
JOIN += combos("hsplit", [R(4, 8), R(4, 4, 4)], [2, [1, 2]])
JOIN += combos("dsplit", [R(4, 4, 4)], [2, [1, 2]])

# -- products --------------------------------------------------------------------------

PRODUCTS = combos("dot", [R(), R(3), R(2, 3), R(2, 2, 3)], [R(), R(3), R(3, 4), R(2, 3, 4)])
PRODUCTS += combos("inner", [R(), R(3), R(2, 3)], [R(), R(3), R(4, 3)])
PRODUCTS += combos("outer", [R(3), R(2, 2)], [R(4)])
PRODUCTS += combos("vdot", [R(3), C(3)], [R(3), C(3)])
PRODUCTS += combos("matmul", [R(3), R(2, 3), R(2, 2, 3)], [R(3), R(3, 4), R(2, 3, 4)])
PRODUCTS += combos("matmul", [C(2, 3)], [C(3, 2), R(3)])
PRODUCTS += combos("vecdot", [R(2, 3), C(3)], [R(3), C(2, 3)])
PRODUCTS += combos("matvec", [R(2, 3)], [R(3)]) + combos("vecmat", [R(2)], [R(2, 3)])
PRODUCTS += combos(
    "tensordot", [R(1, 3), R(2, 3, 2)], [R(3), R(3, 1), R(3, 4, 2)], axes=[((1,), (0,))]
)
PRODUCTS += combos(
    "tensordot", [R(3), R(3, 1), R(3, 4, 2)], [R(1, 3), R(2, 3, 2)], axes=[((0,), (1,))]
)
PRODUCTS += combos(
    "tensordot",
    [R(2, 3), R(2, 3, 4)],
    [R(1, 2, 3), R(2, 2, 3, 4)],
    axes=[((0, 1), (1, 2)), ((1, 0), (2, 1))],
)
PRODUCTS += combos("tensordot", [R(2, 2), R(4, 2, 2)], [R(2, 2), R(2, 2, 4)], axes=[1, 2])
PRODUCTS += combos("tensordot", [R(4)], [R()], axes=[0])
PRODUCTS += combos("tensordot", [R(2, 6)], [R(6, 3)], axes=[[[-1], [0]]])
PRODUCTS += combos("tensordot", [C(2, 3)], [C(3, 2)], axes=[1])
PRODUCTS += combos("kron", [R(3, 3), R(2)], [R(2, 2), R(3)])
PRODUCTS += combos("kron", [C(2, 2)], [R(2, 2)])
PRODUCTS += combos("cross", [R(3, 3)], [R(3, 3)], axisa=[-1, 0], axisb=[-1, 0], axisc=[-1, 0])
PRODUCTS += combos("cross", [R(4, 3)], [R(3)])
PRODUCTS += combos("linalg.multi_dot", [[R(2, 3), R(3, 4), R(4)]])
PRODUCTS += combos("polyval", [R(4)], [R(3)])
PRODUCTS += combos("vander", [R(4)], N=[None, 3])

# -- einsum, both notations --------------------------------------------------------------

EINSUM = combos("einsum", ["ij->ji"], [R(1, 1), R(4, 4), R(3, 4)])
EINSUM += combos("einsum", ["ij,jk->ik"], [R(2, 3)], [R(3, 4)])
EINSUM += combos("einsum", ["...ij,...jk->...ik"], [R(2, 3), R(2, 2, 3)], [R(3, 4), R(2, 3, 4)])
EINSUM += combos("einsum", ["ijk,lji->lki"], [R(3, 4, 4)], [R(4, 4, 3)])
EINSUM += combos(
    "einsum", ["...jk,...lj->...lk", "...,...->..."], [R(4, 4), R(3, 4, 4)], [R(4, 4), R(3, 4, 4)]
)
EINSUM += combos("einsum", ["jk...,lj...->lk..."], [R(3, 2), R(3, 2, 4)], [R(2, 3), R(2, 3, 4)])
EINSUM += combos("einsum", ["j...k,lj...->lk..."], [R(2, 2), R(2, 2, 2)], [R(2, 2), R(2, 2, 2)])
EINSUM += combos("einsum", ["ijk,lji,lli->lki"], [R(3, 4, 4)], [R(4, 4, 3)], [R(4, 4, 3)])
EINSUM += combos("einsum", ["ii->", "ii->i", "ij->", "ij->j", "ij", "ji"], [R(3, 3)])
EINSUM += combos("einsum", ["i,i", "i,j->ij", "i,i->i"], [R(3)], [R(3)])
EINSUM += combos("einsum", [",i->i", ",i"], [R()], [R(3)])
EINSUM += combos("einsum", ["ij,ij->"], [C(2, 3)], [C(2, 3)])
EINSUM += combos("einsum", ["ij,j->i"], [C(2, 3)], [C(3)])
EINSUM += combos("einsum", [R(1, 1), R(4, 4), R(3, 4)], [(0, 1)], [(1, 0)])
EINSUM += combos("einsum", [R(2, 3)], [(0, 1)], [R(3, 4)], [(1, 2)], [(0, 2)])
EINSUM += combos(
    "einsum",
    [R(2, 3), R(2, 2, 3)],
    [(Ellipsis, 0, 1)],
    [R(3, 4), R(2, 3, 4)],
    [(Ellipsis, 1, 2)],
    [(Ellipsis, 0, 2)],
)
EINSUM += combos("einsum", [R(3, 4, 4)], [(0, 1, 2)], [R(4, 4, 3)], [(3, 1, 0)], [(3, 2, 0)])
EINSUM += combos(
    "einsum",
    [R(3, 4, 4)],
    [(0, 1, 2)],
    [R(4, 4, 3)],
    [(3, 1, 0)],
    [R(4, 4, 3)],
    [(3, 3, 0)],
    [(3, 2, 0)],
)

# -- diagonals and triangles --------------------------------------------------------------

DIAG = combos("trace", [R(5, 5), R(4, 5), R(5, 4), R(3, 4, 5)], offset=[-1, 0, 1])
DIAG += combos("trace", [R(3, 4, 5)], axis1=[1], axis2=[2, 0])
DIAG += combos("diag", [R(5, 5), R(4, 5), R(5)], k=[-1, 0, 1])
DIAG += combos("diagonal", [R(4, 4), R(3, 4, 4)], offset=[0, 1], axis1=[-1], axis2=[-2])
DIAG += combos("diagonal", [R(3, 4, 4), R(2, 3, 4)], offset=[0, -1], axis1=[0], axis2=[2])
DIAG += combos("diagflat", [R(3), R(2, 2)], k=[0, -1])
DIAG += combos("tril", [R(5, 5), R(5, 5, 4), R(3, 4)], k=[-1, 0, 1])
DIAG += combos("triu", [R(5, 5), R(5, 5, 4), R(3, 4)], k=[-1, 0, 2])
DIAG += combos("trace", [C(3, 3)]) + combos("diagonal", [C(3, 3)])

# -- selection, sorting, piecewise -----------------------------------------------------------

MASK = R(3, 4) > 0
SELECT = combos("where", [MASK], [R(3, 4), R(4), R()], [R(3, 4), R(1, 4)])
SELECT += combos("where", [MASK], [C(3, 4)], [R(3, 4)])
SELECT += combos(
    "select",
    [[R(3, 4) > 0, R(3, 4) > 0.5, R(3, 4) < -1]],
    [[R(3, 4), R(3, 4), R(4)]],
    default=[0.0, 1.1],
)
SELECT += combos("select", [[MASK, ~MASK]], [[R(3, 4), R(3, 4)]], [R(3, 4)])
SELECT += combos("piecewise", [R(6)], [[R(6) > 0]], [[2.0, 3.0], [1.0]])
SELECT += combos("choose", [np.array([0, 1, 2, 1])], [[R(4), R(4), R(4)]], mode=["raise", "clip"])
SELECT += combos("take", [R(5), R(3, 4)], [[0, 2, 2, 1], 1], axis=[None, 0])
SELECT += combos(
    "take_along_axis", [R(3, 4)], [np.array([[0, 0, 3]] * 3), np.array([[1], [0], [2]])], axis=[1]
)
SELECT += combos("compress", [[True, False, True]], [R(3), R(3, 2)], axis=[0])
SELECT += combos("extract", [R(3, 4) > 0], [R(3, 4)])
SELECT += combos("sort", [R(1), R(7), R(3, 4)], axis=[-1, 0])
SELECT += combos("sort", [R(3, 4)], axis=[None])
SELECT += [
    custom("x[argsort(x)]", lambda x: x[lnp.argsort(x)], R(6), ref=lambda x: x[np.argsort(x)]),
    custom(
        "take_along_axis(x, argsort(x))",
        lambda x: lnp.take_along_axis(x, lnp.argsort(x, axis=0), axis=0),
        R(3, 4),
        ref=lambda x: np.take_along_axis(x, np.argsort(x, axis=0), axis=0),
    ),
    custom("x[lexsort((y, x))]", lambda x: x[lnp.lexsort((x[::-1], x))], R(5)),
    custom(
        "x[argmax(x, axis=1)]",
        lambda x: lnp.take_along_axis(x, lnp.argmax(x, 1)[:, None], 1),
        R(3, 4),
    ),
]
SELECT += combos("partition", [R(7), R(14)], [0, 3, 6])
SELECT += combos("partition", [R(4, 5)], [[1, 3]], axis=[0, 1])
SELECT += combos("clip", [R(5, 5)], [0.1, None], [1.1])
SELECT += combos("clip", [R(5) * 2], [R(5) - 1], [R(5) + 1.5])
SELECT += combos("maximum", [R(1), R(1, 4), R(3, 4)], [R(1), R(1, 4), R(3, 4)])
SELECT += combos("minimum", [R(1), R(1, 4), R(3, 4)], [R(1), R(1, 4), R(3, 4)])
SELECT += combos("fmax", [R(3, 4)], [R(4)]) + combos("fmin", [R(3, 4)], [R(4)])
SELECT += combos("interp", [np.array([0.25, 1.3, 2.7, -0.5, 4.2])], [np.arange(4.0)], [R(4)])
SELECT += combos(
    "interp", [np.array([0.25, 1.3, 2.7, 3.5])], [np.cumsum(R(5) ** 2 + 0.3) - 1.0], [R(5)]
)
SELECT += combos("interp", [R(3) + 1.5], [np.arange(4.0)], [R(4)], left=[0.5], right=[-1.0])
SELECT += combos("nan_to_num", [R(4), C(3)])

# -- creation and conversion from lazy values --------------------------------------------------

CREATE = combos("linspace", [R()], [R() + 3.0], [0, 1, 5])
CREATE += combos("linspace", [R(2)], [R(2) + 3.0], [4], endpoint=[True, False], axis=[0, 1])
CREATE += combos("logspace", [R()], [R() + 1.0], [4])
CREATE += combos("geomspace", [R() ** 2 + 0.5], [R() ** 2 + 4.0], [4])
CREATE += combos("meshgrid", [R(3)], [R(2)], indexing=["xy", "ij"])
CREATE += combos("real_if_close", [R(3)])
CREATE += combos("real", [C(2, 3), R(3)]) + combos("imag", [C(2, 3)]) + combos("conj", [C(3)])
CREATE += combos("asarray", [R(3)]) + combos("array", [R(2, 3)]) + combos("copy", [R(2)])
CREATE += [
    custom("array([x, 2x, x+2.5])", lambda x: lnp.array([x, x * 2.0, x + 2.5]), R()),
    custom("array(2d of x)", lambda x: lnp.array([[x, x + 1.0], [x**2, x / 2.0]]), R()),
    custom("array([x, x]) of arrays", lambda x: lnp.array([x, 2 * x]), R(3, 2)),
    custom("r_[x, c, x]", lambda x: lnp.r_[x, np.ones(3), x], R(3)),
    custom("c_[x, c, x]", lambda x: lnp.c_[x, np.ones((3, 2)), x], R(3, 2)),
    custom("r_[x, c, 1:4]", lambda x: lnp.r_[x, np.ones(2), 1:4], R(2)),
    custom("astype(complex)", lambda x: x.astype(np.complex128) * (1 + 2j), R(3)),
    custom("astype(float) of complex", lambda z: z.astype(np.float64), C(3)),
    custom("builtin sum of arrays", lambda x, y: sum([x, y]), R(2, 3), R(2, 3)),
    custom("len inside", lambda x: x * len(x), R(3, 2)),
    custom("x.T", lambda x: x.T, R(3, 4)),
    custom("x.flatten()", lambda x: x.flatten(), R(2, 3)),
    custom("x.reshape(6, 2)", lambda x: x.reshape(6, 2), R(3, 4)),
    custom("x.squeeze()", lambda x: x.squeeze(), R(3, 1)),
    custom("x.sum(axis=0)", lambda x: x.sum(axis=0), R(3, 4)),
    custom("x.mean().var()", lambda x: x.mean(axis=1).var(), R(3, 4)),
    custom("x.dot(y)", lambda x, y: x.dot(y), R(3, 4), R(4)),
    custom("x @ y", lambda x, y: x @ y, R(2, 3), R(3, 2)),
    custom("x.cumsum()", lambda x: x.cumsum(), R(2, 3)),
    custom("x.clip(0, 1)", lambda x: x.clip(0.0, 1.0), R(2, 3) + 0.5),
    custom("x.trace()", lambda x: x.trace(), R(3, 3)),
    custom("x.conj()", lambda x: x.conj() * x, C(3)),
    custom("x.real + x.imag", lambda x: x.real * 2 + x.imag, C(3)),
]

# -- a few real linear algebra cases (complex ones live with linalg) ---------------------------

_M = R(3, 3)
SPD = _M @ _M.T + 3 * np.eye(3)
LINALG = (
    combos("linalg.inv", [SPD]) + combos("linalg.det", [R(3, 3)]) + combos("linalg.slogdet", [SPD])
)
LINALG += combos("linalg.solve", [SPD], [R(3), R(3, 2)]) + combos("linalg.cholesky", [SPD])
LINALG += combos("linalg.norm", [R(4), R(3, 3)]) + combos("linalg.norm", [R(3, 3)], ord=["fro", 1])
LINALG += combos("linalg.pinv", [R(3, 2)]) + combos("linalg.eigvalsh", [SPD])
LINALG += combos("linalg.matrix_power", [R(3, 3)], [2, 3])

ALL = STATS + CUMULATIVE + SHAPE + JOIN + PRODUCTS + EINSUM + DIAG + SELECT + CREATE + LINALG


@pytest.mark.filterwarnings("ignore:Casting complex values to real")  # astype(float), as numpy
@pytest.mark.parametrize(("fun", "ref", "point"), ALL)
def test_first_and_second_order(fun: Callable[..., Any], ref: Any, point: list[Any]) -> None:
    if ref is not None:
        got, want = leaves(fun(*point)), leaves(ref(*point))
        assert len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)
    check_grads(fun, *point)


@pytest.mark.parametrize("mode", ["maximum", "minimum", "mean", "median", "linear_ramp"])
@pytest.mark.parametrize("x", [np.arange(12).reshape(3, 4), R(2, 3).astype(np.float32), R(4)])
def test_pad_statistic_and_ramp_modes_match_numpy(mode: str, x: np.ndarray) -> None:
    option = {"end_values": 3} if mode == "linear_ramp" else {"stat_length": 2}
    for kwargs in ({}, option):
        want = np.pad(x, 2, mode=mode, **kwargs)
        got = np.asarray(lnp.pad(x, 2, mode=mode, **kwargs))
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-6)


# -- not differentiable: a clear error that names the function (docs/gradients.md) -----

NOT_DIFFERENTIABLE = [
    ("Unique", lambda x: lnp.unique(x)),
    ("Unique", lambda x: lnp.unique_values(x)),
    ("nanquantile", lambda x: lnp.nanquantile(x, 0.4, method="nearest")),
    ("nanpercentile", lambda x: lnp.nanpercentile(x, 40, method="lower")),
    ("trim_zeros", lambda x: lnp.trim_zeros(x)),
    ("roots", lambda x: lnp.roots(x)),
    ("polymul", lambda x: lnp.polymul(x, x)),
    ("polydiv", lambda x: lnp.polydiv(x, x)[0]),
    ("real_if_close", lambda x: lnp.real(lnp.real_if_close(x * (1 + 1e-20j)))),
]


@pytest.mark.filterwarnings("ignore::lazygraph.numpy.LazygraphFallbackWarning")
@pytest.mark.parametrize(
    ("name", "fun"),
    NOT_DIFFERENTIABLE,
    ids=[f"{n}-{i}" for i, (n, _) in enumerate(NOT_DIFFERENTIABLE)],
)
def test_not_differentiable_names_itself(name: str, fun: Callable[..., Any]) -> None:
    with pytest.raises((TypeError, ValueError)) as info:
        lazygraph.grad(lambda x: lnp.sum(fun(x)))(np.array([1.0, 2.0, 0.5]))
    assert name in str(info.value)
