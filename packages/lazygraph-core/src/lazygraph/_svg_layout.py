"""A layered (Sugiyama-style) layout of a DAG, for :func:`lazygraph.printing.to_svg`.

Nodes are numbered ``0 .. n-1`` in a topological order (every predecessor has a
smaller number) and have widths; :func:`layered_layout` gives each a layer and
the x coordinate of its centre, so that nodes of one layer keep ``gap`` between
them. Four steps, each linear per pass (plus a sort per layer):

1. Layers: a node's layer is the longest path to it from a source; a source is
   then moved up to just below its lowest reader, so a constant or an input read
   only late sits next to its reader instead of at the bottom.
2. Bends: an edge that skips layers gets a zero-width dummy node in each layer it
   crosses, so it is routed between the nodes there (unless that would add more
   than ``max_dummies`` nodes: then such edges stay straight).
3. Order within a layer: a few sweeps up (each node sorted by the mean x of its
   predecessors) and down (by the mean x of its successors) to reduce crossings.
4. Coordinates: the same sweeps move each node towards the mean x of its
   neighbours; a left-to-right and a right-to-left pass push nodes apart to keep
   the gaps, and the mean of the two keeps both the order and the gaps.

Everything is iterative, so a chain of 10^5 nodes lays out without recursion.

>>> layers, xs, bends = layered_layout([[], [], [0, 1], [0, 2]], [20.0, 20.0, 40.0, 20.0])
>>> layers, xs
([0, 0, 1, 2], [10.0, 46.0, 37.0, 19.0])
>>> bends  # the edge 0 -> 3 passes layer 1 at x = 1, left of node 2
{(0, 3): [1.0]}
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["layered_layout"]


def layered_layout(
    preds: Sequence[Sequence[int]],
    widths: Sequence[float],
    gap: float = 16.0,
    sweeps: int = 4,
    max_dummies: int | None = None,
) -> tuple[list[int], list[float], dict[tuple[int, int], list[float]]]:
    """Layers, centre x coordinates and edge bends for the DAG whose node ``i``
    reads ``preds[i]``.

    ``preds[i]`` lists node numbers below ``i`` (repeats allowed); ``widths[i]`` is
    node ``i``'s width. Layer 0 is the bottom; every node's layer is above its
    predecessors'. ``bends[p, i]`` lists, bottom to top, the x where the edge from
    ``p`` to ``i`` crosses the layers between theirs (edges between adjacent
    layers have none). ``max_dummies`` (default ``4 * n + 1000``) bounds the
    bend points. The leftmost node's left edge is at x = 0. Deterministic.
    Raises ``ValueError`` if a predecessor's number is not below its reader's.
    """
    n = len(preds)
    succs: list[list[int]] = [[] for _ in range(n)]
    layer = [0] * n
    for i, ps in enumerate(preds):
        top = -1
        for p in ps:
            if not 0 <= p < i:
                raise ValueError(f"node {i} reads node {p}: number nodes in topological order")
            succs[p].append(i)
            if layer[p] > top:
                top = layer[p]
        layer[i] = top + 1
    for i in range(n):
        if not preds[i] and succs[i]:
            layer[i] = min(layer[s] for s in succs[i]) - 1

    # Dummy nodes n, n+1, ... on long edges; all edges or none get them.
    long_edges = sorted({(p, i) for i in range(n) for p in preds[i] if layer[i] - layer[p] > 1})
    budget = 4 * n + 1000 if max_dummies is None else max_dummies
    if sum(layer[i] - layer[p] - 1 for p, i in long_edges) > budget:
        long_edges = []
    width = list(widths)
    down: list[list[int]] = [list(ps) for ps in preds]  # neighbours one layer down
    up: list[list[int]] = [[] for _ in range(n)]  # and one layer up
    chains: dict[tuple[int, int], list[int]] = {}
    for p, i in long_edges:
        chain = chains[p, i] = list(range(len(width), len(width) + layer[i] - layer[p] - 1))
        for k in range(len(chain)):
            width.append(0.0)
            layer.append(layer[p] + 1 + k)
            down.append([chain[k - 1] if k else p])
            up.append([])
        down[i] = [chain[-1] if q == p else q for q in down[i]]
    for i, ds in enumerate(down):
        for q in ds:
            up[q].append(i)

    rows: list[list[int]] = [[] for _ in range(max(layer, default=-1) + 1)]
    for i, lay in enumerate(layer):
        rows[lay].append(i)
    x = [0.0] * len(width)

    def pack(row: list[int]) -> None:
        # centres of the row's nodes side by side, the row centred on x = 0
        left = -(sum(width[i] for i in row) + gap * (len(row) - 1)) / 2
        for i in row:
            x[i] = left + width[i] / 2
            left += width[i] + gap

    def mean_x(i: int, nbrs: list[list[int]]) -> float:
        ns = nbrs[i]
        if not ns:
            return x[i]
        return sum(x[j] for j in ns) / len(ns)

    def reorder(row: list[int], nbrs: list[list[int]]) -> None:
        if len(row) > 1:
            key = {i: mean_x(i, nbrs) for i in row}
            row.sort(key=key.__getitem__)  # stable: ties keep their order
        pack(row)

    def place(row: list[int], nbrs: list[list[int]]) -> None:
        want = [mean_x(i, nbrs) for i in row]
        m = len(row)
        if m == 1:
            x[row[0]] = want[0]
            return
        sep = [(width[row[k]] + width[row[k + 1]]) / 2 + gap for k in range(m - 1)]
        left = want[:]
        for k in range(1, m):
            left[k] = max(left[k], left[k - 1] + sep[k - 1])
        right = want[:]
        for k in range(m - 2, -1, -1):
            right[k] = min(right[k], right[k + 1] - sep[k])
        for k in range(m):
            x[row[k]] = (left[k] + right[k]) / 2

    for row in rows:
        pack(row)
    for step in (reorder, place):
        for _ in range(sweeps):
            for row in rows[1:]:
                step(row, down)
            for row in reversed(rows[:-1]):
                step(row, up)
    shift = min((x[i] - width[i] / 2 for i in range(len(x))), default=0.0)
    bends = {edge: [x[d] - shift for d in chain] for edge, chain in chains.items()}
    return layer[:n], [v - shift for v in x[:n]], bends
