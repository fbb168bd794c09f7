"""Numerical calculus on sampled functions.

Style: a "numerical methods with numpy" notebook: derivatives by forward,
central differences and np.gradient (uneven spacing too), integrals by the
trapezoidal rule and Simpson's rule written by hand, a cumulative integral
with cumsum, root finding by bisection and Newton's method, interpolation
with np.interp, polynomial least-squares with np.polyfit/np.polyval and its
derivative from the coefficients, and a piecewise function with np.vectorize
compared against np.select and np.piecewise-style np.where chains.
"""


def simpson(np, y, x):
    h = (x[-1] - x[0]) / (len(x) - 1)
    return h / 3 * (y[0] + y[-1] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum())


def main(np):
    x = np.linspace(0, np.pi, 101)
    y = np.sin(x)
    dx = x[1] - x[0]

    forward = np.diff(y) / dx
    central = (y[2:] - y[:-2]) / (2 * dx)
    grad = np.gradient(y, dx)
    grad2 = np.gradient(y, x, edge_order=2)
    print(f"forward max error {np.abs(forward - np.cos(x[:-1])).max():.3e}")
    print(f"central max error {np.abs(central - np.cos(x[1:-1])).max():.3e}")
    print(f"gradient interior matches central: {bool(np.allclose(grad[1:-1], central))}")
    print(f"edge_order=2 end error {abs(grad2[0] - 1.0):.3e}")
    xu = np.sort(np.concatenate([np.linspace(0, 1, 6), np.array([0.05, 0.15, 0.33])]))
    gu = np.gradient(xu**2, xu)
    print(f"uneven-grid gradient of x^2 exact: {bool(np.allclose(gu[1:-1], 2 * xu[1:-1]))}")

    trap = np.trapezoid(y, x)
    simp = simpson(np, y, x)
    cum = np.concatenate([[0.0], np.cumsum((y[1:] + y[:-1]) / 2 * dx)])
    print(f"trapezoid {trap:.10f}, Simpson {simp:.10f}, cumulative end {cum[-1]:.10f}")
    print(f"integral of sin up to pi/2 ~ {np.interp(np.pi / 2, x, cum):.6f}")

    # bisection for cos(x) = x
    f = lambda t: np.cos(t) - t  # noqa: E731
    a, b = 0.0, 1.0
    for _ in range(40):
        m = 0.5 * (a + b)
        if f(a) * f(m) <= 0:
            b = m
        else:
            a = m
    print(f"bisection root {0.5 * (a + b):.10f}")
    # Newton's method, vectorised over several starting points
    t = np.array([0.0, 0.5, 1.0, 2.0])
    for _ in range(8):
        t = t - (np.cos(t) - t) / (-np.sin(t) - 1)
    print(f"Newton roots {np.round(t, 10).tolist()}")

    # interpolation
    xp = np.array([0.0, 1.0, 2.5, 4.0])
    fp = np.array([1.0, 3.0, 2.0, 5.0])
    xq = np.linspace(-1, 5, 13)
    yi = np.interp(xq, xp, fp)
    yl = np.interp(xq, xp, fp, left=np.nan, right=-1.0)
    print(f"interp {np.round(yi, 6).tolist()}")
    print(f"interp with left/right {np.round(yl, 6).tolist()}")

    # polynomial fit and its derivative
    xs = np.linspace(-2, 2, 25)
    ys = np.exp(xs)
    c = np.polyfit(xs, ys, 5)
    dc = c[:-1] * np.arange(len(c) - 1, 0, -1)
    print(f"poly fit max error {np.abs(np.polyval(c, xs) - ys).max():.3e}")
    print(f"poly derivative at 0 {np.polyval(dc, 0.0):.6f}")

    # piecewise functions three ways
    def hat(v):
        if v < -1 or v > 1:
            return 0.0
        return 1.0 - abs(v)

    z = np.linspace(-2, 2, 17)
    v1 = np.vectorize(hat, otypes=[float])(z)
    v2 = np.select([z < -1, z <= 1], [0.0, 1.0 - np.abs(z)], default=0.0)
    v3 = np.where(np.abs(z) <= 1, 1.0 - np.abs(z), 0.0)
    print(f"hat function {v1.tolist()}")
    print(f"select and where agree: {bool(np.array_equal(v1, v2) and np.array_equal(v2, v3))}")
    print(f"integral of the hat {np.trapezoid(v1, z):.6f} (exact 1.0)")

    return {
        "forward": forward,
        "central": central,
        "grad": grad,
        "grad2": grad2,
        "gu": gu,
        "trap": trap,
        "simp": simp,
        "cum": cum,
        "root": 0.5 * (a + b),
        "t": t,
        "yi": yi,
        "yl": yl,
        "c": c,
        "dc": dc,
        "v1": v1,
        "v2": v2,
    }
