"""Every row of the elementwise table lowers on jax for every dtype it accepts,
or runs on the host by design (an entry of ``HOST_BY_DESIGN`` with its reason:
complex special values where XLA's differ from numpy's). Traced, not compiled:
the op-table runs compile and check each one against numpy with
``on_unsupported="raise"``.
"""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from lazygraph.backends.jax.dispatch import Unsupported  # noqa: E402
from lazygraph.backends.jax.elemwise import scalar_function  # noqa: E402
from lazygraph.tensor.scalar import CATEGORIES, ROWS, ScalarOp  # noqa: E402


def signatures(name: str) -> list[tuple[str, ...]]:
    row = ROWS[name]
    promoted = row.promoted_inputs()
    others = CATEGORIES[row.others]
    return [
        tuple(dtype if i in promoted else other for i in range(row.nin))
        for dtype in CATEGORIES[row.accepts]
        for other in {others[0], others[-1]}
    ]


@pytest.mark.parametrize("name", sorted(ROWS))
def test_every_row_lowers_for_every_dtype_it_accepts(name: str) -> None:
    params = ("float32",) if name == "cast" else (1,) if name == "round" else ()
    for sig in signatures(name):
        if name == "round" and sig[0] == "bool":
            continue  # (bool rounds to 0 decimals only: its own test)
        op = ScalarOp(name, params)
        out = op.output_dtypes(sig)[0]
        try:
            fn = scalar_function(op, sig, out, None)
        except Unsupported as exc:
            assert exc.by_design, f"{name}{sig}: {exc} (a fallback, not a design choice)"
            continue
        args = [jax.ShapeDtypeStruct((2,), np.dtype(d)) for d in sig]
        with jax.enable_x64(True):
            result = jax.eval_shape(fn, *args)
        assert result.dtype == np.dtype(out), (name, sig)


def test_the_capability_query_says_what_runs_on_the_host() -> None:
    import lazygraph.tensor as lt
    from lazygraph.compile.backends import lowering_of

    x, z = lt.dvector("x"), lt.tensor("complex128", (None,))
    assert lowering_of(lt.exp(x).owner, "jax") is None
    assert "complex exp" in lowering_of(lt.exp(z).owner, "jax")  # by design, with why
    assert "Nonzero" in lowering_of(lt.nonzero(x)[0].owner, "jax")
