"""The intermediate and expert "100 numpy exercises" (#50-#97).

Style: Nicolas Rougier's "100 numpy exercises": nearest value, pairwise
distances, row-mean subtraction, sorting by a column, null columns, bincount
tricks, einsum diagonals, moving averages, matrix rank, most frequent value,
n largest values, unique rows, rows with unequal values.
"""

import numpy as _numpy


def moving_average(np, a, n=3):
    ret = np.cumsum(a, dtype=float)
    ret[n:] = ret[n:] - ret[:-n]
    return ret[n - 1 :] / n


def main(np):
    out = {}
    rng = _numpy.random.default_rng(200)

    # 50. How to find the closest value (to a given scalar) in a vector?
    Z = np.arange(100)
    v = float(rng.uniform(0, 100))
    index = (np.abs(Z - v)).argmin()
    print("50.", int(Z[index]))
    out["e50"] = Z[index]

    # 52. Consider a random vector with shape (100,2) representing coordinates,
    #     find point by point distances
    Z = np.asarray(rng.random((100, 2)))
    X, Y = np.atleast_2d(Z[:, 0], Z[:, 1])
    D = np.sqrt((X - X.T) ** 2 + (Y - Y.T) ** 2)
    print(f"52. {D.shape} {D.max():.6f}")
    out["e52"] = D

    # 53. How to convert a float (32 bits) array into an integer (32 bits) in place?
    Z = (np.asarray(rng.random(10)) * 100).astype(np.float32)
    Z = Z.astype(np.int32, copy=False)
    print("53.", Z.dtype, Z.tolist())
    out["e53"] = Z

    # 56. Generate a generic 2D Gaussian-like array
    X, Y = np.meshgrid(np.linspace(-1, 1, 10), np.linspace(-1, 1, 10))
    Dg = np.sqrt(X * X + Y * Y)
    sigma, mu = 1.0, 0.0
    G = np.exp(-((Dg - mu) ** 2 / (2.0 * sigma**2)))
    print(f"56. {G.max():.6f} {G.min():.6f}")
    out["e56"] = G

    # 58. Subtract the mean of each row of a matrix
    X = np.asarray(rng.random((5, 10)))
    Y = X - X.mean(axis=1, keepdims=True)
    print(f"58. {bool(np.allclose(Y.sum(axis=1), 0))}")
    out["e58"] = Y

    # 59. How to sort an array by the nth column?
    Z = np.asarray(rng.integers(0, 10, (3, 3)))
    print("59.", Z[Z[:, 1].argsort(kind="stable")].tolist())
    out["e59"] = Z[Z[:, 1].argsort(kind="stable")]

    # 60. How to tell if a given 2D array has null columns?
    Z = np.asarray(rng.integers(0, 3, (3, 10)))
    print("60.", bool((~Z.any(axis=0)).any()))
    out["e60"] = (~Z.any(axis=0)).any()

    # 61. Find the nearest value from a given value in an array
    Z = np.asarray(rng.uniform(0, 1, 10))
    z = 0.5
    m = Z.flat[np.abs(Z - z).argmin()]
    print(f"61. {m:.6f}")
    out["e61"] = m

    # 64. Consider a given vector, how to add 1 to each element indexed by a
    #     second vector (be careful with repeated indices)?
    Z = np.ones(10)
    I = np.asarray(rng.integers(0, len(Z), 20))
    Z += np.bincount(I, minlength=len(Z))
    print("64.", Z.astype(int).tolist())
    out["e64"] = Z

    # 65. How to accumulate elements of a vector (X) to an array (F) based on an index list (I)?
    X = [1, 2, 3, 4, 5, 6]
    I = [1, 3, 9, 3, 4, 1]
    F = np.bincount(I, X)
    print("65.", F.tolist())
    out["e65"] = F

    # 66. Considering a (w,h,3) image of (dtype=ubyte), compute the number of unique colors
    w, h = 16, 16
    I = np.asarray(rng.integers(0, 2, (w, h, 3))).astype(np.ubyte)
    F = I[..., 0].astype(np.int64) * (256 * 256) + I[..., 1].astype(np.int64) * 256 + I[..., 2]
    n = len(np.unique(F))
    print("66.", F.dtype, n, len(np.unique(I.reshape(-1, 3), axis=0)))
    out["e66"] = (F, n)

    # 67. Considering a four dimensions array, how to get sum over the last two axis at once?
    A = np.asarray(rng.integers(0, 10, (3, 4, 3, 4)))
    total = A.sum(axis=(-2, -1))
    total2 = A.reshape((*A.shape[:-2], -1)).sum(axis=-1)
    print("67.", total.tolist()[0], bool(np.array_equal(total, total2)))
    out["e67"] = total

    # 68. Considering a one-dimensional vector D, how to compute means of subsets
    #     of D using a vector S of same size describing subset indices?
    D = np.asarray(rng.uniform(0, 1, 100))
    S = np.asarray(rng.integers(0, 10, 100))
    D_sums = np.bincount(S, weights=D)
    D_counts = np.bincount(S)
    D_means = D_sums / D_counts
    print("68.", np.round(D_means, 6).tolist())
    out["e68"] = D_means

    # 69. How to get the diagonal of a dot product?
    A = np.asarray(rng.uniform(0, 1, (5, 5)))
    B = np.asarray(rng.uniform(0, 1, (5, 5)))
    slow = np.diag(np.dot(A, B))
    fast = np.sum(A * B.T, axis=1)
    faster = np.einsum("ij,ji->i", A, B)
    print(f"69. {bool(np.allclose(slow, fast))} {bool(np.allclose(fast, faster))}")
    out["e69"] = (slow, fast, faster)

    # 70. Consider the vector [1, 2, 3, 4, 5], how to build a new vector with
    #     3 consecutive zeros interleaved between each value?
    Z = np.array([1, 2, 3, 4, 5])
    nz = 3
    Z0 = np.zeros(len(Z) + (len(Z) - 1) * (nz))
    Z0[:: nz + 1] = Z
    print("70.", Z0.astype(int).tolist())
    out["e70"] = Z0

    # 72. How to swap two rows of an array?
    A = np.arange(25).reshape(5, 5)
    A[[0, 1]] = A[[1, 0]]
    print("72.", A[:2].tolist())
    out["e72"] = A

    # 74. Given a sorted array C that corresponds to a bincount, how to produce
    #     an array A such that np.bincount(A) == C?
    C = np.bincount([1, 1, 2, 3, 4, 4, 6])
    A = np.repeat(np.arange(len(C)), C)
    print("74.", A.tolist())
    out["e74"] = A

    # 75. How to compute averages using a sliding window over an array?
    Z = np.arange(20)
    ma = moving_average(np, Z, n=3)
    print("75.", ma.tolist())
    out["e75"] = ma

    # 82. Compute a matrix rank
    Z = np.asarray(rng.uniform(0, 1, (10, 10)))
    Z[:, 3] = Z[:, 1] + Z[:, 2]
    _, S, _ = np.linalg.svd(Z)
    rank = np.sum(S > 1e-10)
    print("82.", int(rank), int(np.linalg.matrix_rank(Z)))
    out["e82"] = (rank, np.linalg.matrix_rank(Z))

    # 83. How to find the most frequent value in an array?
    Z = np.asarray(rng.integers(0, 10, 50))
    print("83.", int(np.bincount(Z).argmax()))
    out["e83"] = np.bincount(Z).argmax()

    # 89. How to get the n largest values of an array
    Z = np.arange(1000)
    Z = Z[np.asarray(rng.permutation(1000))]
    n = 5
    largest = Z[np.argsort(Z)[-n:]]
    largest2 = np.sort(Z[np.argpartition(-Z, n)[:n]])
    print("89.", largest.tolist(), largest2.tolist())
    out["e89"] = (largest, largest2)

    # 90. Given an arbitrary number of vectors, build the cartesian product
    arrays = ([1, 2, 3], [4, 5], [6, 7])
    arrays = [np.asarray(a) for a in arrays]
    shape = (len(x) for x in arrays)
    ix = np.indices(shape, dtype=int)
    ix = ix.reshape(len(arrays), -1).T
    for n, arr in enumerate(arrays):
        ix[:, n] = arr[ix[:, n]]
    print("90.", ix.shape, ix[-1].tolist())
    out["e90"] = ix

    # 94. Considering a 10x3 matrix, extract rows with unequal values
    Z = np.asarray(rng.integers(0, 3, (10, 3)))
    E = np.all(Z[:, 1:] == Z[:, :-1], axis=1)
    U = Z[~E]
    print("94.", U.shape, int(E.sum()))
    out["e94"] = U

    # 96. Given a two dimensional array, how to extract unique rows?
    Z = np.asarray(rng.integers(0, 2, (6, 3)))
    uZ = np.unique(Z, axis=0)
    print("96.", uZ.tolist())
    out["e96"] = uZ

    # 97. Considering 2 vectors A & B, write the einsum equivalent of inner,
    #     outer, sum, and mul function
    A = np.asarray(rng.uniform(0, 1, 10))
    B = np.asarray(rng.uniform(0, 1, 10))
    results = (
        np.einsum("i->", A),
        np.einsum("i,i->i", A, B),
        np.einsum("i,i", A, B),
        np.einsum("i,j->ij", A, B),
    )
    checks = (np.sum(A), A * B, np.inner(A, B), np.outer(A, B))
    print("97.", [bool(np.allclose(r, c)) for r, c in zip(results, checks, strict=True)])
    out["e97"] = results

    return out
