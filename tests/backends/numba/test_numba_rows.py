"""Every row of the elementwise table lowers on numba, real and complex: the
expression generator names a function for every dtype the row accepts, with no
fallback to ``perform`` (the op-table runs then compile and check each one
against numpy with ``on_unsupported="raise"``).
"""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

from lazygraph.backends.numba.scalar import scalar_expr
from lazygraph.tensor.scalar import CATEGORIES, ROWS, ScalarOp


def signatures(name: str) -> list[tuple[str, ...]]:
    """Each accepted dtype for the promoted inputs; the others (where's
    condition, ldexp's exponent) of their own category's first and last dtype."""
    row = ROWS[name]
    promoted = row.promoted_inputs()
    others = CATEGORIES[row.others]
    sigs = []
    for dtype in CATEGORIES[row.accepts]:
        for other in {others[0], others[-1]}:
            sigs.append(tuple(dtype if i in promoted else other for i in range(row.nin)))
    return sigs


def params_of(name: str, dtype: str) -> tuple[tuple[object, ...], ...]:
    if name == "cast":
        return (("int8",), ("float32",), ("complex128",), ("bool",))
    if name == "round":
        return ((0,),) if dtype == "bool" else ((0,), (2,), (-1,))
    return ((),)


@pytest.mark.parametrize("name", sorted(ROWS))
def test_every_row_lowers_for_every_dtype_it_accepts(name: str) -> None:
    names = [f"x{i}" for i in range(ROWS[name].nin)]
    for sig in signatures(name):
        for params in params_of(name, sig[0]):
            op = ScalarOp(name, params)
            out = op.output_dtypes(sig)[0]
            expr = scalar_expr(op, names, sig, out)  # raises CodegenUnsupported if not
            assert expr, (name, sig, params)


def test_the_capability_query_says_what_runs_through_perform() -> None:
    import lazygraph.tensor as lt
    from lazygraph.compile.backends import lowering_of
    from lazygraph.configuration import config
    from lazygraph.graph.basic import Apply, Op

    class NoKernel(Op):
        __props__ = ()

        def make_node(self, x: object) -> Apply:
            x = lt.as_tensor_variable(x)
            return Apply(self, [x], [x.type()])

        def perform(self, node: object, inputs: list, output_storage: list) -> None:
            output_storage[0][0] = inputs[0].copy()

    x = lt.dvector("x")
    assert lowering_of(lt.exp(x).owner, "numba") is None
    with config.change(numba_prefer_numpy=True):  # (this directory's conftest turns it off)
        assert "numpy" in lowering_of(lt.sort(x).owner, "numba")
    with config.change(numba_prefer_numpy=False):
        assert lowering_of(lt.sort(x).owner, "numba") is None
    assert "NoKernel" in lowering_of(NoKernel()(x).owner, "numba")
