"""The ``inplace`` stage: which nodes get a ``destroy_map`` (only where the
DestroyHandler proves it safe), and that results, inputs and repeated calls are
unaffected."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

import lazygraph
import lazygraph.tensor as lt
from lazygraph.compile.backends import get_backend
from lazygraph.compile.mode import Mode
from lazygraph.graph.destroyhandler import DestroyHandler
from lazygraph.graph.fg import FunctionGraph
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.rewriting.inplace import (
    InplaceElemwiseOptimizer,
    InplaceSetSubtensorOptimizer,
)
from lazygraph.tensor.subtensor import IncSubtensor
from tests.tensor.harness import assert_numpy_equal

PYTHON = Mode(backend="python")
RNG = np.random.default_rng(0)


def inplace(inputs: list[Any], outputs: list[Any], donate: tuple[int, ...] = ()) -> FunctionGraph:
    fg = FunctionGraph(inputs, outputs)
    fg.attach_feature(DestroyHandler(donated_inputs=donate))
    InplaceElemwiseOptimizer().rewrite(fg)
    InplaceSetSubtensorOptimizer().rewrite(fg)
    fg.check_integrity()
    return fg


def evaluate(fg: FunctionGraph, *values: Any) -> list[Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(get_backend("python").compile(fg)(*values))


def destroyers(fg: FunctionGraph) -> list[Any]:
    return [n for n in fg.toposort() if n.op.destroy_map]


def check_same(fg: FunctionGraph, inputs: list[Any], outputs: list[Any], *values: Any) -> None:
    """Two calls of the inplace graph equal the plain graph, and leave the inputs alone."""
    copies = [np.copy(v) for v in values]
    want = evaluate(FunctionGraph(inputs, outputs), *values)
    fn = get_backend("python").compile(fg)
    for _ in range(2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = fn(*values)
        for g, w in zip(got, want, strict=True):
            assert_numpy_equal(g, w, signed_zeros=True)
    for v, c in zip(values, copies, strict=True):
        np.testing.assert_array_equal(v, c)


def test_elemwise_overwrites_an_intermediate_not_the_graph_input() -> None:
    x = lt.tensor("float64", (3,), name="x")
    outputs = [lt.exp(lt.sin(x))]
    fg = inplace([x], outputs)
    (node,) = destroyers(fg)
    assert node.op.scalar_op.name == "exp" and node.op.inplace_pattern == ((0, 0),)
    check_same(fg, [x], outputs, np.array([0.5, -np.inf, np.nan]))


def test_donated_input_may_be_overwritten() -> None:
    x = lt.tensor("float64", (3,), name="x")
    fg = inplace([x], [lt.sin(x)], donate=(0,))
    (node,) = destroyers(fg)
    assert node.inputs[0] is fg.inputs[0]
    data = np.array([0.0, 1.0, 2.0])
    (got,) = evaluate(fg, data)
    np.testing.assert_array_equal(got, np.sin([0.0, 1.0, 2.0]))


def test_a_graph_output_is_never_overwritten() -> None:
    x = lt.tensor("float64", (3,), name="x")
    y = lt.sin(x)
    outputs = [lt.exp(y), y]
    fg = inplace([x], outputs)
    assert not destroyers(fg)
    check_same(fg, [x], outputs, RNG.standard_normal(3))


def test_other_readers_run_before_the_destroyer() -> None:
    x = lt.tensor("float64", (2, 3), name="x")
    y = lt.sin(x)
    outputs = [lt.exp(y) + lt.sum(y, axis=0) * y]
    fg = inplace([x], outputs)
    assert destroyers(fg)
    check_same(fg, [x], outputs, RNG.standard_normal((2, 3)))


def test_no_inplace_into_an_input_that_may_broadcast() -> None:
    x, y = lt.dvector("x"), lt.dvector("y")
    outputs = [lt.sin(x) + lt.cos(y)]
    fg = inplace([x, y], outputs)
    assert all(n.op.scalar_op.name != "add" for n in destroyers(fg))
    check_same(fg, [x, y], outputs, np.array([0.5]), np.array([1.0, 2.0, 3.0]))
    # a known shape on the other side rules out broadcasting into x
    a, b = lt.dvector("a"), lt.tensor("float64", (1,), name="b")
    outputs = [lt.sin(a) * lt.cos(b)]
    fg = inplace([a, b], outputs)
    assert [n.op.scalar_op.name for n in destroyers(fg)] == ["multiply"]
    check_same(fg, [a, b], outputs, np.array([0.5, 2.0]), np.array([3.0]))


def test_dtype_change_is_not_inplace() -> None:
    x = lt.tensor("int32", (3,), name="x")
    outputs = [lt.exp(x * 2)]  # int32 -> float64
    fg = inplace([x], outputs)
    assert not destroyers(fg)
    check_same(fg, [x], outputs, np.array([1, -2, 3], dtype="int32"))


def test_set_subtensor_updates_a_fresh_buffer_in_place() -> None:
    x = lt.tensor("float64", (4,), name="x")
    b = x * 2.0
    outputs = [lt.set_subtensor(b[1:3], 0.0), lt.inc_subtensor((x + 1.0)[::2], 5.0)]
    fg = inplace([x], outputs)
    kinds = {type(n.op) for n in destroyers(fg)}
    assert IncSubtensor in kinds
    assert all(n.op.inplace for n in fg.apply_nodes if isinstance(n.op, IncSubtensor))
    check_same(fg, [x], outputs, np.array([1.0, 2.0, 3.0, 4.0]))


def test_set_subtensor_of_an_input_copies() -> None:
    x = lt.tensor("float64", (4,), name="x")
    outputs = [lt.set_subtensor(x[0], 1.0)]
    fg = inplace([x], outputs)
    assert not destroyers(fg)
    check_same(fg, [x], outputs, np.zeros(4))


def test_set_subtensor_reading_its_own_buffer_is_not_inplace() -> None:
    x = lt.tensor("float64", (4,), name="x")
    b = lt.exp(x)
    outputs = [lt.set_subtensor(b[1:], b[:-1])]
    fg = inplace([x], outputs)
    assert not any(isinstance(n.op, IncSubtensor) and n.op.inplace for n in fg.apply_nodes)
    check_same(fg, [x], outputs, np.array([1.0, 2.0, 3.0, 4.0]))


def test_default_pipeline_is_inplace_and_excluding_the_tag_removes_it() -> None:
    x = lt.tensor("float64", (3, 4), name="x")
    y = lt.tensor("float64", (4,), name="y")
    s = lt.sum(lt.exp(x), axis=0)
    out = lt.set_subtensor((s * y)[0], 0.0) + lt.sin(y)
    fn = lazygraph.function([x, y], out, mode=PYTHON)
    assert any(n.op.destroy_map for n in fn.fgraph.apply_nodes)
    plain = lazygraph.function([x, y], out, mode=PYTHON.excluding("inplace"))
    assert not any(n.op.destroy_map for n in plain.fgraph.apply_nodes)
    x_val, y_val = RNG.standard_normal((3, 4)), RNG.standard_normal(4)
    expected = np.exp(x_val).sum(0) * y_val
    expected[0] = 0.0
    expected += np.sin(y_val)
    for _ in range(2):
        assert_numpy_equal(fn(x_val, y_val), expected)
        assert_numpy_equal(plain(x_val, y_val), expected)


def test_constants_are_never_destroyed() -> None:
    x = lt.tensor("float64", (3,), name="x")
    c = lt.constant(np.array([1.0, 2.0, 3.0]))
    outputs = [lt.exp(c) * x, lt.sin(c + x)]
    fg = inplace([x], outputs)
    for node in destroyers(fg):
        for ins in node.op.destroy_map.values():
            assert all(node.inputs[i] is not c for i in ins)
    check_same(fg, [x], outputs, np.array([0.1, 0.2, 0.3]))
    assert isinstance(fg.outputs[0].owner.op, Elemwise)


# -- Elemwise.perform in place: the ufunc's out= path is exact -----------------

_EDGE_VALUES: dict[str, list[Any]] = {
    "float64": [0.5, -0.0, np.nan, np.inf, -np.inf, 1e308, -2.5, 3.0],
    "float32": [0.5, -0.0, np.nan, np.inf, -np.inf, 3e38, -2.5, 3.0],
    "int8": [-128, 127, 0, -1, 5, -7, 2, 100],
    "int64": [np.iinfo(np.int64).min, np.iinfo(np.int64).max, 0, -1, 5, -7, 2, 3],
    "complex128": [1 + 2j, -0.0 + 0j, complex(np.nan, 1), complex(np.inf, 0), 2j, -1, 0.5, 3],
}


def _same_bits(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)  # NaN positions must match too
    if got.dtype.kind in "fc":
        parts = [np.real, np.imag] if got.dtype.kind == "c" else [lambda a: a]
        for part in parts:
            np.testing.assert_array_equal(np.signbit(part(got)), np.signbit(part(want)))


def _inplace_cases() -> list[tuple[str, str, int]]:
    from lazygraph.tensor.scalar.basic import ROWS

    cases = []
    for name, row in sorted(ROWS.items()):
        if isinstance(row.fn, np.ufunc) and row.nin in (1, 2):
            cases.extend((name, dtype, row.nin) for dtype in _EDGE_VALUES)
    return cases


def test_inplace_perform_writes_into_the_input_and_matches_the_copy_path() -> None:
    """For every ufunc row and dtype where an output may overwrite input 0, the
    in-place ``perform`` returns input 0's buffer holding exactly (bit for bit,
    NaN and signed zeros included) what the out-of-place ``perform`` returns,
    also with a broadcast second operand and on 0-d arrays."""
    checked = 0
    rng = np.random.default_rng(1)
    for name, dtype, nin in _inplace_cases():
        values = np.array(_EDGE_VALUES[dtype], dtype=dtype)
        shapes = [[(8,)], [()]] if nin == 1 else [[(8,), (8,)], [(8,), (1,)], [(), ()]]
        for shape_set in shapes:
            args = []
            for shape in shape_set:
                size = int(np.prod(shape))
                args.append(rng.permutation(values)[:size].reshape(shape))
            variables = [lt.tensor(dtype, a.shape) for a in args]
            try:
                plain_node = Elemwise(lt.scalar_op(name)).make_node(*variables)
            except TypeError:
                continue  # the row does not take this dtype
            if plain_node.outputs[0].type.dtype != dtype:
                continue  # a dtype change is never in place
            inplace_op = Elemwise(lt.scalar_op(name), [(0, 0)])
            node = inplace_op.make_node(*variables)
            want_cell: list[list[Any]] = [[None]]
            try:
                plain_node.op.perform(plain_node, [a.copy() for a in args], want_cell)
            except (ValueError, ArithmeticError) as exc:
                bufs = [a.copy() for a in args]
                with np.testing.assert_raises(type(exc)):
                    inplace_op.perform(node, bufs, [[None]])
                continue
            bufs = [a.copy() for a in args]
            got_cell: list[list[Any]] = [[None]]
            inplace_op.perform(node, bufs, got_cell)
            assert got_cell[0][0] is bufs[0], (name, dtype)
            _same_bits(got_cell[0][0], want_cell[0][0])
            for b, a in zip(bufs[1:], args[1:], strict=True):
                _same_bits(b, a)  # only the destroyed input changes
            checked += 1
    assert checked > 100  # the loop really ran over the table


def test_inplace_perform_of_a_composite_keeps_the_copy_path() -> None:
    from lazygraph.tensor.scalar import Composite, ScalarType

    a, b = ScalarType("float64")(), ScalarType("float64")()
    comp = Composite([a, b], [lt.scalar_op("exp")(lt.scalar_op("add")(a, b))])
    x, y = lt.tensor("float64", (4,)), lt.tensor("float64", (4,))
    plain = Elemwise(comp).make_node(x, y)
    node = Elemwise(comp, [(0, 1)]).make_node(x, y)
    args = [np.array([0.5, -0.0, np.nan, np.inf]), np.array([-0.0, -0.0, 1.0, -np.inf])]
    want: list[list[Any]] = [[None]]
    plain.op.perform(plain, [v.copy() for v in args], want)
    bufs = [v.copy() for v in args]
    got: list[list[Any]] = [[None]]
    node.op.perform(node, bufs, got)
    assert got[0][0] is bufs[1]
    _same_bits(got[0][0], want[0][0])
    _same_bits(bufs[0], args[0])


def test_inplace_perform_takes_the_ufunc_path_only_where_the_loop_matches() -> None:
    x, y = lt.tensor("float64", (3,)), lt.tensor("float64", (3,))
    op = Elemwise(lt.scalar_op("add"), [(0, 0)])
    node = op.make_node(x, y)
    buf = np.array([1.0, 2.0, 3.0])
    cell: list[list[Any]] = [[None]]
    assert op._perform_into([buf, np.array([1.0, -0.0, np.nan])], "float64", cell)
    assert cell[0][0] is buf
    assert_numpy_equal(buf, np.array([2.0, 2.0, np.nan]))
    # a read-only buffer, or a loop computing another dtype, goes the copy path
    frozen = np.zeros(3)
    frozen.flags.writeable = False
    assert not op._perform_into([frozen, np.ones(3)], "float64", [[None]])
    assert not op._perform_into([np.zeros(3, "float32"), np.ones(3)], "float32", [[None]])
    out_cell: list[list[Any]] = [[None]]
    op.perform(node, [np.zeros(3), np.ones(3)], out_cell)
    assert_numpy_equal(out_cell[0][0], np.ones(3))
