"""Linear algebra with np.linalg, checked the way a numerics course does.

Style: a numerical linear algebra course notebook: solve a linear system and
check the residual, inverse and determinant (and slogdet), eigen-decomposition
of a general and a symmetric matrix (eigenvalues sorted, eigenvectors checked
by A v = lambda v rather than compared, so the arbitrary sign/phase does not
matter), QR and Cholesky factorisations rebuilt, least squares, pseudo-inverse,
norms, condition numbers, rank, matrix powers, and Gram-Schmidt by hand.
"""

import numpy as _numpy


def gram_schmidt(np, A):
    Q = np.zeros_like(A)
    for j in range(A.shape[1]):
        v = A[:, j].copy()
        for i in range(j):
            v -= (Q[:, i] @ A[:, j]) * Q[:, i]
        Q[:, j] = v / np.linalg.norm(v)
    return Q


def main(np):
    rng = _numpy.random.default_rng(25)
    A = np.asarray(rng.normal(size=(5, 5))) + 5 * np.eye(5)
    b = np.asarray(rng.normal(size=5))

    x = np.linalg.solve(A, b)
    print(f"solve residual small: {bool(np.linalg.norm(A @ x - b) < 1e-12)}")
    Ainv = np.linalg.inv(A)
    print(f"A @ inv(A) is I: {bool(np.allclose(A @ Ainv, np.eye(5)))}")
    det = np.linalg.det(A)
    sign, logdet = np.linalg.slogdet(A)
    print(f"det {det:.6f}, slogdet {float(sign):.0f} * exp({logdet:.6f})")
    B = np.asarray(rng.normal(size=(5, 3)))
    X = np.linalg.solve(A, B)
    print(f"multiple right-hand sides: {X.shape}")

    # general eigenproblem: sort by real then imaginary part, check A v = w v
    w, V = np.linalg.eig(A)
    order = np.lexsort((w.imag, w.real))
    w, V = w[order], V[:, order]
    residual = np.abs(A @ V - V * w).max()
    print(f"eig: {len(w)} eigenvalues, residual below 1e-10: {bool(residual < 1e-10)}")
    print(f"sum of eigenvalues equals trace: {bool(np.isclose(w.sum().real, np.trace(A)))}")
    print(f"product of eigenvalues equals det: {bool(np.isclose(np.prod(w).real, det))}")

    # symmetric eigenproblem
    S = A @ A.T
    ws, Vs = np.linalg.eigh(S)
    print(f"eigh ascending: {bool(np.all(np.diff(ws) > 0))}, min {ws[0]:.6f}, max {ws[-1]:.6f}")
    print(f"orthonormal eigenvectors: {bool(np.allclose(Vs.T @ Vs, np.eye(5)))}")
    rebuilt = (Vs * ws) @ Vs.T
    print(f"V diag(w) V^T rebuilds S: {bool(np.allclose(rebuilt, S))}")

    # QR and Cholesky
    M = np.asarray(rng.normal(size=(6, 4)))
    Q, R = np.linalg.qr(M)
    print(f"QR shapes {Q.shape} {R.shape}, rebuilt {bool(np.allclose(Q @ R, M))}")
    print(f"R upper triangular: {bool(np.allclose(R, np.triu(R)))}")
    Qg = gram_schmidt(np, M)
    print(
        "Gram-Schmidt spans the same space: "
        f"{bool(np.allclose(np.abs(Qg.T @ Q), np.eye(4), atol=1e-8))}"
    )
    L = np.linalg.cholesky(S)
    print(
        f"Cholesky lower: {bool(np.allclose(L, np.tril(L)))}, "
        f"rebuilt {bool(np.allclose(L @ L.T, S))}"
    )

    # least squares, pseudo-inverse and the SVD
    y = np.asarray(rng.normal(size=6))
    coef, res, rank, sv = np.linalg.lstsq(M, y, rcond=None)
    pinv_coef = np.linalg.pinv(M) @ y
    print(
        f"lstsq rank {int(rank)}, residual {res[0]:.6f}, "
        f"pinv agrees {bool(np.allclose(coef, pinv_coef))}"
    )
    s = np.linalg.svd(M, compute_uv=False)
    print(f"singular values match lstsq: {bool(np.allclose(s, sv))}")
    cond = np.linalg.cond(M)
    print(f"cond(M) {cond:.6f} = s_max/s_min {s[0] / s[-1]:.6f}")

    # norms, rank, powers
    print(
        f"norms: fro {np.linalg.norm(A):.6f}, 1 {np.linalg.norm(A, 1):.6f}, "
        f"inf {np.linalg.norm(A, np.inf):.6f}, 2 {np.linalg.norm(A, 2):.6f}"
    )
    low_rank = np.outer(np.arange(1.0, 5.0), np.arange(1.0, 4.0))
    print(f"rank of an outer product {int(np.linalg.matrix_rank(low_rank))}")
    F = np.array([[1, 1], [1, 0]])
    fib = np.linalg.matrix_power(F, 20)
    print(f"Fibonacci by matrix power: {int(fib[0, 1])}")
    print(f"multi_dot {np.linalg.multi_dot([A, B, B.T]).shape}")

    return {
        "x": x,
        "Ainv": Ainv,
        "det": det,
        "sign": sign,
        "logdet": logdet,
        "X": X,
        "w": w,
        "ws": ws,
        "abs_Vs": np.abs(Vs),
        "rebuilt": rebuilt,
        "R_abs_diag": np.abs(np.diag(R)),
        "QR": Q @ R,
        "L": L,
        "coef": coef,
        "res": res,
        "rank": rank,
        "sv": sv,
        "cond": cond,
        "fib": fib,
    }
