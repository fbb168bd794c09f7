"""Products of arrays: ``matmul`` (the batched, broadcasting :class:`MatMul` Op),
``dot``, ``tensordot``, ``vecdot``, ``outer``, ``einsum`` (the :class:`Einsum` Op),
``diagonal`` (the :class:`ExtractDiag` Op), ``trace`` and ``cross``.

``MatMul`` and ``Einsum`` carry the gradients; ``dot``, ``tensordot``, ``vecdot``
and ``outer`` are written with them, so their gradients come for free.
Gradients follow the rest of lazygraph: holomorphic (no conjugation), and
integer or bool inputs get none.

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> a, b = lt.tensor("float64", (5, 2, 3)), lt.tensor("float64", (3, 4))
>>> lt.matmul(a, b).type
TensorType(float64, shape=(5, 2, 4))
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from lazygraph.graph.basic import Apply, Op, Variable
from lazygraph.tensor.dtypes import result_type
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable

__all__ = [
    "Einsum",
    "ExtractDiag",
    "MatMul",
    "cross",
    "diagonal",
    "dot",
    "einsum",
    "matmul",
    "outer",
    "tensordot",
    "trace",
    "vecdot",
]


def _lt() -> Any:
    import lazygraph.tensor as lt

    return lt


def _shape_str(shape: Sequence[int | None]) -> str:
    inner = ",".join("?" if s is None else str(s) for s in shape)
    return f"({inner}{',' if len(shape) == 1 else ''})"


def _is_int(s: Any) -> bool:
    return isinstance(s, (int, np.integer))


def broadcast_batch(name: str, shapes: Sequence[Sequence[int | None]]) -> tuple[int | None, ...]:
    """Static broadcast of batch shapes (``ValueError`` naming ``name`` on a clash)."""
    from lazygraph.tensor.elemwise import broadcast_static_shape

    return tuple(broadcast_static_shape(name, shapes))


def broadcast_batch_symbolic(
    static: Sequence[int | None], shapes: Sequence[Sequence[Any]]
) -> list[Any]:
    """Run-time batch shape for ``infer_shape``: ints where ``static`` knows them,
    else the size of an operand that is not 1 (a size-1 operand broadcasts)."""
    ndim = len(static)
    padded = [(1,) * (ndim - len(s)) + tuple(s) for s in shapes]
    out: list[Any] = []
    for k in range(ndim):
        if static[k] is not None:
            out.append(static[k])
            continue
        cands = [s[k] for s in padded if not (_is_int(s[k]) and s[k] == 1)]
        known = [int(c) for c in cands if _is_int(c)]
        if known:
            out.append(known[0])
            continue
        lt = _lt()
        dim = cands[0]
        for other in cands[1:]:
            dim = lt.where(lt.equal(dim, 1), other, dim)
        out.append(dim)
    return out


def is_discrete(x: Variable) -> bool:
    return x.type.numpy_dtype.kind in "biu"  # type: ignore[attr-defined]


def no_grad() -> Variable:
    """The gradient of an input that has none (integers, bools)."""
    from lazygraph.gradient import disconnected_type

    return disconnected_type()  # type: ignore[no-any-return]


def as_grad_of(g: Variable, x: Variable) -> Variable:
    """``g`` summed back to ``x``'s (broadcast) shape and given ``x``'s dtype."""
    from lazygraph.tensor.shape import sum_to_shape

    return sum_to_shape(g, x)


# -- MatMul ---------------------------------------------------------------------

_MATMUL_SIG = "(n?,k),(k,m?)->(n?,m?)"


def matmul_static_shape(
    a: Sequence[int | None], b: Sequence[int | None], name: str = "matmul"
) -> tuple[int | None, ...]:
    """numpy's matmul shape rule on static shapes, with its ``ValueError`` messages."""
    for i, s in enumerate((a, b)):
        if len(s) == 0:
            raise ValueError(
                f"{name}: Input operand {i} does not have enough dimensions (has 0, gufunc "
                f"core with signature {_MATMUL_SIG} requires 1)"
            )
    ka = a[-1]
    kb = b[0] if len(b) == 1 else b[-2]
    if ka is not None and kb is not None and ka != kb:
        raise ValueError(
            f"{name}: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
            f"signature {_MATMUL_SIG} (size {kb} is different from {ka}) "
            f"[shapes {_shape_str(a)} and {_shape_str(b)}]"
        )
    batch = broadcast_batch(name, [a[:-2], b[:-2]])
    core = ([a[-2]] if len(a) > 1 else []) + ([b[-1]] if len(b) > 1 else [])
    return (*batch, *core)


