"""Sorting, searching and ranking.

Style: a "numpy sorting tutorial" (Python Data Science Handbook, chapter 2,
"Sorting Arrays"): np.sort and ndarray.sort in place, argsort and ranks,
partial sorts with partition/argpartition, lexsort for multi-key ordering,
searchsorted for insertion points, and a hand-written selection sort
checked against np.sort.
"""

import numpy as _numpy


def selection_sort(np, x):
    x = x.copy()
    for i in range(len(x)):
        swap = i + np.argmin(x[i:])
        (x[i], x[swap]) = (x[swap], x[i])
    return x


def main(np):
    rng = _numpy.random.default_rng(42)
    x = np.asarray(rng.integers(0, 100, size=20))
    by_hand = selection_sort(np, x[:10])
    print(f"selection sort: {by_hand.tolist()}")
    print(f"matches np.sort: {bool(np.all(by_hand == np.sort(x[:10])))}")

    s = np.sort(x)
    order = np.argsort(x, kind="stable")
    print(f"sorted: {s.tolist()}")
    print(f"argsort: {order.tolist()}")
    ranks = np.empty_like(order)
    ranks[order] = np.arange(len(x))
    print(f"ranks: {ranks.tolist()}")
    descending = x[np.argsort(-x, kind="stable")]
    print(f"top five: {descending[:5].tolist()}")

    y = x.copy()
    y.sort()
    print(f"in-place sort equals np.sort: {bool(np.array_equal(y, s))}")

    M = np.asarray(rng.integers(0, 10, size=(4, 6)))
    print(
        f"sort columns: {np.sort(M, axis=0)[0].tolist()} "
        f"sort rows: {np.sort(M, axis=1)[:, -1].tolist()}"
    )
    by_second_column = M[M[:, 1].argsort(kind="stable")]
    print(f"rows ordered by column 1: {by_second_column[:, 1].tolist()}")

    # partial sorting
    k = 3
    part = np.partition(x, k)
    smallest_k = np.sort(part[:k])
    idx = np.argpartition(x, -k)[-k:]
    largest_k = np.sort(x[idx])
    print(f"{k} smallest {smallest_k.tolist()} {k} largest {largest_k.tolist()}")

    # multi-key ordering: by surname then first name
    surnames = np.array([3, 1, 2, 1, 3, 2])
    first = np.array([2, 2, 1, 1, 1, 2])
    lex = np.lexsort((first, surnames))
    print(f"lexsort order {lex.tolist()}")

    # searchsorted on sorted data
    grid = np.linspace(0.0, 1.0, 11)
    values = np.asarray(rng.random(8))
    left = np.searchsorted(grid, values)
    right = np.searchsorted(grid, np.array([0.0, 0.5, 1.0]), side="right")
    print(f"searchsorted left {left.tolist()} right {right.tolist()}")
    ins = np.searchsorted(s, 50)
    print(f"50 would go at {int(ins)}")

    # argmax / argmin / unravel_index
    field = np.asarray(rng.normal(size=(5, 7)))
    flat_max = int(np.argmax(field))
    r, c = np.unravel_index(flat_max, field.shape)
    print(
        f"max at ({int(r)}, {int(c)}) = {field[r, c]:.6f}; "
        f"row argmins {field.argmin(axis=1).tolist()}"
    )

    # unique with everything
    vals, first_idx, inverse, counts = np.unique(
        x, return_index=True, return_inverse=True, return_counts=True
    )
    print(f"{len(vals)} unique values; most common {int(vals[np.argmax(counts)])}")
    print(f"inverse reconstructs: {bool(np.array_equal(vals[inverse], x))}")

    # sorting floats with NaN goes last
    with_nan = np.array([3.0, np.nan, 1.0, 2.0, np.nan])
    print(
        f"sorted with NaN: {np.sort(with_nan).tolist()}, "
        f"nanargmax-free argmax {int(np.argmax(with_nan))}"
    )

    return {
        "by_hand": by_hand,
        "s": s,
        "order": order,
        "ranks": ranks,
        "descending": descending,
        "y": y,
        "by_second_column": by_second_column,
        "smallest_k": smallest_k,
        "largest_k": largest_k,
        "lex": lex,
        "left": left,
        "right": right,
        "ins": ins,
        "flat_max": flat_max,
        "vals": vals,
        "first_idx": first_idx,
        "inverse": inverse,
        "counts": counts,
        "sorted_nan": np.sort(with_nan),
    }
