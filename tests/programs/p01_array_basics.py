"""Array creation and attributes, the first chapter of every numpy tutorial.

Style: the numpy quickstart ("The Basics", "Array Creation", "Basic Operations"):
arange/linspace/zeros/ones/eye/full, attributes, dtype conversion, elementwise
arithmetic, axis reductions and universal functions.
"""

import numpy as _numpy


def main(np):
    a = np.arange(15).reshape(3, 5)
    print(f"a: ndim={a.ndim} shape={a.shape} size={a.size} dtype={a.dtype}")
    print(f"itemsize={a.itemsize} nbytes={a.nbytes}")

    b = np.array([6, 7, 8])
    c = np.array([[1.5, 2, 3], [4, 5, 6]])
    print(f"b.dtype={b.dtype}, c.dtype={c.dtype}, c.shape={c.shape}")

    z = np.zeros((3, 4))
    o = np.ones((2, 3, 4), dtype=np.int16)
    e = np.eye(4, k=1)
    f = np.full((2, 2), 7.5)
    i = np.identity(3)
    print(f"zeros sum={z.sum()}, ones sum={int(o.sum())}, eye trace={np.trace(e)}")
    print(f"full mean={f.mean():.2f}, identity det={np.linalg.det(i):.1f}")

    r = np.arange(10, 30, 5)
    s = np.arange(0, 2, 0.3)
    x = np.linspace(0, 2 * np.pi, 100)
    y = np.sin(x)
    print(f"arange {r.tolist()} / {len(s)} floats, sin max {y.max():.6f} at {int(y.argmax())}")

    # elementwise arithmetic and upcasting
    A = np.array([20, 30, 40, 50])
    B = np.arange(4)
    C = A - B
    D = B**2
    E = 10 * np.sin(A)
    F = A < 35
    print(f"C={C.tolist()} D={D.tolist()} F={F.tolist()}")
    print(f"E rounded: {[round(float(v), 4) for v in E]}")

    M = np.array([[1, 1], [0, 1]])
    N = np.array([[2, 0], [3, 4]])
    elementwise = M * N
    matrix = M @ N
    dotted = M.dot(N)
    print(f"elementwise={elementwise.tolist()} matrix={matrix.tolist()}")

    # in-place operations and upcasting rules
    rng = _numpy.random.default_rng(1)
    g = np.ones((2, 3), dtype=int)
    h = np.asarray(rng.random((2, 3)))
    g *= 3
    h += g
    print(f"g.dtype={g.dtype} h.dtype={h.dtype} h.sum={h.sum():.6f}")

    k = np.linspace(0, np.pi, 3)
    upcast = k + np.ones(3, dtype=np.int32)
    complex_ = np.exp(upcast * 1j)
    print(f"upcast.dtype={upcast.dtype} complex_.dtype={complex_.dtype}")

    # reductions along axes
    t = np.arange(12).reshape(3, 4)
    print(f"sum axis0={t.sum(axis=0).tolist()} min axis1={t.min(axis=1).tolist()}")
    print(f"cumsum axis1 last col={t.cumsum(axis=1)[:, -1].tolist()}")

    # dtype conversion
    floats = np.array([1.7, -2.3, 3.9, -0.5])
    ints = floats.astype(np.int64)
    back = ints.astype(np.float32)
    rounded = np.round(floats).astype(int)
    print(f"astype int {ints.tolist()}, rounded {rounded.tolist()}, back {back.dtype}")
    u8 = np.array([250, 3, 128], dtype=np.uint8)
    wrapped = u8 + np.uint8(10)
    print(f"uint8 wrap: {wrapped.tolist()} {wrapped.dtype}")

    # empty_like / zeros_like / ones_like / full_like
    zl = np.zeros_like(t)
    ol = np.ones_like(c)
    fl = np.full_like(t, 3)
    print(f"like dtypes: {zl.dtype} {ol.dtype} {fl.dtype}, fl sum {int(fl.sum())}")

    return {
        "a": a,
        "b": b,
        "c": c,
        "e": e,
        "s": s,
        "y": y,
        "C": C,
        "D": D,
        "E": E,
        "F": F,
        "matrix": matrix,
        "dotted": dotted,
        "elementwise": elementwise,
        "g": g,
        "h": h,
        "upcast": upcast,
        "complex": complex_,
        "ints": ints,
        "back": back,
        "wrapped": wrapped,
        "fl": fl,
        "ol": ol,
        "shape": a.shape,
        "ndim": a.ndim,
    }
