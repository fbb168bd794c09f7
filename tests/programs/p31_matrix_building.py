"""Building structured matrices: triangles, bands, blocks, Kronecker products.

Style: numerical-methods code that assembles matrices by hand: a tridiagonal
finite-difference Laplacian from np.diag with offsets, a 2-d Laplacian with
np.kron, tril/triu and their index arrays for packing a symmetric matrix,
diag_indices and fill_diagonal, np.block-free assembly with concatenate,
Vandermonde and Hilbert matrices (built with an outer ufunc), Toeplitz by
fancy indexing, a circulant from np.roll, and the Poisson problem solved.
"""


def main(np):
    n = 6
    main_diag = 2.0 * np.ones(n)
    off = -1.0 * np.ones(n - 1)
    T = np.diag(main_diag) + np.diag(off, k=1) + np.diag(off, k=-1)
    print(f"tridiagonal: trace {np.trace(T):.1f}, row sums {T.sum(axis=1).tolist()}")

    # 2-d Laplacian on an n x n grid via Kronecker products
    I = np.eye(n)
    L2 = np.kron(I, T) + np.kron(T, I)
    print(f"2-d Laplacian {L2.shape}, nonzeros {int(np.count_nonzero(L2))}")
    f = np.ones(n * n)
    u = np.linalg.solve(L2, f).reshape(n, n)
    # the solution is symmetric, so its maximum is a tie between mirror points
    # whose last bits depend on the LAPACK in use: locate it on rounded values
    peak = tuple(int(i) for i in np.unravel_index(np.argmax(np.round(u, 8)), u.shape))
    print(f"Poisson solution max {u.max():.8f} at {peak}")
    print(
        f"solution symmetric: {bool(np.allclose(u, u.T))} and {bool(np.allclose(u, u[::-1, ::-1]))}"
    )

    # pack and unpack a symmetric matrix with triangle indices
    S = np.arange(1, 17, dtype=float).reshape(4, 4)
    S = S + S.T
    iu = np.triu_indices(4)
    packed = S[iu]
    U = np.zeros((4, 4))
    U[iu] = packed
    full = U + U.T - np.diag(np.diag(U))
    print(f"packed {len(packed)} values, unpacks: {bool(np.array_equal(full, S))}")
    il = np.tril_indices(4, k=-1)
    print(
        f"strict lower sum {S[il].sum():.1f}, tril "
        f"{np.tril(S, -1).sum():.1f}, triu {np.triu(S).sum():.1f}"
    )

    # diagonal helpers
    D = np.zeros((5, 5), dtype=int)
    np.fill_diagonal(D, 7)
    di = np.diag_indices(5)
    D[di] += np.arange(5)
    D[np.arange(4), np.arange(1, 5)] = -1
    print(f"diag {np.diagonal(D).tolist()}, superdiag {np.diagonal(D, offset=1).tolist()}")

    # block assembly with concatenate
    A = np.ones((2, 2))
    B = np.zeros((2, 3))
    C = 2 * np.ones((3, 2))
    Dm = np.eye(3)
    block = np.concatenate(
        [np.concatenate([A, B], axis=1), np.concatenate([C, Dm], axis=1)], axis=0
    )
    print(f"block matrix {block.shape}, sum {block.sum():.1f}")

    # Vandermonde and Hilbert
    x = np.array([1.0, 2.0, 3.0, 4.0])
    V = np.vander(x, increasing=True)
    coeffs = np.linalg.solve(V, np.array([1.0, 8.0, 27.0, 64.0]))
    print(f"interpolating cubic coefficients {(np.round(coeffs, 8) + 0.0).tolist()}")
    i = np.arange(1, 6)
    H = 1.0 / (i[:, None] + i[None, :] - 1)
    print(f"Hilbert(5) cond {np.linalg.cond(H):.6e}, det {np.linalg.det(H):.6e}")

    # Toeplitz and circulant by indexing
    c = np.array([4.0, 1.0, 0.5, 0.25])
    idx = np.abs(np.arange(4)[:, None] - np.arange(4)[None, :])
    Tp = c[idx]
    circ = np.array([np.roll(c, k) for k in range(4)])
    print(
        f"Toeplitz symmetric {bool(np.array_equal(Tp, Tp.T))}, "
        f"circulant eigen-sum {np.trace(circ):.2f}"
    )
    evals = np.linalg.eigvals(circ)
    fft_evals = np.fft.fft(c)
    same = np.allclose(np.sort(evals.real), np.sort(fft_evals.real))
    print(f"circulant eigenvalues are the DFT: {bool(same)}")

    # a permutation matrix
    perm = np.array([2, 0, 3, 1])
    Pm = np.eye(4)[perm]
    print(
        "permutation matrix orthogonal "
        f"{bool(np.allclose(Pm @ Pm.T, np.eye(4)))}, det {np.linalg.det(Pm):.1f}"
    )

    return {
        "T": T,
        "L2": L2,
        "u": u,
        "packed": packed,
        "full": full,
        "D": D,
        "block": block,
        "V": V,
        "coeffs": coeffs,
        "H": H,
        "Tp": Tp,
        "circ": circ,
        "Pm": Pm,
    }
