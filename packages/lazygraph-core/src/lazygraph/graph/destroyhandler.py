"""``DestroyHandler``: the feature that makes inplace rewrites safe.

An op that overwrites one of its inputs declares it in ``destroy_map``
(``{output index: [input indices]}``); an op whose output aliases an input
without copying declares it in ``view_map``. The handler groups every variable
into the buffer it lives in: a *root* (a variable that owns its memory) and the
views hanging off it through ``view_map`` chains, its *family*. The output of a
destroyer is a fresh root: once a buffer is destroyed its old contents are dead,
and the handler guarantees nobody reads them afterwards.

Rules enforced by :meth:`DestroyHandler.validate` (each raises
:class:`~lazygraph.graph.fg.InconsistencyError`):

- at most one node destroys a given root;
- a destroyer runs after every other reader of the root or any view of it;
  when that is impossible (a reader depends on the destroyer's output, or the
  constraints form a cycle) the graph is rejected. Data cycles are rejected too;
- a destroyer does not also read its destroyed buffer through another input,
  unless the op tolerates it (``destroyhandler_tolerate_same`` /
  ``destroyhandler_tolerate_aliased``: lists of ``(destroyed input, other input)``
  pairs, as in Theano);
- constants are never destroyed; graph inputs only when donated
  (``DestroyHandler(donated_inputs=[...])`` or :meth:`DestroyHandler.donate`);
- no graph output, nor any view of it, lives in a destroyed buffer;
- a ``view_map`` output aliasing several inputs is not supported.

Bookkeeping is incremental: each callback costs time proportional to what it
changed (the node, or the views re-rooted by a changed input). The handler also
keeps a topological order of the nodes under both data and ordering
constraints, repaired locally after each change (a two-way search in the
spirit of Pearce and Kelly's dynamic topological sort), which is what makes
cycle detection cheap: a new edge only needs work when it goes backwards in
that order, and then only over the nodes between its two ends.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from lazygraph.graph.basic import Apply, Constant, Op, Variable
from lazygraph.graph.features import AlreadyThere, Feature
from lazygraph.graph.fg import FunctionGraph, InconsistencyError
from lazygraph.graph.traversal import io_toposort

__all__ = ["DestroyHandler"]

Edge = tuple[Apply, Apply]


def _destroyed_inputs(op: Op) -> list[int]:
    """Input positions that ``op`` overwrites, each once, in order."""
    dmap = op.destroy_map
    if not dmap:
        return []
    return sorted({i for ins in dmap.values() for i in ins})


def _view_pairs(op: Op) -> Iterator[tuple[int, list[int]]]:
    """``(output, viewed inputs)`` for outputs that alias without destroying.

    An output listed in both maps counts as destroying: it is a fresh root.
    """
    vmap = op.view_map
    if not vmap:
        return
    dmap = op.destroy_map
    for o, ins in vmap.items():
        if o not in dmap:
            yield o, list(ins)


class _TopoOrder:
    """The nodes as a linked list in a valid topological order, with integer labels
    increasing along the list so that "is a before b" is one comparison.

    Moving a run of nodes relabels only a neighbourhood: the window around the
    run widens (doubling) until its label range leaves every node at least
    ``MIN_GAP`` apart, so repeated insertions at one spot stay cheap on average.
    """

    GAP = 1 << 32
    MIN_GAP = 1 << 12

    def __init__(self) -> None:
        self.label: dict[Apply, int] = {}
        self.prev: dict[Apply, Apply | None] = {}
        self.next: dict[Apply, Apply | None] = {}
        self.head: Apply | None = None
        self.tail: Apply | None = None

    def __contains__(self, node: object) -> bool:
        return node in self.label

    def __len__(self) -> int:
        return len(self.label)

    def __iter__(self) -> Iterator[Apply]:
        node = self.head
        while node is not None:
            yield node
            node = self.next[node]

    def append(self, node: Apply) -> None:
        tail = self.tail
        self.label[node] = 0 if tail is None else self.label[tail] + self.GAP
        self.prev[node] = tail
        self.next[node] = None
        if tail is None:
            self.head = node
        else:
            self.next[tail] = node
        self.tail = node

    def insert_after(self, node: Apply, after: Apply | None) -> None:
        """Insert ``node`` (not in the order yet) just after ``after``, or first
        when ``after`` is ``None``."""
        right = self.head if after is None else self.next[after]
        if right is None:
            self.append(node)
            return
        self.prev[node] = after
        self.next[node] = right
        self.prev[right] = node
        if after is None:
            self.head = node
        else:
            self.next[after] = node
        self.label[node] = 0  # set by _relabel
        self._relabel(node, node, 1)

    def remove(self, node: Apply) -> None:
        before = self.prev.pop(node)
        after = self.next.pop(node)
        del self.label[node]
        if before is None:
            self.head = after
        else:
            self.next[before] = after
        if after is None:
            self.tail = before
        else:
            self.prev[after] = before

    def move(
        self, nodes: Sequence[Apply], *, before: Apply | None = None, after: Apply | None = None
    ) -> None:
        """Move ``nodes`` (kept in this order) to sit just before ``before`` or just
        after ``after``; neither may be among ``nodes``."""
        for node in nodes:
            self.remove(node)
        if after is not None:
            left, right = after, self.next[after]
        else:
            assert before is not None
            left, right = self.prev[before], before
        prev = left
        for node in nodes:
            self.prev[node] = prev
            if prev is None:
                self.head = node
            else:
                self.next[prev] = node
            prev = node
        assert prev is not None
        self.next[prev] = right
        if right is None:
            self.tail = prev
        else:
            self.prev[right] = prev
        self._relabel(nodes[0], nodes[-1], len(nodes))

    def _relabel(self, first: Apply, last: Apply, count: int) -> None:
        """Give the ``count`` nodes from ``first`` to ``last`` labels strictly between
        their neighbours', widening the window when the gap is too small."""
        label = self.label
        lo_node, hi_node = self.prev[first], self.next[last]
        step = 1
        while True:
            if lo_node is None and hi_node is None:
                lo, hi = 0, (count + 1) * self.GAP
                break
            if lo_node is None:
                hi = label[hi_node]  # type: ignore[index]
                lo = hi - (count + 1) * self.GAP
                break
            if hi_node is None:
                lo = label[lo_node]
                hi = lo + (count + 1) * self.GAP
                break
            lo, hi = label[lo_node], label[hi_node]
            if hi - lo >= (count + 1) * self.MIN_GAP:
                break
            for _ in range(step):
                if lo_node is not None:
                    first, lo_node = lo_node, self.prev[lo_node]
                    count += 1
                if hi_node is not None:
                    last, hi_node = hi_node, self.next[hi_node]
                    count += 1
            step *= 2
        node: Apply | None = first
        span = hi - lo
        for j in range(count):
            assert node is not None
            label[node] = lo + span * (j + 1) // (count + 1)
            node = self.next[node]


