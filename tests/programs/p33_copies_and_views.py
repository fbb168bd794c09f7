"""Copies and views: which writes reach the original array.

Style: the numpy quickstart's "Copies and Views" section and the user guide
page of the same name: no copy at all (b = a), views from .view(), slicing,
reshape and transposes whose writes show through in the parent, fancy and
boolean indexing that copy, .copy() before mutation, np.shares_memory and
.base, and the classic "modify a function argument in place" surprise.
"""


def normalise_in_place(np, x):
    x -= x.mean()
    x /= x.std()


def main(np):
    a = np.arange(12)
    b = a
    print(f"b is a: {b is a}")
    b[0] = 100
    print(f"write through an alias: a[0] = {int(a[0])}")

    c = a.view()
    print(f"view: c is a {c is a}, c.base is a {c.base is a}, owndata {c.flags.owndata}")
    c = c.reshape((2, 6))
    print(f"a.shape stays {a.shape}")
    c[0, 4] = 1234
    print(f"write through a reshaped view: a[4] = {int(a[4])}")

    m = np.arange(12).reshape(3, 4)
    s = m[:, 1:3]
    s[:] = 10
    print(f"slice assignment reaches the parent: {m.tolist()}")
    t = m.T
    t[0, 2] = -7
    print(f"transpose view: m[2, 0] = {int(m[2, 0])}")
    row = m[1]
    row *= 2
    print(f"row view scaled in place: {m[1].tolist()}")
    r = m.ravel()
    r[-1] = 99
    print(f"ravel of a contiguous array is a view: m[-1, -1] = {int(m[-1, -1])}")

    d = m.copy()
    d[0, 0] = 555
    print(f"copy is independent: m[0, 0] = {int(m[0, 0])}, shares memory {np.shares_memory(d, m)}")

    f = m[[0, 2]]
    f[:] = 0
    g = m[m > 5]
    g[:] = -1
    print(f"fancy and boolean indexing copy: m unchanged {m.tolist()}")
    m[m > 50] = 50
    print(f"but assigning through a mask writes: {m.tolist()}")

    x = np.linspace(0, 1, 5)
    normalise_in_place(np, x)
    print(f"argument mutated in place: {[round(v, 6) for v in x.tolist()]}")

    big = np.arange(1_000)
    small = big[:10].copy()
    del big
    print(f"a copied slice outlives its parent: {small.tolist()}")

    grid = np.zeros((4, 4))
    for i in range(4):
        grid[i][i] = i + 1
    print(f"chained indexing grid[i][i] writes: trace {np.trace(grid):.1f}")
    col = grid[:, 0]
    col += 5
    print(f"column view: grid[:, 0] = {grid[:, 0].tolist()}")

    return {"a": a, "c": c, "m": m, "d": d, "x": x, "small": small, "grid": grid}
