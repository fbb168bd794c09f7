"""Graph traversal: walks, ancestors, toposorts and the sets between inputs and outputs.

Every function here is iterative (explicit stacks and queues), so a chain of a
million nodes never reaches Python's recursion limit.

>>> from lazygraph.graph.basic import Apply, Op, Type
>>> class Neg(Op):
...     def make_node(self, x):
...         return Apply(self, [x], [x.type()])
>>> x = Type()("x")
>>> y = Neg()(Neg()(x))
>>> [str(n.op) for n in io_toposort([x], [y])]
['Neg', 'Neg']
>>> graph_inputs([y]) == [x]
True
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import TypeVar

from lazygraph.graph.basic import Apply, Variable, gc_paused

__all__ = [
    "ancestors",
    "applys_between",
    "general_toposort",
    "graph_inputs",
    "inputs",
    "io_connection_pattern",
    "io_toposort",
    "is_in_ancestors",
    "list_of_nodes",
    "ops",
    "orphans",
    "stack_search",
    "variables",
    "vars_between",
    "view_roots",
    "walk",
]

T = TypeVar("T", bound=Hashable)


def walk(
    nodes: Iterable[T],
    expand: Callable[[T], Iterable[T] | None],
    bfs: bool = True,
    return_children: bool = False,
) -> Iterator[T] | Iterator[tuple[T, list[T]]]:
    """Visit every node reachable from ``nodes`` through ``expand``, each once.

    Breadth-first by default, depth-first (pre-order) with ``bfs=False``. With
    ``return_children`` each item is ``(node, children)``.
    """
    queue: deque[T] = deque(nodes)
    seen: set[T] = set()
    pop = queue.popleft if bfs else queue.pop
    while queue:
        node = pop()
        if node in seen:
            continue
        seen.add(node)
        children = expand(node)
        if children is not None and not isinstance(children, list):
            children = list(children)
        if return_children:
            yield node, (children or [])
        else:
            yield node
        if children:
            if bfs:
                queue.extend(children)
            else:
                queue.extend(reversed(children))


def stack_search(
    start: Iterable[T],
    expand: Callable[[T], Iterable[T] | None],
    mode: str = "bfs",
    build_inv: bool = False,
) -> list[T] | tuple[list[T], dict[T, list[T]]]:
    """Theano's name for :func:`walk`: a list of reachable nodes (``mode`` is
    ``"bfs"`` or ``"dfs"``), plus the inverse expansion map if ``build_inv``."""
    if mode not in ("bfs", "dfs"):
        raise ValueError(f"mode must be 'bfs' or 'dfs', got {mode!r}")
    order: list[T] = []
    inv: dict[T, list[T]] = {}
    for node, children in walk(start, expand, bfs=mode == "bfs", return_children=True):  # type: ignore[misc]
        order.append(node)
        if build_inv:
            for child in children:
                inv.setdefault(child, []).append(node)
    return (order, inv) if build_inv else order


def ancestors(
    graphs: Iterable[Variable], blockers: Collection[Variable] | None = None
) -> list[Variable]:
    """Every variable the ``graphs`` depend on (including themselves), stopping at ``blockers``."""
    blocked = _as_set(blockers or ())
    # Depth-first, pre-order, inputs left to right (what walk(bfs=False) gives),
    # inlined because this runs over whole graphs.
    result: list[Variable] = []
    seen: set[Variable] = set()
    stack = list(graphs)
    stack.reverse()
    while stack:
        var = stack.pop()
        if var in seen:
            continue
        seen.add(var)
        result.append(var)
        owner = var.owner
        if owner is not None and var not in blocked:
            stack.extend(reversed(owner.inputs))
    return result


def graph_inputs(
    graphs: Iterable[Variable], blockers: Collection[Variable] | None = None
) -> list[Variable]:
    """The ownerless variables (inputs and constants) and blockers the graphs depend on."""
    blocked = _as_set(blockers or ())
    return [v for v in ancestors(graphs, blocked) if v.owner is None or v in blocked]


inputs = graph_inputs


def vars_between(ins: Collection[Variable], outs: Iterable[Variable]) -> list[Variable]:
    """Variables on paths from ``ins`` to ``outs`` (both included), and orphans."""
    ins = _as_set(ins)

    def expand(var: Variable) -> list[Variable] | None:
        if var.owner is not None and var not in ins:
            return list(reversed(var.owner.inputs + var.owner.outputs))
        return None

    return list(walk(outs, expand, bfs=False))  # type: ignore[arg-type]


def variables(ins: Collection[Variable], outs: Iterable[Variable]) -> set[Variable]:
    """Theano's ``variables``: the set of variables between ``ins`` and ``outs``."""
    return set(vars_between(ins, outs))


