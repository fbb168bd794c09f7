"""Pytrees: nested tuples, lists and dicts (and ``None``) with values at the leaves.

The function transforms take and return pytrees. :func:`flatten` lists the
leaves and a hashable description of the structure; :func:`unflatten` puts
new leaves back into that structure. Dicts are walked in sorted key order and
named tuples keep their class, as in JAX.

>>> leaves, tree = flatten({"b": (1, 2.0), "a": [None, 3]})
>>> leaves
[3, 1, 2.0]
>>> unflatten(tree, ["x", "y", "z"])
{'a': [None, 'x'], 'b': ('y', 'z')}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

__all__: list[str] = []

#: The tree of a single leaf.
LEAF = "*"


def flatten(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> tuple[list[Any], Any]:
    """The leaves of ``tree`` (depth first, dict keys sorted) and its structure.

    ``is_leaf(x)`` may declare more things leaves (checked before the
    containers). The structure is hashable whenever dict keys are.
    """
    leaves: list[Any] = []
    return leaves, _flatten(tree, leaves, is_leaf)


def _flatten(tree: Any, leaves: list[Any], is_leaf: Callable[[Any], bool] | None) -> Any:
    if is_leaf is not None and is_leaf(tree):
        leaves.append(tree)
        return LEAF
    kind = type(tree)
    if kind is tuple or kind is list:
        return (kind, tuple(_flatten(c, leaves, is_leaf) for c in tree))
    if kind is dict:
        try:
            keys = tuple(sorted(tree))
        except TypeError:
            keys = tuple(tree)
        return (dict, keys, tuple(_flatten(tree[k], leaves, is_leaf) for k in keys))
    if tree is None:
        return None
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):  # a named tuple
        return (kind, tuple(_flatten(c, leaves, is_leaf) for c in tree))
    leaves.append(tree)
    return LEAF


def unflatten(treedef: Any, leaves: Iterable[Any]) -> Any:
    """``treedef`` (from :func:`flatten`) rebuilt with ``leaves`` in order."""
    return _unflatten(treedef, iter(leaves))


def _unflatten(treedef: Any, leaves: Iterator[Any]) -> Any:
    if treedef == LEAF:
        return next(leaves)
    if treedef is None:
        return None
    kind = treedef[0]
    if kind is dict:
        return {k: _unflatten(c, leaves) for k, c in zip(treedef[1], treedef[2], strict=True)}
    children = [_unflatten(c, leaves) for c in treedef[1]]
    if kind is list:
        return children
    if kind is tuple:
        return tuple(children)
    return kind(*children)


def num_leaves(treedef: Any) -> int:
    """How many leaves a tree of structure ``treedef`` has."""
    if treedef == LEAF:
        return 1
    if treedef is None:
        return 0
    return sum(num_leaves(c) for c in treedef[-1])