class DestroyHandler(Feature):
    """Checks that inplace operations (``destroy_map``) are safe and orders them
    after every reader of the buffers they overwrite.

    Attaching it adds to the graph:

    - ``fgraph.destroy_handler``: this handler (rewriters test for it);
    - ``fgraph.destroyers(var)``: the nodes that destroy ``var``'s buffer
      (the root it aliases, through ``view_map`` chains);
    - ``fgraph.has_destroyers(vars)``: whether any of ``vars`` lives in a
      buffer some node destroys, so its value would be clobbered.

    ``validate`` raises :class:`~lazygraph.graph.fg.InconsistencyError` when a
    rule in this module's docstring is broken, and ``orderings`` tells
    :meth:`FunctionGraph.toposort` to run each destroyer after the other
    readers of its buffer. Graph inputs are protected unless donated:
    ``donated_inputs`` holds input positions (robust to the graph being cloned)
    or the input variables themselves.

    >>> from lazygraph.graph.basic import Apply, Op, Type
    >>> from lazygraph.graph.features import ReplaceValidate
    >>> class Neg(Op):
    ...     def make_node(self, x):
    ...         return Apply(self, [x], [x.type()])
    >>> class NegInplace(Neg):
    ...     destroy_map = {0: [0]}
    >>> x = Type()("x")
    >>> y = Neg()(x)
    >>> fg = FunctionGraph([x], [Neg()(y), Neg()(y)], clone=False)
    >>> fg.attach_feature(ReplaceValidate())
    >>> fg.attach_feature(DestroyHandler())
    >>> # Overwriting y in the first reader would clobber the second's input...
    >>> fg.replace_validate(fg.outputs[0], NegInplace()(y))
    >>> # ...so the second reader is ordered first.
    >>> [type(n.op).__name__ for n in fg.toposort()]
    ['Neg', 'Neg', 'NegInplace']
    >>> fg.destroyers(y) == [fg.outputs[0].owner], fg.has_destroyers([fg.outputs[1]])
    (True, False)
    >>> # Destroying the input x is refused: it is not donated.
    >>> fg.replace_validate(y, NegInplace()(x))
    Traceback (most recent call last):
    ...
    lazygraph.graph.fg.InconsistencyError: NegInplace destroys graph input x, which is not donated
    >>> fg.destroy_handler.donate(0)
    >>> fg.replace_validate(y, NegInplace()(x))
    >>> len(fg.destroyers(x))
    1
    """

    def __init__(self, donated_inputs: Iterable[int | Variable] = ()) -> None:
        self._donated_spec: tuple[int | Variable, ...] = tuple(donated_inputs)
        self.fgraph: FunctionGraph | None = None
        self._reset()

    # -- state ---------------------------------------------------------------

    def _reset(self) -> None:
        self._donated: set[Variable] = set()
        # View forest, following view_map only. `_root` caches each view's root so
        # lookups are O(1); re-rooting a subtree rewrites exactly that subtree.
        self._view_parent: dict[Variable, Variable] = {}
        self._view_children: dict[Variable, set[Variable]] = {}
        self._root: dict[Variable, Variable] = {}
        # Destroy claims: root -> {(destroyer, input index)}, and the root each
        # claim was filed under (so removal works after the variable is gone).
        self._claims: dict[Variable, set[tuple[Apply, int]]] = {}
        self._claim_root: dict[tuple[Apply, int], Variable] = {}
        self._multi_view: set[Apply] = set()
        # Graph-output slots per variable; `_n_outputs` counts the outputs seen
        # (on_add_output, and validate as a catch-up for graphs that append to
        # fgraph.outputs directly).
        self._outputs: dict[Variable, int] = {}
        self._n_outputs = 0
        self._order = _TopoOrder()
        # Edges (before, after) present in the graph but not yet reflected in
        # `_order`: a change that would close a cycle leaves its edge here, and
        # validate retries it (the graph may have changed back since).
        self._unverified: set[Edge] = set()
        # Roots whose rule checks must be redone, and the current failures.
        self._dirty: set[Variable] = set()
        self._violations: dict[Variable, str] = {}

    def _root_of(self, var: Variable) -> Variable:
        return self._root.get(var, var)

    @property
    def donated(self) -> frozenset[Variable]:
        """The graph inputs that destroyers may overwrite."""
        return frozenset(self._donated)

    def _resolve(self, fgraph: FunctionGraph, spec: Iterable[int | Variable]) -> list[Variable]:
        result = []
        for item in spec:
            if isinstance(item, int):
                if not -len(fgraph.inputs) <= item < len(fgraph.inputs):
                    raise ValueError(f"donated input {item} is out of range")
                result.append(fgraph.inputs[item])
            elif any(item is inp for inp in fgraph.inputs):
                result.append(item)
            else:
                raise ValueError(
                    f"donated {item} is not an input of the graph (if the graph was cloned, "
                    f"donate inputs by position)"
                )
        return result

    def donate(self, *inputs: int | Variable) -> None:
        """Allow destroyers to overwrite these graph inputs (positions or variables)."""
        if self.fgraph is None:
            self._donated_spec += inputs
            return
        for var in self._resolve(self.fgraph, inputs):
            self._donated.add(var)
            self._dirty.add(var)

    # -- attach / detach ----------------------------------------------------

    def on_attach(self, fgraph: FunctionGraph) -> None:
        if hasattr(fgraph, "destroy_handler"):
            raise AlreadyThere("a DestroyHandler is already attached")
        if self.fgraph is not None and self.fgraph is not fgraph:
            raise ValueError("a DestroyHandler serves one FunctionGraph at a time")
        self._reset()
        self._donated.update(self._resolve(fgraph, self._donated_spec))
        self.fgraph = fgraph
        fgraph.destroy_handler = self  # type: ignore[attr-defined]
        fgraph.destroyers = self.destroyers  # type: ignore[attr-defined]
        fgraph.has_destroyers = self.has_destroyers  # type: ignore[attr-defined]

        nodes = fgraph._data_order()  # (kept by the graph: no walk when unchanged)
        for node in nodes:
            self._add_node(node)
        self._sync_outputs(fgraph)
        try:
            orderings = self.orderings(fgraph)
            order = io_toposort(fgraph.inputs, fgraph.outputs, orderings) if orderings else nodes
        except ValueError:
            # Already inconsistent: start from the data order and let the ordering
            # edges that cannot fit wait in `_unverified` for validate to report.
            for node in nodes:
                self._order.append(node)
            edges = [(r, d) for d, rs in self.orderings(fgraph).items() for r in rs]
            self._check_edges(edges)
        else:
            for node in order:
                self._order.append(node)
        self._dirty.update(self._claims)

    def on_detach(self, fgraph: FunctionGraph) -> None:
        del fgraph.destroy_handler  # type: ignore[attr-defined]
        del fgraph.destroyers  # type: ignore[attr-defined]
        del fgraph.has_destroyers  # type: ignore[attr-defined]
        self.fgraph = None
        self._reset()

    def clone(self) -> DestroyHandler:
        """A fresh handler donating the same input positions (for ``fgraph.clone``)."""
        if self.fgraph is None:
            return DestroyHandler(self._donated_spec)
        inputs = self.fgraph.inputs
        return DestroyHandler([i for i, v in enumerate(inputs) if v in self._donated])

    # -- bookkeeping ---------------------------------------------------------

    def _add_node(self, node: Apply) -> None:
        """Record ``node``'s views and claims (not its place in the order)."""
        op = node.op
        for o, ins in _view_pairs(op):
            if len(ins) != 1:
                self._multi_view.add(node)
                continue
            self._relink_view(node.outputs[o], node.inputs[ins[0]])
        for i in _destroyed_inputs(op):
            self._add_claim(node, i, self._root_of(node.inputs[i]))
        for inp in node.inputs:
            self._dirty.add(self._root_of(inp))

    def _add_claim(self, node: Apply, i: int, root: Variable) -> None:
        self._claims.setdefault(root, set()).add((node, i))
        self._claim_root[(node, i)] = root
        self._dirty.add(root)

    def _remove_claim(self, node: Apply, i: int) -> None:
        root = self._claim_root.pop((node, i), None)
        if root is None:
            return
        claims = self._claims.get(root)
        if claims is not None:
            claims.discard((node, i))
            if not claims:
                del self._claims[root]
        self._dirty.add(root)

    def _relink_view(self, view: Variable, parent: Variable) -> tuple[list[Variable], list[Apply]]:
        """Make ``view`` a view of ``parent``; return the variables whose root changed
        and the destroyers whose claims moved with them."""
        old_parent = self._view_parent.get(view)
        if old_parent is not None:
            siblings = self._view_children.get(old_parent)
            if siblings is not None:
                siblings.discard(view)
                if not siblings:
                    del self._view_children[old_parent]
        self._view_parent[view] = parent
        self._view_children.setdefault(parent, set()).add(view)
        new_root = self._root_of(parent)
        old_root = self._root.get(view)
        if old_root is new_root:
            return [], []
        if old_root is not None:
            self._dirty.add(old_root)
        self._dirty.add(new_root)
        moved: list[Variable] = []
        stack = [view]
        seen = {view}
        while stack:
            v = stack.pop()
            self._root[v] = new_root
            moved.append(v)
            for child in self._view_children.get(v, ()):
                # A view cycle (only in a graph with a data cycle) must not loop.
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
        moved_claims: list[Apply] = []
        clients = self.fgraph.clients if self.fgraph is not None else {}
        for v in moved:
            for client, i in clients.get(v, ()):
                if type(client) is not str and (client, i) in self._claim_root:
                    assert isinstance(client, Apply)
                    self._remove_claim(client, i)
                    self._add_claim(client, i, new_root)
                    moved_claims.append(client)
        return moved, moved_claims

    def _family(self, root: Variable) -> Iterator[Variable]:
        """``root`` and every variable that views it, directly or not."""
        stack = [root]
        seen = {root}
        while stack:
            v = stack.pop()
            yield v
            for child in self._view_children.get(v, ()):
                if child not in seen:
                    seen.add(child)
                    stack.append(child)

    def _readers(self, root: Variable) -> Iterator[Apply]:
        """Nodes reading ``root`` or a view of it (with repeats)."""
        clients = self.fgraph.clients if self.fgraph is not None else {}
        for v in self._family(root):
            for client, _ in clients.get(v, ()):
                if type(client) is not str:
                    yield client  # type: ignore[misc]

    def _sync_outputs(self, fgraph: FunctionGraph) -> None:
        outputs = fgraph.outputs
        while self._n_outputs < len(outputs):
            var = outputs[self._n_outputs]
            self._outputs[var] = self._outputs.get(var, 0) + 1
            self._dirty.add(self._root_of(var))
            self._n_outputs += 1

    # -- callbacks -----------------------------------------------------------

    def on_import(self, fgraph: FunctionGraph, node: Apply, reason: str | None) -> None:
        self._add_node(node)
        # Placed just after the latest of its inputs' owners and of the other
        # readers of what it destroys: it then follows everything that must
        # precede it, and precedes the readers of the node it usually replaces
        # (appending it last would make each of their rewires a backward edge).
        # Only its own reads of destroyed buffers can go backwards.
        label = self._order.label
        after: Apply | None = None
        best = -1 << 62
        for inp in node.inputs:
            owner = inp.owner
            if owner is not None:
                lab = label.get(owner)
                if lab is not None and lab > best:
                    best, after = lab, owner
        for i in _destroyed_inputs(node.op):
            root = self._claim_root.get((node, i))
            if root is not None:
                for r in self._readers(root):
                    lab = label.get(r)
                    if lab is not None and lab > best and r is not node:
                        best, after = lab, r
        self._order.insert_after(node, after)
        edges = [
            (node, d)
            for inp in node.inputs
            for d, _ in self._claims.get(self._root_of(inp), ())
            if d is not node
        ]
        self._check_edges(edges)

    def on_add_output(
        self, fgraph: FunctionGraph, var: Variable, index: int, reason: str | None
    ) -> None:
        self._sync_outputs(fgraph)

    def on_prune(self, fgraph: FunctionGraph, node: Apply, reason: str | None) -> None:
        if node in self._order:
            self._order.remove(node)
        for i in _destroyed_inputs(node.op):
            self._remove_claim(node, i)
        self._multi_view.discard(node)
        for o in node.outputs:
            parent = self._view_parent.pop(o, None)
            if parent is not None:
                siblings = self._view_children.get(parent)
                if siblings is not None:
                    siblings.discard(o)
                    if not siblings:
                        del self._view_children[parent]
            # Any view of `o` still recorded belongs to the node whose input change
            # is in flight; its on_change_input relinks it.
            self._view_children.pop(o, None)
            self._dirty.add(self._root.pop(o, o))
        for inp in node.inputs:
            self._dirty.add(self._root_of(inp))

    def on_change_input(
        self,
        fgraph: FunctionGraph,
        node: Any,
        i: int,
        old_var: Variable,
        new_var: Variable,
        reason: str | None,
    ) -> None:
        if type(node) is str:  # a graph output slot
            left = self._outputs.get(old_var, 0) - 1
            if left > 0:
                self._outputs[old_var] = left
            else:
                self._outputs.pop(old_var, None)
            self._outputs[new_var] = self._outputs.get(new_var, 0) + 1
            self._dirty.add(self._root_of(old_var))
            self._dirty.add(self._root_of(new_var))
            return
        assert isinstance(node, Apply)
        op = node.op
        edges: list[Edge] = []
        if new_var.owner is not None and new_var.owner in self._order:
            edges.append((new_var.owner, node))
        self._dirty.add(self._root_of(old_var))
        for o, ins in _view_pairs(op):
            if len(ins) != 1 or ins[0] != i:
                continue
            moved, moved_claims = self._relink_view(node.outputs[o], new_var)
            root = self._root_of(new_var)
            claimers = [d for d, _ in self._claims.get(root, ())]
            for v in moved:
                for client, _ in fgraph.clients.get(v, ()):
                    if type(client) is not str:
                        edges.extend((client, d) for d in claimers if d is not client)  # type: ignore[misc]
            for d in moved_claims:
                edges.extend((r, d) for r in self._readers(root) if r is not d)
        destroyed = _destroyed_inputs(op)
        new_root = self._root_of(new_var)
        if i in destroyed:
            self._remove_claim(node, i)
            self._add_claim(node, i, new_root)
            edges.extend((r, node) for r in self._readers(new_root) if r is not node)
        edges.extend((node, d) for d, _ in self._claims.get(new_root, ()) if d is not node)
        # The node's other inputs may now alias what it destroys.
        for j in destroyed:
            root = self._claim_root.get((node, j))
            if root is not None:
                self._dirty.add(root)
        self._dirty.add(new_root)
        self._check_edges(edges)

    # -- the order and cycles -----------------------------------------------

    def _successors(self, node: Apply) -> Iterator[Apply]:
        clients = self.fgraph.clients  # type: ignore[union-attr]
        for o in node.outputs:
            for client, _ in clients.get(o, ()):
                if type(client) is not str:
                    yield client  # type: ignore[misc]
        for inp in node.inputs:
            for d, _ in self._claims.get(self._root.get(inp, inp), ()):
                if d is not node:
                    yield d

    def _predecessors(self, node: Apply) -> Iterator[Apply]:
        for inp in node.inputs:
            if inp.owner is not None:
                yield inp.owner
        for i in _destroyed_inputs(node.op):
            root = self._claim_root.get((node, i))
            if root is not None:
                for r in self._readers(root):
                    if r is not node:
                        yield r

    def _check_edges(self, edges: Iterable[Edge]) -> None:
        """Fit new edges into the order; leave those that would close a cycle in
        ``_unverified``."""
        label = self._order.label
        backwards = [(u, v) for u, v in edges if not label[u] < label[v]]
        if not backwards:
            return
        # All go in first, so that fitting one never searches through another
        # that the order does not respect yet.
        self._unverified.update(backwards)
        for edge in backwards:
            if edge in self._unverified and self._fit_edge(*edge):
                self._unverified.discard(edge)

    def _fit_edge(self, u: Apply, v: Apply) -> bool:
        """Reorder so that ``u`` comes before ``v``; ``False`` if ``v`` reaches ``u``.

        Searches forward from ``v`` (nodes labelled below ``u``) and backward from
        ``u`` (nodes labelled above ``v``) in lockstep; the first to finish has
        found the nodes to move, so the work is bounded by the smaller side. Any
        path from ``v`` to ``u`` lies within those label bounds, so a search that
        finishes without meeting the other end proves there is no cycle.
        """
        label = self._order.label
        lu, lv = label[u], label[v]
        if lu < lv:
            return True
        if u is v:
            return False
        skip = self._unverified
        fwd_stack, fwd_seen = [v], {v}
        bwd_stack, bwd_seen = [u], {u}
        while True:
            if not fwd_stack:
                run = sorted(fwd_seen, key=label.__getitem__)
                self._order.move(run, after=u)
                return True
            x = fwd_stack.pop()
            for y in self._successors(x):
                if y is u:
                    if (x, y) in skip:
                        continue
                    return False
                if y not in fwd_seen and (x, y) not in skip:
                    ly = label.get(y)
                    if ly is not None and ly < lu:
                        fwd_seen.add(y)
                        fwd_stack.append(y)
            if not bwd_stack:
                run = sorted(bwd_seen, key=label.__getitem__)
                self._order.move(run, before=v)
                return True
            x = bwd_stack.pop()
            for y in self._predecessors(x):
                if y is v:
                    if (y, x) in skip:
                        continue
                    return False
                if y not in bwd_seen and (y, x) not in skip:
                    ly = label.get(y)
                    if ly is not None and ly > lv:
                        bwd_seen.add(y)
                        bwd_stack.append(y)

    def _edge_exists(self, u: Apply, v: Apply) -> bool:
        if u not in self._order or v not in self._order:
            return False
        if any(inp.owner is u for inp in v.inputs):
            return True
        if u is v:
            return False
        roots = {self._claim_root.get((v, i)) for i in _destroyed_inputs(v.op)}
        roots.discard(None)
        return any(self._root_of(inp) in roots for inp in u.inputs)

    # -- rules ---------------------------------------------------------------

    def _check_root(self, root: Variable) -> None:
        claims = self._claims.get(root)
        if not claims:
            self._violations.pop(root, None)
            return
        reason = self._violation(root, claims)
        if reason is None:
            self._violations.pop(root, None)
        else:
            self._violations[root] = reason

    def _violation(self, root: Variable, claims: set[tuple[Apply, int]]) -> str | None:
        if len(claims) > 1:
            names = sorted(str(d.op) for d, _ in claims)
            return f"{root} is destroyed by more than one node ({', '.join(names)})"
        ((node, i),) = claims
        what = f"{node.op} destroys"
        if isinstance(root, Constant):
            return f"{what} constant {root} (directly or through a view)"
        if root.owner is None and root not in self._donated:
            return f"{what} graph input {root}, which is not donated"
        for v in self._family(root):
            if self._outputs.get(v):
                return f"{what} {v}, which is (or views) a graph output"
        destroyed = node.inputs[i]
        same = getattr(node.op, "destroyhandler_tolerate_same", ())
        aliased = getattr(node.op, "destroyhandler_tolerate_aliased", ())
        for j, inp in enumerate(node.inputs):
            if j == i or self._root_of(inp) is not root:
                continue
            if (i, j) in aliased or (inp is destroyed and (i, j) in same):
                continue
            return (
                f"{what} input {i} ({destroyed}) and reads the same buffer through "
                f"input {j} ({inp})"
            )
        return None

    def validate(self, fgraph: FunctionGraph) -> bool:
        """Raise :class:`InconsistencyError` if the graph breaks an inplace rule.

        Only the buffers touched since the last call are rechecked.
        """
        self._sync_outputs(fgraph)
        for root in self._dirty:
            self._check_root(root)
        self._dirty.clear()
        for edge in list(self._unverified):
            if not self._edge_exists(*edge) or self._fit_edge(*edge):
                self._unverified.discard(edge)
        # The specific rules first: two destroyers of one buffer also order each
        # other both ways, but "more than one destroyer" is the useful message.
        if self._multi_view:
            node = next(iter(self._multi_view))
            raise InconsistencyError(
                f"{node.op} has an output viewing several inputs; DestroyHandler does not "
                f"support that"
            )
        if self._violations:
            raise InconsistencyError(min(self._violations.values()))
        if self._unverified:
            u, v = min(self._unverified, key=lambda e: (str(e[0]), str(e[1])))
            raise InconsistencyError(
                f"dependency cycle: {u} must run before {v}, which depends on it (a reader "
                f"of a destroyed buffer would see clobbered data, or the graph is cyclic)"
            )
        return True

    # -- queries -------------------------------------------------------------

    def orderings(self, fgraph: FunctionGraph) -> dict[Apply, list[Apply]]:
        """``{destroyer: [other readers of its buffer and its views]}``."""
        result: dict[Apply, list[Apply]] = {}
        for root, claims in self._claims.items():
            readers: list[Apply] | None = None
            for d, _ in claims:
                if readers is None:
                    readers = list(dict.fromkeys(self._readers(root)))
                before = [r for r in readers if r is not d]
                if before:
                    result.setdefault(d, []).extend(before)
        return result

    def destroyers(self, var: Variable) -> list[Apply]:
        """The nodes that overwrite the buffer ``var`` lives in."""
        claims = self._claims.get(self._root_of(var), ())
        return list(dict.fromkeys(d for d, _ in claims))

    def has_destroyers(self, protected: Iterable[Variable]) -> bool:
        """Whether some node overwrites the buffer of any of ``protected``."""
        return any(self._claims.get(self._root_of(v)) for v in protected)

    def root(self, var: Variable) -> Variable:
        """The variable owning the memory ``var`` aliases (``var`` itself if none)."""
        return self._root_of(var)