def orphans(ins: Collection[Variable], outs: Iterable[Variable]) -> list[Variable]:
    """Ownerless variables (typically constants) needed by ``outs`` that are not in ``ins``."""
    ins = _as_set(ins)
    return [v for v in vars_between(ins, outs) if v.owner is None and v not in ins]


def applys_between(ins: Collection[Variable], outs: Iterable[Variable]) -> list[Apply]:
    """The Apply nodes on paths from ``ins`` to ``outs``."""
    ins = _as_set(ins)
    seen: set[Apply] = set()
    result = []
    for v in vars_between(ins, outs):
        node = v.owner
        if node is not None and node not in seen and v not in ins:
            seen.add(node)
            result.append(node)
    return result


def ops(ins: Collection[Variable], outs: Iterable[Variable]) -> set[Apply]:
    """Theano's ``ops``: the set of Apply nodes between ``ins`` and ``outs``."""
    return set(applys_between(ins, outs))


def general_toposort(
    outputs: Iterable[T],
    deps: Callable[[T], Iterable[T] | None],
) -> list[T]:
    """Order every node reachable from ``outputs`` through ``deps`` so that each
    comes after all of its dependencies. Raises ``ValueError`` on a cycle.

    >>> deps = {"c": ["a", "b"], "b": ["a"], "a": []}
    >>> general_toposort(["c"], deps.get)
    ['a', 'b', 'c']
    >>> general_toposort(["a"], {"a": ["b"], "b": ["a"]}.get)
    Traceback (most recent call last):
    ...
    ValueError: the graph contains a cycle through a
    """
    order: list[T] = []
    # node -> False while it is on the DFS path, True once ordered: one dict
    # lookup per edge tells "new", "cycle" and "done" apart.
    state: dict[T, bool] = {}
    for root in outputs:
        if root in state:
            continue
        state[root] = False
        stack: list[tuple[T, Iterator[T]]] = [(root, iter(deps(root) or ()))]
        while stack:
            node, children = stack[-1]
            for child in children:
                s = state.get(child)
                if s is None:
                    state[child] = False
                    stack.append((child, iter(deps(child) or ())))
                    break
                if s is False:
                    raise ValueError(f"the graph contains a cycle through {child}")
            else:
                stack.pop()
                state[node] = True
                order.append(node)
    return order


def _as_set(variables: Iterable[Variable]) -> Collection[Variable]:
    # A set (e.g. FunctionGraph.variables) is used as is: copying a million-entry
    # set for every import_node would make rewriting quadratic.
    if isinstance(variables, set | frozenset | dict):
        return variables
    return set(variables)


def io_toposort(
    inputs: Iterable[Variable],
    outputs: Iterable[Variable],
    orderings: Mapping[Apply, Iterable[Apply]] | None = None,
) -> list[Apply]:
    """The Apply nodes between ``inputs`` and ``outputs`` in an order where each node
    follows the nodes computing its inputs and the nodes ``orderings[node]`` names.

    The walk stops at ``inputs`` (a set is used without copying). Raises
    ``ValueError`` if the graph (with the orderings) has a cycle.
    """
    # The DFS stack allocates a tuple and an iterator per node: pause the
    # collector, which would otherwise rescan the whole graph repeatedly.
    with gc_paused():
        return _io_toposort(_as_set(inputs), outputs, orderings)


