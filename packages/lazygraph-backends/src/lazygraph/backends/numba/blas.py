"""Lowering of ``MatMul`` for 1-d and 2-d operands: ``np.dot`` (BLAS) for
float32/float64, a plain triple loop for integers. Batched products, bool and
complex operands run through ``perform``.

>>> import lazygraph.tensor as lt
>>> node = lt.matmul(lt.tensor("float64", (None, None)), lt.tensor("float64", (None,))).owner
>>> "np.dot" in numba_funcify(node.op, node)
True
"""

from __future__ import annotations

import numpy as np

from lazygraph.backends.numba.dispatch import JIT, Unsupported, numba_funcify
from lazygraph.graph.basic import Apply
from lazygraph.tensor.blas import MatMul

__all__: list[str] = []


@numba_funcify.register(MatMul)
def _funcify_matmul(op: MatMul, node: Apply) -> str:
    a, b = node.inputs
    out = node.outputs[0].type.dtype  # type: ignore[attr-defined]
    nda, ndb = a.type.ndim, b.type.ndim  # type: ignore[attr-defined]
    if nda > 2 or ndb > 2:
        raise Unsupported("batched matmul")
    kind = np.dtype(out).kind
    if kind == "f":
        return "\n".join(
            [
                JIT,
                "def kernel(a, b):",
                f"    a2 = np.ascontiguousarray(a.astype(np.{out}))",
                f"    b2 = np.ascontiguousarray(b.astype(np.{out}))",
                "    if a2.size == 0 or b2.size == 0:",
                _empty_result(nda, ndb, out),
                "    return (np.asarray(np.dot(a2, b2)),)",
            ]
        )
    if kind not in "iu":
        raise Unsupported(f"matmul of {out}")
    # integers: numpy wraps on overflow; so does int64 arithmetic cast back
    a2 = "a.reshape((1, a.shape[0]))" if nda == 1 else "a"
    b2 = "b.reshape((b.shape[0], 1))" if ndb == 1 else "b"
    result = "out"
    if nda == 1 and ndb == 1:
        result = "out.reshape(())"
    elif nda == 1:
        result = "out.reshape((out.shape[1],))"
    elif ndb == 1:
        result = "out.reshape((out.shape[0],))"
    return "\n".join(
        [
            JIT,
            "def kernel(a, b):",
            f"    a2 = np.ascontiguousarray({a2})" if nda == 1 else "    a2 = a",
            f"    b2 = np.ascontiguousarray({b2})" if ndb == 1 else "    b2 = b",
            "    if a2.shape[1] != b2.shape[0]:",
            '        raise ValueError("matmul: mismatch in its core dimension")',
            f"    out = np.zeros((a2.shape[0], b2.shape[1]), np.{out})",
            "    for i in range(a2.shape[0]):",
            "        for k in range(a2.shape[1]):",
            f"            aik = np.{out}(a2[i, k])",
            "            for j in range(b2.shape[1]):",
            f"                out[i, j] = np.{out}(out[i, j] + aik * np.{out}(b2[k, j]))",
            f"    return ({result},)",
        ]
    )


def _empty_result(nda: int, ndb: int, out: str) -> str:
    # numba's dot rejects zero-size operands; numpy gives zeros of the result shape
    if nda == 2 and ndb == 2:
        shape = "(a2.shape[0], b2.shape[1])"
        check = "a2.shape[1] != b2.shape[0]"
    elif nda == 2:
        shape = "(a2.shape[0],)"
        check = "a2.shape[1] != b2.shape[0]"
    elif ndb == 2:
        shape = "(b2.shape[1],)"
        check = "a2.shape[0] != b2.shape[0]"
    else:
        shape = "()"
        check = "a2.shape[0] != b2.shape[0]"
    return (
        f"        if {check}:\n"
        '            raise ValueError("matmul: mismatch in its core dimension")\n'
        f"        return (np.zeros({shape}, np.{out}),)"
    )
