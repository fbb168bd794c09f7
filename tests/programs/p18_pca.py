"""Principal component analysis via SVD and via the covariance's eigh.

Style: a from-scratch ML tutorial ("PCA from scratch in numpy"): centre the
data, SVD of the centred matrix, explained-variance ratios, projection and
reconstruction error, and the same through np.linalg.eigh of the covariance
matrix with eigenvalues sorted descending. Eigenvectors are only defined up
to sign, so the program fixes signs (largest |component| positive) and
compares projections, which makes every returned value sign-invariant.
"""

import numpy as _numpy


def fix_signs(np, V):
    # columns of V: flip so the largest-magnitude entry of each is positive
    idx = np.argmax(np.abs(V), axis=0)
    signs = np.sign(V[idx, np.arange(V.shape[1])])
    return V * signs


def main(np):
    rng = _numpy.random.default_rng(21)
    latent = rng.normal(size=(150, 2)) * _numpy.array([3.0, 1.0])
    mixing = rng.normal(size=(2, 5))
    X = np.asarray(latent @ mixing + 0.1 * rng.normal(size=(150, 5)))
    n, d = X.shape
    print(f"data {n}x{d}")

    mean = X.mean(axis=0)
    Xc = X - mean
    _, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    explained = S**2 / (n - 1)
    ratio = explained / explained.sum()
    print(f"singular values {np.round(S, 6).tolist()}")
    print(f"explained variance ratio {np.round(ratio, 6).tolist()}")
    k = int(np.searchsorted(np.cumsum(ratio), 0.99) + 1)
    print(f"components for 99% variance: {k}")

    W = fix_signs(np, Vt[:k].T)
    scores = Xc @ W
    recon = scores @ W.T + mean
    err = np.mean((X - recon) ** 2)
    print(f"reconstruction MSE with {k} components {err:.8f}")

    # the covariance way
    C = np.cov(X, rowvar=False)
    evals, evecs = np.linalg.eigh(C)
    order = np.argsort(evals)[::-1]
    evals = evals[order]
    evecs = fix_signs(np, evecs[:, order])
    print(f"eigenvalues match: {bool(np.allclose(evals, explained))}")
    print(f"eigenvectors match: {bool(np.allclose(evecs[:, :k], W))}")
    scores2 = Xc @ evecs[:, :k]
    print(f"projections match: {bool(np.allclose(np.abs(scores2), np.abs(scores)))}")

    # whitening
    white = scores / np.sqrt(evals[:k])
    cov_white = np.cov(white, rowvar=False)
    print(f"whitened covariance is identity: {bool(np.allclose(cov_white, np.eye(k)))}")

    # projector onto the principal subspace is sign-free
    P = W @ W.T
    print(f"projector idempotent: {bool(np.allclose(P @ P, P))}, trace {np.trace(P):.6f}")

    return {
        "mean": mean,
        "S": S,
        "ratio": ratio,
        "k": k,
        "W": W,
        "abs_scores": np.abs(scores),
        "recon": recon,
        "err": err,
        "evals": evals,
        "evecs_k": evecs[:, :k],
        "cov_white": cov_white,
        "P": P,
    }