def _io_toposort(
    input_set: Collection[Variable],
    outputs: Iterable[Variable],
    orderings: Mapping[Apply, Iterable[Apply]] | None,
) -> list[Apply]:
    roots = [v.owner for v in outputs if v.owner is not None and v not in input_set]
    if orderings:

        def deps(node: Apply) -> list[Apply]:
            before = [v.owner for v in node.inputs if v.owner is not None and v not in input_set]
            before.extend(orderings.get(node, ()))
            return before

        return general_toposort(roots, deps)

    # The common case, inlined and without an iterator per node: a node is pushed
    # (maybe several times) by each reader, marked False ("on the DFS path") on
    # its first visit, and ordered when it is back on top of the stack after its
    # inputs. A node met again while False is its own ancestor: a cycle.
    order: list[Apply] = []
    state: dict[Apply, bool] = {}
    for root in roots:
        if root in state:
            continue
        stack = [root]
        while stack:
            node = stack[-1]
            s = state.get(node)
            if s is None:
                state[node] = False
                ins = node.inputs
                for k in range(len(ins) - 1, -1, -1):
                    v = ins[k]
                    owner = v.owner
                    if owner is None or v in input_set:
                        continue
                    t = state.get(owner)
                    if t is None:
                        stack.append(owner)
                    elif t is False:
                        raise ValueError(f"the graph contains a cycle through {owner}")
            else:
                stack.pop()
                if s is False:
                    state[node] = True
                    order.append(node)
    return order


def list_of_nodes(inputs: Collection[Variable], outputs: Iterable[Variable]) -> list[Apply]:
    """The Apply nodes that depend on at least one of ``inputs`` and feed ``outputs``."""
    input_set = set(inputs)
    reachable: dict[Apply, bool] = {}
    for node in io_toposort(input_set, outputs):
        reachable[node] = any(
            v in input_set or (v.owner is not None and reachable.get(v.owner, False))
            for v in node.inputs
        )
    return [n for n, r in reachable.items() if r]


def is_in_ancestors(l_apply: Apply, f_node: Apply) -> bool:
    """Whether ``f_node`` is ``l_apply`` or computes one of its ancestors."""
    return any(var.owner is f_node for var in ancestors(l_apply.outputs))


def io_connection_pattern(
    inputs: Sequence[Variable], outputs: Sequence[Variable]
) -> list[list[bool]]:
    """``[input][output]``: whether each output depends on each input, honouring
    each op's ``connection_pattern``."""
    index = {v: i for i, v in enumerate(inputs)}
    n = len(inputs)
    conn: dict[Variable, list[bool]] = {v: [j == i for j in range(n)] for v, i in index.items()}
    for node in io_toposort(inputs, outputs):
        pattern = node.op.connection_pattern(node)
        for o, out in enumerate(node.outputs):
            row = [False] * n
            for i, inp in enumerate(node.inputs):
                if pattern[i][o] and inp in conn:
                    row = [a or b for a, b in zip(row, conn[inp], strict=True)]
            conn[out] = row
    zeros = [False] * n
    cols = [conn.get(o, zeros) for o in outputs]
    return [[cols[o][i] for o in range(len(outputs))] for i in range(n)]


def view_roots(var: Variable) -> list[Variable]:
    """The variables whose memory ``var`` may alias, following ``view_map`` and
    ``destroy_map`` back to buffers that own their memory."""
    roots: list[Variable] = []
    stack = [var]
    seen: set[Variable] = set()
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        owner = v.owner
        if owner is None:
            roots.append(v)
            continue
        aliased = owner.op.view_map.get(v.index, []) + owner.op.destroy_map.get(v.index, [])
        if not aliased:
            roots.append(v)
        stack.extend(owner.inputs[i] for i in aliased)
    return roots
