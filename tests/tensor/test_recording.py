"""Recording remembers typing: an Elemwise op types each signature of input
types (and Python scalar classes) once, then reuses the output types, the
dtypes its Python scalars convert to and the constants it made. A remembered
node must be the node a first typing would build, for every row policy
(promotion, ``where``'s condition, ``clip``'s bounds, comparisons, float-only
functions) and every scalar numpy tells apart (signed zeros, NaN, values out of
an integer dtype's range, floats that overflow float32). Nothing here
computes: the nodes are compared, not run."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.tensor as lt
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.scalar import ScalarOp
from tests.tensor.harness import ALL

# (row, which inputs are tensors (the rest Python scalars))
ROWS = [
    ("add", (0,)),
    ("add", (1,)),
    ("multiply", (0,)),
    ("divide", (0,)),
    ("divide", (1,)),
    ("pow", (0,)),
    ("maximum", (0,)),
    ("atan2", (0,)),
    ("exp", ()),
    ("less", (0,)),
    ("equal", (1,)),
    ("where", (0,)),
    ("where", (0, 1)),
    ("where", (1, 2)),
    ("clip", (0,)),
    ("clip", (0, 1)),
    ("bitwise_left_shift", (0,)),
]

SCALARS = st.one_of(
    st.booleans(),
    st.sampled_from([0, 1, -1, 127, 128, 255, 256, -129, 2**31, 2**63 - 1, -(2**63), 2**63]),
    st.integers(-(2**70), 2**70),
    st.sampled_from([0.0, -0.0, 1.5, -2.5, np.nan, np.inf, -np.inf, 1e300, 3.5e38, 1e-46]),
    st.floats(allow_nan=True),
    st.sampled_from([0j, complex(0.0, -0.0), complex(-0.0, 0.0), 1 + 2j, complex(np.nan, 1)]),
)


def _node(op: Elemwise, args: list[Any]) -> Any:
    """The node, or the type of the error building it raised."""
    try:
        return op.make_node(*args)
    except (TypeError, ValueError, OverflowError) as exc:
        return type(exc)


def _describe(node: Any) -> Any:
    """What a node is made of: output types, input types, constants' data (with
    the sign of zeros, NaN as NaN)."""
    if isinstance(node, type):
        return node
    inputs = []
    for v in node.inputs:
        if isinstance(v, lt.TensorConstant):
            data = np.asarray(v.data)
            inputs.append((v.type, data.dtype, data.tobytes()))
        else:
            inputs.append(v)
    return [o.type for o in node.outputs], inputs


@settings(max_examples=300, deadline=None)
@given(
    row=st.sampled_from(ROWS),
    dtype=st.sampled_from(ALL),
    first=st.lists(SCALARS, min_size=3, max_size=3),
    then=st.lists(SCALARS, min_size=3, max_size=3),
)
def test_a_remembered_node_is_the_node_a_first_typing_builds(
    row: tuple[str, tuple[int, ...]], dtype: str, first: list[Any], then: list[Any]
) -> None:
    name, tensor_positions = row
    nin = ScalarOp(name).nin
    tensors = {i: lt.tensor(dtype if i or name != "where" else "bool", (None, 3)) for i in range(3)}
    first_args = [tensors[i] if i in tensor_positions else first[i] for i in range(nin)]
    then_args = [tensors[i] if i in tensor_positions else then[i] for i in range(nin)]
    remembering = Elemwise(ScalarOp(name))
    _node(remembering, first_args)  # types the signature (when it is valid)
    again = _node(remembering, then_args)
    fresh = _node(Elemwise(ScalarOp(name)), then_args)
    assert _describe(again) == _describe(fresh)


def test_signed_zeros_get_their_own_constants() -> None:
    x = lt.dvector("x")
    op = Elemwise(ScalarOp("multiply"))
    constants = [op.make_node(x, v).inputs[1] for v in (0.0, -0.0, 0.0, -0.0, 0.0)]
    assert [np.signbit(c.data) for c in constants] == [False, True, False, True, False]
    # the first call types the signature; later ones reuse constants by value
    assert constants[1] is constants[3] and constants[2] is constants[4]
    z = Elemwise(ScalarOp("add"))
    zc = [
        z.make_node(lt.tensor("complex128", (2,)), v).inputs[1].data
        for v in (0j, complex(0.0, -0.0))
    ]
    assert [np.signbit(c.imag) for c in zc] == [False, True]


def test_an_op_pickles_without_its_memos() -> None:
    op = Elemwise(ScalarOp("add"))
    op.make_node(lt.dvector("x"), 1.0)
    hash(op)
    state = op.__getstate__()
    assert "_plan_cache" not in state and "_hash_memo" not in state
    copy = pickle.loads(pickle.dumps(op))
    assert copy == op and hash(copy) == hash(op)


@pytest.mark.parametrize("value", [2**63, -(2**63) - 1, 2**64])
@pytest.mark.parametrize("strong", [True, False])
def test_python_ints_beyond_int64_are_typed_each_time(value: int, strong: bool) -> None:
    # numpy's promotion of Python ints alone depends on their values
    # (``where(c, 2**63, 1)`` is uint64, ``where(c, 2, 1)`` int64)
    cond, x = lt.tensor("bool", (2,)), lt.tensor("uint64", (2,))
    other = x if strong else 1
    op = Elemwise(ScalarOp("where"))
    op.make_node(cond, 1, other)
    again = _node(op, [cond, value, other])
    assert _describe(again) == _describe(_node(Elemwise(ScalarOp("where")), [cond, value, other]))
