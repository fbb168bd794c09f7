"""Polynomials the numpy way: poly1d, roots, derivatives and integrals.

Style: the scipy-lectures "NumPy: polynomials" section and textbook code:
np.poly1d arithmetic and evaluation, np.roots and np.poly (roots back to
coefficients), np.polyder / np.polyint, np.polyval with arrays, np.polyadd
and np.polymul, a least-squares fit with np.polyfit turned into a poly1d,
and Horner's rule written by hand for comparison.
"""

import numpy as _numpy


def horner(np, coeffs, x):
    result = np.zeros_like(x)
    for c in coeffs:
        result = result * x + c
    return result


def main(np):
    p = np.poly1d([3, 2, -1])
    print(f"p(0.5) = {p(0.5):.6f}, order {p.order}, coeffs {p.coeffs.tolist()}")
    q = np.poly1d([1, -1])
    prod = p * q
    print(f"p * q coefficients {prod.coeffs.tolist()}")
    quotient, remainder = np.polydiv(prod.coeffs, q.coeffs)
    print(f"divide back: {quotient.tolist()} remainder {remainder.tolist()}")

    roots = np.roots([1, -6, 11, -6])
    print(f"roots of x^3 - 6x^2 + 11x - 6: {np.round(np.sort(roots.real), 8).tolist()}")
    print(f"poly(roots) gives back {np.round(np.poly(roots), 8).tolist()}")
    complex_roots = np.roots([1, 0, 1])
    print(f"roots of x^2 + 1 are imaginary: {bool(np.allclose(np.abs(complex_roots.imag), 1.0))}")

    c = np.array([1.0, -3.0, 0.0, 2.0])
    dc = np.polyder(c)
    ic = np.polyint(c)
    print(f"derivative {dc.tolist()}, integral {np.round(ic, 6).tolist()}")
    x = np.linspace(-2, 2, 9)
    print(f"polyval equals Horner: {bool(np.allclose(np.polyval(c, x), horner(np, c, x)))}")
    print(
        f"polyadd {np.polyadd([1, 2], [1, 0, 0]).tolist()}, "
        f"polymul {np.polymul([1, 1], [1, -1]).tolist()}"
    )

    rng = _numpy.random.default_rng(34)
    xs = np.linspace(0, 3, 20)
    ys = 2 * xs**2 - xs + 0.5 + np.asarray(rng.normal(scale=0.1, size=20))
    fit = np.poly1d(np.polyfit(xs, ys, 2))
    print(
        f"fitted {np.round(fit.coeffs, 4).tolist()}, vertex "
        f"at x = {-fit.coeffs[1] / (2 * fit.coeffs[0]):.6f}"
    )
    stationary = fit.deriv().roots
    print(f"stationary point from deriv().roots {np.round(stationary, 6).tolist()}")
    area = fit.integ()(3.0) - fit.integ()(0.0)
    print(f"area under the fit on [0, 3] {area:.6f}")

    return {
        "p_coeffs": p.coeffs,
        "prod": prod.coeffs,
        "quotient": quotient,
        "roots": np.sort(roots.real),
        "dc": dc,
        "ic": ic,
        "horner": horner(np, c, x),
        "fit": fit.coeffs,
        "area": area,
    }
