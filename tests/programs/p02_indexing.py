"""Indexing, slicing, fancy indexing and boolean masks.

Style: the numpy quickstart's "Indexing, Slicing and Iterating" and the user
guide's "Indexing on ndarrays": negative steps, multi-dimensional slices,
integer-array indexing, boolean masks with in-place assignment, np.where,
np.nonzero, np.ix_ and iteration over rows.
"""

import numpy as _numpy


def main(np):
    a = np.arange(10) ** 3
    print(f"a[2]={a[2]} a[2:5]={a[2:5].tolist()} a[::-1][:3]={a[::-1][:3].tolist()}")
    a[:6:2] = 1000
    print(f"after a[:6:2] = 1000: {a.tolist()}")

    b = 10 * np.arange(5)[:, np.newaxis] + np.arange(4)
    print(f"b[2, 3]={b[2, 3]} b[0:5, 1]={b[0:5, 1].tolist()} b[1:3, :]={b[1:3, :].tolist()}")
    print(f"b[-1]={b[-1].tolist()} b[..., 2]={b[..., 2].tolist()}")

    row_sums = []
    for row in b:
        row_sums.append(int(row.sum()))
    print(f"row sums by iteration: {row_sums}")
    flat_total = 0
    for element in b.flat:
        flat_total += int(element)
    print(f"flat total: {flat_total}")

    # integer-array (fancy) indexing
    x = np.arange(12) ** 2
    idx = np.array([1, 1, 3, 8, 5])
    j = np.array([[3, 4], [9, 7]])
    print(f"x[idx]={x[idx].tolist()} x[j]={x[j].tolist()}")

    palette = np.array([[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]])
    image = np.array([[0, 1, 2, 0], [0, 3, 4, 0]])
    rgb = palette[image]
    print(f"palette lookup shape={rgb.shape} sum={int(rgb.sum())}")

    m = np.arange(12).reshape(3, 4)
    rows = np.array([[0, 1], [1, 2]])
    cols = np.array([[2, 1], [3, 3]])
    print(f"m[rows, cols]={m[rows, cols].tolist()} m[rows, 2]={m[rows, 2].tolist()}")
    m2 = m.copy()
    m2[[0, 2], [1, 3]] = -1
    print(f"after fancy assignment: {m2.tolist()}")

    # repeated indices in assignment: last wins
    r = np.arange(5)
    r[[0, 0, 2]] = [1, 2, 3]
    print(f"repeated-index assignment: {r.tolist()}")

    # boolean masks
    rng = _numpy.random.default_rng(7)
    data = np.asarray(rng.normal(size=(6, 5)))
    mask = data > 0.5
    print(f"{int(mask.sum())} values above 0.5, mean {data[mask].mean():.6f}")
    clipped = data.copy()
    clipped[clipped < 0] = 0
    clipped[clipped > 1] = 1
    print(f"clipped sum {clipped.sum():.6f}")
    rows_with_big = np.any(data > 1.5, axis=1)
    print(f"rows with a value above 1.5: {np.nonzero(rows_with_big)[0].tolist()}")
    selected = data[rows_with_big, :2]
    print(f"selected shape {selected.shape}")
    col_mask = np.array([True, False, True, False, True])
    print(f"boolean column selection shape {data[:, col_mask].shape}")

    # np.where in its three forms
    signs = np.where(data >= 0, 1, -1)
    rr, cc = np.where(data > 1.0)
    positions = list(zip(rr.tolist(), cc.tolist(), strict=True))
    print(f"signs sum {int(signs.sum())}, positions {positions}")
    big = np.argwhere(np.abs(data) > 1.2)
    print(f"argwhere shape {big.shape}")

    # np.ix_ for cross-product indexing
    sub = m[np.ix_([0, 2], [1, 2, 3])]
    print(f"ix_ block {sub.tolist()}")

    # slices are views in numpy: writing through one changes the parent
    v = np.zeros((4, 4))
    view = v[1:3, 1:3]
    view += 5
    print(f"write through a view: parent sum {v.sum()}")
    diag = np.arange(16).reshape(4, 4)
    diag[np.arange(4), np.arange(4)] = 0
    print(f"zeroed diagonal, sum {int(diag.sum())}")

    # take / take_along_axis / put_along style
    order = np.argsort(data, axis=1)
    smallest = np.take_along_axis(data, order[:, :1], axis=1)
    taken = np.take(x, [0, -1, 2])
    print(f"taken {taken.tolist()}, smallest per row sum {smallest.sum():.6f}")

    return {
        "a": a,
        "b": b,
        "row_sums": row_sums,
        "flat_total": flat_total,
        "x_idx": x[idx],
        "x_j": x[j],
        "rgb": rgb,
        "m2": m2,
        "r": r,
        "mask": mask,
        "masked": data[mask],
        "clipped": clipped,
        "selected": selected,
        "signs": signs,
        "rr": rr,
        "cc": cc,
        "big": big,
        "sub": sub,
        "v": v,
        "diag": diag,
        "smallest": smallest,
        "taken": taken,
    }
