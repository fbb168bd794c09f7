"""Shape manipulation: reshape, ravel, transpose, stacking and splitting.

Style: the numpy quickstart's "Shape Manipulation" and "Stacking together
different arrays" sections, including its np.c_ / np.r_ index tricks and
column_stack, and the "Splitting one array into several smaller ones" part.
"""

import numpy as _numpy


def main(np):
    rng = _numpy.random.default_rng(5)
    a = np.floor(10 * np.asarray(rng.random((3, 4))))
    print(f"a.shape={a.shape} ravel={a.ravel().astype(int).tolist()}")
    print(
        f"reshape(6,2) {a.reshape(6, 2).shape}, T "
        f"{a.T.shape}, reshape(3,-1) {a.reshape(3, -1).shape}"
    )
    flat_f = a.flatten(order="F")
    b = a.reshape(2, 2, 3)
    c = np.transpose(b, (2, 0, 1))
    d = np.moveaxis(b, 0, -1)
    e = b.swapaxes(0, 2)
    print(f"transpose {c.shape} moveaxis {d.shape} swapaxes {e.shape}")
    print(f"c[1, 1, 0]={c[1, 1, 0]} d[0, 1, 1]={d[0, 1, 1]}")
    s = np.squeeze(np.zeros((1, 3, 1)))
    x = np.expand_dims(np.arange(3), axis=0)
    print(f"squeeze {s.shape} expand_dims {x.shape} atleast_2d {np.atleast_2d(5).shape}")

    # in-place resize of the shape attribute is the one mutation of metadata
    g = np.arange(12)
    g = g.reshape(4, 3)
    print(f"g shape now {g.shape}")

    # stacking
    p = np.floor(10 * np.asarray(rng.random((2, 2))))
    q = np.floor(10 * np.asarray(rng.random((2, 2))))
    v = np.vstack((p, q))
    h = np.hstack((p, q))
    st0 = np.stack([p, q])
    st2 = np.stack([p, q], axis=2)
    cs = np.column_stack((np.array([4.0, 2.0]), np.array([3.0, 8.0])))
    conc = np.concatenate([p, q], axis=1)
    ds = np.dstack((p, q))
    print(f"vstack {v.shape} hstack {h.shape} stack {st0.shape} {st2.shape} dstack {ds.shape}")
    print(f"column_stack {cs.tolist()} concat equals hstack: {bool(np.array_equal(conc, h))}")

    # the quickstart's r_ and c_
    r = np.r_[1:4, 0, 4]
    c_ = np.c_[np.array([1, 2, 3]), np.array([4, 5, 6])]
    lin = np.r_[-1:1:5j]
    print(f"r_ {r.tolist()} c_ {c_.tolist()} r_ complex step {lin.tolist()}")

    # splitting
    big = np.floor(10 * np.asarray(rng.random((2, 12))))
    parts = np.hsplit(big, 3)
    cut = np.hsplit(big, (3, 4))
    pieces = np.array_split(np.arange(10), 3)
    halves = np.split(np.arange(8), 2)
    print(f"hsplit shapes {[part.shape for part in parts]} {[part.shape for part in cut]}")
    print(
        f"array_split sizes {[len(piece) for piece in pieces]} "
        f"halves {[h_.tolist() for h_ in halves]}"
    )
    top, bottom = np.vsplit(np.arange(16).reshape(4, 4), 2)
    print(f"vsplit top sum {int(top.sum())} bottom sum {int(bottom.sum())}")

    # repeat, tile, flip, roll
    t = np.tile(np.array([1, 2]), (2, 3))
    rp = np.repeat(np.array([[1, 2], [3, 4]]), [1, 2], axis=0)
    fl = np.flip(np.arange(6).reshape(2, 3), axis=1)
    ro = np.roll(np.arange(10), 3)
    print(f"tile {t.tolist()}\nrepeat {rp.tolist()}\nflip {fl.tolist()}\nroll {ro.tolist()}")

    # reshape round trip preserves the data
    w = np.arange(24).reshape(2, 3, 4)
    w2 = w.reshape(-1, 4).T.reshape(4, 2, 3)
    print(f"w2[3, 1, 2]={int(w2[3, 1, 2])} sum {int(w2.sum())}")

    return {
        "a": a,
        "flat_f": flat_f,
        "b": b,
        "c": c,
        "d": d,
        "e": e,
        "x": x,
        "v": v,
        "h": h,
        "st0": st0,
        "st2": st2,
        "cs": cs,
        "ds": ds,
        "r": r,
        "c_": c_,
        "lin": lin,
        "parts": parts,
        "cut": cut,
        "pieces": pieces,
        "top": top,
        "t": t,
        "rp": rp,
        "fl": fl,
        "ro": ro,
        "w2": w2,
    }