class MatMul(Op):
    """``numpy.matmul``: batched matrix product with numpy's 1-d rules (a 1-d
    first operand gets a leading 1 and a 1-d second one a trailing 1, both
    removed from the result) and broadcasting batch dimensions."""

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, a: Any, b: Any) -> Apply:
        a, b = as_tensor_variable(a), as_tensor_variable(b)
        shape = matmul_static_shape(a.type.shape, b.type.shape)
        dtype = result_type(a, b)
        return Apply(self, [a, b], [TensorType(dtype, shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        a, b = inputs
        out = np.matmul(a, b)
        output_storage[0][0] = np.asarray(out, dtype=node.outputs[0].type.dtype)

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        sa, sb = input_shapes
        static = node.outputs[0].type.shape  # type: ignore[attr-defined]
        nbatch = len(static) - (len(sa) > 1) - (len(sb) > 1)
        batch = broadcast_batch_symbolic(static[:nbatch], [sa[:-2], sb[:-2]])
        core = ([sa[-2]] if len(sa) > 1 else []) + ([sb[-1]] if len(sb) > 1 else [])
        return [tuple(batch + core)]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        lt = _lt()
        a, b = inputs
        (g,) = output_grads
        # Work on the 2-d (batched) forms; a 1-d a is a row, a 1-d b a column.
        a2 = lt.expand_dims(a, 0) if a.ndim == 1 else a
        b2 = lt.expand_dims(b, -1) if b.ndim == 1 else b
        g2 = g
        if b.ndim == 1:
            g2 = lt.expand_dims(g2, -1)
        if a.ndim == 1:
            g2 = lt.expand_dims(g2, -2)
        grads: list[Any] = []
        if is_discrete(a):
            grads.append(no_grad())
        else:
            ga = as_grad_of(matmul(g2, lt.matrix_transpose(b2)), a2)
            grads.append(lt.squeeze(ga, 0) if a.ndim == 1 else ga)
        if is_discrete(b):
            grads.append(no_grad())
        else:
            gb = as_grad_of(matmul(lt.matrix_transpose(a2), g2), b2)
            grads.append(lt.squeeze(gb, -1) if b.ndim == 1 else gb)
        return grads

    def R_op(self, inputs: Sequence[Any], eval_points: Sequence[Any]) -> list[Any]:
        a, b = inputs
        ea, eb = eval_points
        terms = []
        if ea is not None:
            terms.append(matmul(ea, b))
        if eb is not None:
            terms.append(matmul(a, eb))
        if not terms:
            return [None]
        out = terms[0] if len(terms) == 1 else _lt().add(terms[0], terms[1])
        return [out]


def matmul(x1: Any, x2: Any) -> TensorVariable:
    """``numpy.matmul`` (``x1 @ x2``): batched matrix product; 0-d operands are a
    ``ValueError``, as in numpy.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> a = lt.dmatrix("a")
    >>> lt.matmul(a, np.array([1.0, 2.0])).eval({a: np.array([[1.0, 2.0], [3.0, 4.0]])})
    array([ 5., 11.])
    """
    return MatMul()(x1, x2)  # type: ignore[no-any-return]


def dot(a: Any, b: Any) -> TensorVariable:
    """``numpy.dot``: a product for 0-d operands, ``matmul`` for 1-d and 2-d ones,
    and for N-d the sum over the last axis of ``a`` and the second-to-last of ``b``.

    >>> import lazygraph.tensor as lt
    >>> lt.dot(lt.tensor("float64", (2, 3, 4)), lt.tensor("float64", (5, 4, 6))).type
    TensorType(float64, shape=(2, 3, 5, 6))
    """
    lt = _lt()
    a, b = as_tensor_variable(a), as_tensor_variable(b)
    if a.ndim == 0 or b.ndim == 0:
        return lt.multiply(a, b)  # type: ignore[no-any-return]
    ka = a.type.shape[-1]
    bax = 0 if b.ndim == 1 else b.ndim - 2
    kb = b.type.shape[bax]
    if ka is not None and kb is not None and ka != kb:
        raise ValueError(
            f"dot: shapes {_shape_str(a.type.shape)} and {_shape_str(b.type.shape)} not "
            f"aligned: {ka} (dim {a.ndim - 1}) != {kb} (dim {bax})"
        )
    if a.ndim <= 2 and b.ndim <= 2:
        return matmul(a, b)
    return tensordot(a, b, axes=([a.ndim - 1], [bax]))


def _normalize_axis(axis: int, ndim: int, name: str) -> int:
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim, name)
    return axis % ndim


def tensordot(a: Any, b: Any, axes: Any = 2) -> TensorVariable:
    """``numpy.tensordot``: sum products over ``axes`` (an int ``n``: the last
    ``n`` of ``a`` with the first ``n`` of ``b``; or a pair of axis sequences).

    >>> import lazygraph.tensor as lt
    >>> lt.tensordot(lt.tensor("float64", (2, 3, 4)), lt.tensor("float64", (3, 4, 5))).type
    TensorType(float64, shape=(2, 5))
    """
    a, b = as_tensor_variable(a), as_tensor_variable(b)
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if n < 0 or n > a.ndim or n > b.ndim:
            raise ValueError(
                f"tensordot: axes={n} is out of range for shapes {_shape_str(a.type.shape)} "
                f"and {_shape_str(b.type.shape)}"
            )
        axes_a = list(range(a.ndim - n, a.ndim))
        axes_b = list(range(n))
    else:
        try:
            axes_a, axes_b = axes
        except (TypeError, ValueError) as exc:
            raise TypeError("tensordot: axes must be an int or a pair of sequences") from exc
        axes_a = [axes_a] if isinstance(axes_a, (int, np.integer)) else list(axes_a)
        axes_b = [axes_b] if isinstance(axes_b, (int, np.integer)) else list(axes_b)
        if len(axes_a) != len(axes_b):
            raise ValueError("tensordot: shape-mismatch for sum")
    # numpy checks the sizes before the axis range (an IndexError there).
    try:
        axes_a = [_normalize_axis(int(x), a.ndim, "tensordot") for x in axes_a]
        axes_b = [_normalize_axis(int(x), b.ndim, "tensordot") for x in axes_b]
    except np.exceptions.AxisError as exc:
        raise IndexError(f"tensordot: {exc}") from exc
    for x, y in zip(axes_a, axes_b, strict=True):
        sa, sb = a.type.shape[x], b.type.shape[y]
        if sa is not None and sb is not None and sa != sb:
            raise ValueError(
                f"tensordot: shape-mismatch for sum: axis {x} of {_shape_str(a.type.shape)} "
                f"has size {sa}, axis {y} of {_shape_str(b.type.shape)} has size {sb}"
            )
    if len(set(axes_a)) != len(axes_a) or len(set(axes_b)) != len(axes_b):
        raise ValueError("tensordot: repeated axis")
    letters = iter(string.ascii_letters)
    sub_a = [next(letters) for _ in range(a.ndim)]
    sub_b = [next(letters) for _ in range(b.ndim)]
    for x, y in zip(axes_a, axes_b, strict=True):
        sub_b[y] = sub_a[x]
    out = [s for i, s in enumerate(sub_a) if i not in axes_a]
    out += [s for i, s in enumerate(sub_b) if i not in axes_b]
    return einsum(f"{''.join(sub_a)},{''.join(sub_b)}->{''.join(out)}", a, b)


def outer(a: Any, b: Any) -> TensorVariable:
    """``numpy.outer``: ``a.ravel()[:, None] * b.ravel()[None, :]``.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.outer(np.array([1, 2]), np.array([3, 4, 5])).eval()
    array([[ 3,  4,  5],
           [ 6,  8, 10]])
    """
    lt = _lt()
    a, b = as_tensor_variable(a), as_tensor_variable(b)
    return einsum("i,j->ij", lt.reshape(a, (-1,)), lt.reshape(b, (-1,)))


def vecdot(x1: Any, x2: Any, axis: int = -1) -> TensorVariable:
    """``numpy.vecdot`` (array API): ``sum(conj(x1) * x2, axis)`` with broadcasting
    of the other axes; ``axis`` counts in the broadcast shape.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.vecdot(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([1.0, 1.0])).eval()
    array([3., 7.])
    """
    lt = _lt()
    x1, x2 = as_tensor_variable(x1), as_tensor_variable(x2)
    for i, x in enumerate((x1, x2)):
        if x.ndim == 0:
            raise ValueError(
                f"vecdot: Input operand {i} does not have enough dimensions (has 0, gufunc "
                "core with signature (n),(n)->() requires 1)"
            )
    nd = max(x1.ndim, x2.ndim)
    ax = _normalize_axis(axis, nd, "vecdot") - nd  # negative: counts from the end
    moved = []
    for x in (x1, x2):
        if -ax > x.ndim:
            # The axis is a broadcast one for this operand: give it a size-1 axis.
            x = lt.reshape(x, (1,) * (-ax - x.ndim) + tuple(lt.shape_tuple(x)))
        moved.append(lt.moveaxis(x, ax, -1) if ax != -1 else x)
    a, b = moved
    na, nb = a.type.shape[-1], b.type.shape[-1]
    if na is not None and nb is not None and na != nb:
        raise ValueError(
            f"vecdot: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
            f"signature (n),(n)->() (size {nb} is different from {na})"
        )
    if a.type.numpy_dtype.kind == "c":
        a = lt.conj(a)
    return einsum("...i,...i->...", a, b)


# -- Einsum -------------------------------------------------------------------------


def _parse_einsum(subscripts: str, ndims: Sequence[int]) -> tuple[list[str], str]:
    """Operand subscripts and the output subscript, with ``...`` kept as ``.``
    (one character) and the implicit output made explicit, checked as numpy does."""
    subs = subscripts.replace(" ", "")
    if "->" in subs:
        lhs, out = subs.split("->", 1)
        implicit = False
    else:
        lhs, out, implicit = subs, "", True
    ins = lhs.split(",")
    if len(ins) != len(ndims):
        raise ValueError(
            f"einsum: {len(ins)} operand subscripts for {len(ndims)} operands ({subscripts!r})"
        )
    parsed = []
    for term in [*ins, out]:
        if term.count("...") > 1 or term.replace("...", "").count(".") > 0:
            raise ValueError(f"einsum: invalid '.' in subscripts {subscripts!r}")
        term = term.replace("...", ".")
        for c in term:
            if c != "." and c not in string.ascii_letters:
                raise ValueError(f"einsum: invalid subscript {c!r} in {subscripts!r}")
        parsed.append(term)
    ins, out = parsed[:-1], parsed[-1]
    for term, nd in zip(ins, ndims, strict=True):
        n = len(term.replace(".", ""))
        if n > nd or ("." not in term and n != nd):
            raise ValueError(
                f"einsum: operand has {nd} dimensions but subscripts {term.replace('.', '...')!r}"
                f" name {n}"
            )
    if implicit:
        counts: dict[str, int] = {}
        for term in ins:
            for c in term.replace(".", ""):
                counts[c] = counts.get(c, 0) + 1
        has_ell = any("." in t for t in ins)
        out = ("." if has_ell else "") + "".join(sorted(c for c, k in counts.items() if k == 1))
    else:
        used = set("".join(ins))
        for c in out:
            if c != "." and c not in used:
                raise ValueError(
                    f"einsum: output subscript {c!r} does not appear in the operands' subscripts"
                )
            if c != "." and out.count(c) > 1:
                raise ValueError(f"einsum: output subscript {c!r} appears more than once")
    return ins, out


def _einsum_dims(
    ins: Sequence[str], shapes: Sequence[Sequence[Any]], static: bool
) -> tuple[dict[str, list[Any]], list[Sequence[Any]]]:
    """Each label's sizes over the operands, and each operand's ellipsis dims."""
    sizes: dict[str, list[Any]] = {}
    ells: list[Sequence[Any]] = []
    for term, shape in zip(ins, shapes, strict=True):
        if "." in term:
            pos = term.index(".")
            n_ell = len(shape) - (len(term) - 1)
            ells.append(shape[pos : pos + n_ell])
            dims = list(shape[:pos]) + list(shape[pos + n_ell :])
            labels = term.replace(".", "")
        else:
            ells.append(())
            dims, labels = list(shape), term
        for c, d in zip(labels, dims, strict=True):
            sizes.setdefault(c, []).append(d)
    return sizes, ells


class Einsum(Op):
    """``numpy.einsum`` with a fixed subscripts string (explicit, ``...`` for
    broadcast dimensions). Labels of size 1 broadcast, as in numpy."""

    __props__: ClassVar[tuple[str, ...]] = ("subscripts",)

    def __init__(self, subscripts: str) -> None:
        self.subscripts = subscripts

    def _parsed(self, ndims: Sequence[int]) -> tuple[list[str], str]:
        return _parse_einsum(self.subscripts, ndims)

    def make_node(self, *operands: Any) -> Apply:
        ops = [as_tensor_variable(x) for x in operands]
        if not ops:
            raise ValueError("einsum: no operands")
        ins, out = self._parsed([x.ndim for x in ops])
        sizes, ells = _einsum_dims(ins, [x.type.shape for x in ops], True)
        label_size: dict[str, int | None] = {}
        for c, ds in sizes.items():
            known = {d for d in ds if d is not None and d != 1}
            if len(known) > 1:
                raise ValueError(
                    f"einsum: size of label {c!r} does not match between operands "
                    f"(shapes {', '.join(_shape_str(x.type.shape) for x in ops)})"
                )
            label_size[c] = known.pop() if known else (1 if all(d == 1 for d in ds) else None)
        ell = broadcast_batch("einsum", ells)
        shape: list[int | None] = []
        for c in out:
            shape.extend(ell if c == "." else [label_size[c]])
        dtype = result_type(*ops)
        return Apply(self, ops, [TensorType(dtype, tuple(shape))()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        out = np.einsum(self.subscripts, *inputs)
        output_storage[0][0] = np.asarray(out, dtype=node.outputs[0].type.dtype)

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        ins, out = self._parsed([len(s) for s in input_shapes])
        static = node.outputs[0].type.shape  # type: ignore[attr-defined]
        sizes, ells = _einsum_dims(ins, input_shapes, False)
        n_ell = max((len(e) for e in ells), default=0)
        ell_static = [None] * n_ell
        if "." in out:
            pos = out.index(".")
            ell_static = list(static[pos : pos + n_ell])
        ell = broadcast_batch_symbolic(ell_static, ells)
        shape: list[Any] = []
        k = 0
        for c in out:
            if c == ".":
                shape.extend(ell)
                k += len(ell)
                continue
            if static[k] is not None:
                shape.append(static[k])
            else:
                shape.append(broadcast_batch_symbolic([None], [[d] for d in sizes[c]])[0])
            k += 1
        return [tuple(shape)]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        return [
            no_grad() if is_discrete(x) else _einsum_grad(self, inputs, output_grads[0], k)
            for k, x in enumerate(inputs)
        ]

    def R_op(self, inputs: Sequence[Any], eval_points: Sequence[Any]) -> list[Any]:
        lt = _lt()
        terms = []
        for k, ev in enumerate(eval_points):
            if ev is not None:
                ops = list(inputs)
                ops[k] = ev
                terms.append(self(*ops))
        if not terms:
            return [None]
        total = terms[0]
        for t in terms[1:]:
            total = lt.add(total, t)
        return [total]


def _einsum_grad(op: Einsum, inputs: Sequence[Any], g: Any, k: int) -> Any:
    """The gradient of operand ``k``: an einsum of the output gradient with the
    other operands, written in operand ``k``'s subscripts (ellipsis moved first,
    so broadcast dimensions can be summed back), then laid out like the operand."""
    lt = _lt()
    x = inputs[k]
    ins, out = op._parsed([v.ndim for v in inputs])
    term = ins[k]
    used = set("".join(ins) + out)
    fresh = iter(c for c in string.ascii_letters if c not in used)
    # A label repeated in operand k (a diagonal) gets fresh labels for its repeats,
    # tied to the first by identity matrices.
    seen: set[str] = set()
    target: list[str] = []
    ops: list[Any] = [g]
    subs: list[str] = [out]
    eyes: list[tuple[str, str, int]] = []
    labels_pos = _term_axes(term, x.ndim)
    for c, ax in labels_pos:
        if c == "." or c not in seen:
            target.append(c)
            seen.add(c)
        else:
            f = next(fresh)
            target.append(f)
            eyes.append((c, f, ax))
    for j, (t, v) in enumerate(zip(ins, inputs, strict=True)):
        if j != k:
            ops.append(v)
            subs.append(t)
    # Labels only operand k has were summed away: multiply by ones to bring them back.
    avail = set("".join(subs))
    if any(c != "." and c not in avail for c in term):
        ops.append(lt.ones_like(x))
        subs.append(term)
    for c, f, ax in eyes:
        n = lt.shape_i(x, ax)
        ops.append(lt.eye(n, n, 0, dtype=x.type.dtype))
        subs.append(c + f)
    # Result subscripts: ellipsis first, then the labels in operand order.
    has_ell = "." in term
    # numpy wants '...' in the output whenever an operand has broadcast dimensions;
    # the extra leading ones are summed away below.
    any_ell = any("." in s for s in subs)
    res = ("." if any_ell else "") + "".join(c for c in target if c != ".")
    expr = ",".join(s.replace(".", "...") for s in subs) + "->" + res.replace(".", "...")
    gk = einsum(expr, *ops)
    # Lay the operand out the same way (ellipsis first) to sum broadcasting back.
    axes = [ax for c, ax in labels_pos if c != "."]
    if has_ell:
        axes = _ellipsis_axes(term, x.ndim) + axes
    xt = lt.dimshuffle(x, axes) if axes != list(range(x.ndim)) else x
    gk = as_grad_of(gk, xt)
    if axes != list(range(x.ndim)):
        inverse = [axes.index(i) for i in range(x.ndim)]
        gk = lt.dimshuffle(gk, inverse)
    return gk


def _ellipsis_axes(term: str, ndim: int) -> list[int]:
    pos = term.index(".")
    n_ell = ndim - (len(term) - 1)
    return list(range(pos, pos + n_ell))


def _term_axes(term: str, ndim: int) -> list[tuple[str, int]]:
    """(label, axis) for each named axis of an operand; ``"."`` stands for the
    ellipsis (reported once, at its first axis)."""
    out = []
    ax = 0
    for c in term:
        if c == ".":
            out.append((".", ax))
            ax += ndim - (len(term) - 1)
        else:
            out.append((c, ax))
            ax += 1
    return out


def einsum(subscripts: str, *operands: Any) -> TensorVariable:
    """``numpy.einsum``: Einstein summation, with ``...`` for broadcast dimensions
    and the implicit (alphabetical) output when ``->`` is absent.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> a = lt.dmatrix("a")
    >>> lt.einsum("ij,j->i", a, np.array([1.0, 1.0])).eval({a: np.eye(2) * 3})
    array([3., 3.])
    """
    if not isinstance(subscripts, str):
        raise TypeError("einsum: subscripts must be a string (the sublist form is not supported)")
    ops = [as_tensor_variable(x) for x in operands]
    ins, out = _parse_einsum(subscripts, [x.ndim for x in ops])
    explicit = ",".join(t.replace(".", "...") for t in ins) + "->" + out.replace(".", "...")
    return Einsum(explicit)(*ops)  # type: ignore[no-any-return]


# -- diagonal, trace, cross --------------------------------------------------------


def _diag_len(n1: Any, n2: Any, offset: int) -> Any:
    if offset >= 0:
        a, b = n1, n2 - offset if n2 is not None else None
    else:
        a, b = n1 + offset if n1 is not None else None, n2
    if a is None or b is None:
        return None
    return max(0, min(a, b))


class ExtractDiag(Op):
    """``numpy.diagonal``: the ``offset`` diagonal of axes ``axis1``, ``axis2``,
    appended as the last axis. numpy returns a read-only view; this returns a
    copy-equivalent array (the python backend gives a fresh one)."""

    __props__: ClassVar[tuple[str, ...]] = ("offset", "axis1", "axis2")

    def __init__(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> None:
        self.offset, self.axis1, self.axis2 = int(offset), int(axis1), int(axis2)

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        s = x.type.shape
        rest = [d for i, d in enumerate(s) if i not in (self.axis1, self.axis2)]
        n = _diag_len(s[self.axis1], s[self.axis2], self.offset)
        return Apply(self, [x], [TensorType(x.type.dtype, (*rest, n))()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        output_storage[0][0] = np.diagonal(inputs[0], self.offset, self.axis1, self.axis2).copy()

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        (s,) = input_shapes
        rest = [d for i, d in enumerate(s) if i not in (self.axis1, self.axis2)]
        n = node.outputs[0].type.shape[-1]  # type: ignore[attr-defined]
        if n is None:
            lt = _lt()
            n1, n2 = s[self.axis1], s[self.axis2]
            if self.offset >= 0:
                n = lt.maximum(0, lt.minimum(n1, lt.subtract(n2, self.offset)))
            else:
                n = lt.maximum(0, lt.minimum(lt.add(n1, self.offset), n2))
        return [(*rest, n)]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        (x,) = inputs
        if is_discrete(x):
            return [no_grad()]
        return [AllocDiag(self.offset, self.axis1, self.axis2)(output_grads[0], x)]

    def R_op(self, inputs: Sequence[Any], eval_points: Sequence[Any]) -> list[Any]:
        return [None if eval_points[0] is None else self(eval_points[0])]


class AllocDiag(Op):
    """The gradient of :class:`ExtractDiag`: zeros shaped like ``x`` with ``g``
    written on the diagonal (``x`` gives only its shape)."""

    __props__: ClassVar[tuple[str, ...]] = ("offset", "axis1", "axis2")

    def __init__(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> None:
        self.offset, self.axis1, self.axis2 = int(offset), int(axis1), int(axis2)

    def make_node(self, g: Any, x: Any) -> Apply:
        g, x = as_tensor_variable(g), as_tensor_variable(x)
        return Apply(self, [g, x], [TensorType(g.type.dtype, x.type.shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        g, x = inputs
        out = np.zeros(x.shape, dtype=node.outputs[0].type.dtype)
        view = np.moveaxis(out, (self.axis1, self.axis2), (-2, -1))
        n = g.shape[-1]
        rows = np.arange(n) + max(-self.offset, 0)
        cols = np.arange(n) + max(self.offset, 0)
        view[..., rows, cols] = g
        output_storage[0][0] = out

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        return [tuple(input_shapes[1])]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[True], [False]]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        return [ExtractDiag(self.offset, self.axis1, self.axis2)(output_grads[0]), no_grad()]

    def R_op(self, inputs: Sequence[Any], eval_points: Sequence[Any]) -> list[Any]:
        return [None if eval_points[0] is None else self(eval_points[0], inputs[1])]


def diagonal(x: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> TensorVariable:
    """``numpy.diagonal``: the ``offset`` diagonal of the 2-d sub-arrays on
    ``axis1``, ``axis2``, as the last axis of the result.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.diagonal(np.arange(9).reshape(3, 3), offset=1).eval()
    array([1, 5])
    """
    x = as_tensor_variable(x)
    if x.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    a1 = _normalize_axis(axis1, x.ndim, "diagonal")
    a2 = _normalize_axis(axis2, x.ndim, "diagonal")
    if a1 == a2:
        raise ValueError("axis1 and axis2 cannot be the same")
    return ExtractDiag(offset, a1, a2)(x)  # type: ignore[no-any-return]


def trace(
    x: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None
) -> TensorVariable:
    """``numpy.trace``: the sum along a diagonal (integers accumulate as ``sum`` does).

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.trace(np.arange(9).reshape(3, 3)).eval()
    array(12)
    """
    return _lt().sum(diagonal(x, offset, axis1, axis2), axis=-1, dtype=dtype)  # type: ignore[no-any-return]


def cross(x1: Any, x2: Any, axis: int = -1) -> TensorVariable:
    """``numpy.cross`` on 3-vectors (array API): ``axis`` of the broadcast inputs
    must have size 3 (numpy 2's deprecated 2-vectors are a ``ValueError``).

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.cross(np.array([1, 0, 0]), np.array([0, 1, 0])).eval()
    array([0, 0, 1])
    """
    lt = _lt()
    x1, x2 = as_tensor_variable(x1), as_tensor_variable(x2)
    for x in (x1, x2):
        if x.ndim == 0:
            raise ValueError("cross: inputs must have at least one dimension")
    a = lt.moveaxis(x1, _normalize_axis(axis, x1.ndim, "cross"), -1)
    b = lt.moveaxis(x2, _normalize_axis(axis, x2.ndim, "cross"), -1)
    for v in (a, b):
        n = v.type.shape[-1]
        if n is not None and n != 3:
            raise ValueError(
                "cross: incompatible dimensions for cross product (dimension must be 3, got "
                f"{'unknown' if n is None else n}; shapes {_shape_str(x1.type.shape)}, "
                f"{_shape_str(x2.type.shape)})"
            )
    lt.broadcast_static_shape("cross", [a.type.shape[:-1], b.type.shape[:-1]])
    # An unknown size is checked when computed (a size other than 3 is an error).
    a = lt.specify_shape(a, (*a.type.shape[:-1], 3))
    b = lt.specify_shape(b, (*b.type.shape[:-1], 3))
    a0, a1, a2 = (a[..., i] for i in range(3))
    b0, b1, b2 = (b[..., i] for i in range(3))
    c0 = lt.subtract(lt.multiply(a1, b2), lt.multiply(a2, b1))
    c1 = lt.subtract(lt.multiply(a2, b0), lt.multiply(a0, b2))
    c2 = lt.subtract(lt.multiply(a0, b1), lt.multiply(a1, b0))
    out = lt.stack([c0, c1, c2], axis=-1)
    nd = out.ndim
    return lt.moveaxis(out, -1, _normalize_axis(axis, nd, "cross")) if axis != -1 else out  # type: ignore[no-any-return]
