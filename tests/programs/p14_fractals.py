"""Mandelbrot and Julia sets on small grids.

Style: the numpy tutorial "Mandelbrot set" (numpy.org user guide / scipy
lecture notes): a complex grid from np.ogrid or np.mgrid, escape-time
iteration with np.errstate silencing the overflow of escaped points, then
the classic masked version updating only the live points, an ASCII
rendering, and the Julia set of c = -0.8 + 0.156i.
"""


def mandelbrot_ogrid(np, h, w, maxit=20):
    y, x = np.ogrid[-1.4 : 1.4 : h * 1j, -2 : 0.8 : w * 1j]
    c = x + y * 1j
    z = c
    divtime = maxit + np.zeros(z.shape, dtype=int)
    for i in range(maxit):
        z = z**2 + c
        diverge = z * np.conj(z) > 2**2
        div_now = diverge & (divtime == maxit)
        divtime[div_now] = i
        z[diverge] = 2
    return divtime


def mandelbrot_masked(np, xmin, xmax, ymin, ymax, xn, yn, maxiter, horizon=2.0):
    X = np.linspace(xmin, xmax, xn, dtype=np.float32)
    Y = np.linspace(ymin, ymax, yn, dtype=np.float32)
    C = X + Y[:, None] * 1j
    N = np.zeros(C.shape, dtype=int)
    Z = np.zeros(C.shape, np.complex64)
    for n in range(maxiter):
        I = np.less(abs(Z), horizon)
        N[I] = n
        Z[I] = Z[I] ** 2 + C[I]
    N[maxiter - 1 == N] = 0
    return Z, N


def julia(np, h, w, c, maxit=25):
    Y, X = np.mgrid[-1.0 : 1.0 : h * 1j, -1.5 : 1.5 : w * 1j]
    z = X + 1j * Y
    counts = np.zeros(z.shape, dtype=np.int32)
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(maxit):
            z = z * z + c
            counts += np.abs(z) < 2
    return counts


def main(np):
    d = mandelbrot_ogrid(np, 24, 40)
    print(f"ogrid Mandelbrot: {int((d == 20).sum())} points never diverged")
    chars = " .:-=+*#%@"
    for row in d[::3]:
        print("".join(chars[min(int(v) // 2, 9)] for v in row.tolist()))

    Z, N = mandelbrot_masked(np, -2.25, 0.75, -1.25, 1.25, 30, 20, 30)
    print(f"masked Mandelbrot: N.sum={int(N.sum())} Z dtype {Z.dtype}")
    inside = (N == 0).mean()
    area = inside * 3.0 * 2.5
    print(f"area estimate {area:.4f}")

    J = julia(np, 20, 30, -0.8 + 0.156j)
    print(f"Julia: max count {int(J.max())}, mean {J.mean():.4f}, dtype {J.dtype}")
    hist = np.bincount(J.ravel(), minlength=26)
    print(f"count histogram {hist.tolist()}")

    return {"d": d, "Z": Z, "N": N, "area": area, "J": J, "hist": hist}
