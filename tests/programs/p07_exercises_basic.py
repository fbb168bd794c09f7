"""Ten-plus of the classic "100 numpy exercises" (the novice ones, #3-#45).

Style: Nicolas Rougier's "100 numpy exercises", written the way the answers
are: one short block per exercise, printing the answer.
"""

import numpy as _numpy


def main(np):
    out = {}
    rng = _numpy.random.default_rng(100)

    # 6. Create a null vector of size 10 but the fifth value which is 1
    Z = np.zeros(10)
    Z[4] = 1
    print("6.", Z.astype(int).tolist())
    out["e6"] = Z

    # 7. Create a vector with values ranging from 10 to 49; 8. reverse it
    Z = np.arange(10, 50)
    Z = Z[::-1]
    print("8.", int(Z[0]), int(Z[-1]), len(Z))
    out["e8"] = Z

    # 10. Find indices of non-zero elements from [1,2,0,0,4,0]
    nz = np.nonzero([1, 2, 0, 0, 4, 0])
    print("10.", nz[0].tolist())
    out["e10"] = nz

    # 12. Create a 3x3x3 array with random values (the legacy global generator)
    np.random.seed(12)
    Z = np.random.random((3, 3, 3))
    print(f"12. {Z.shape} {Z.sum():.6f} {np.random.randint(0, 100)}")
    out["e12"] = Z

    # 13. Create a 10x10 array with random values and find the minimum and maximum values
    Z = np.asarray(rng.random((10, 10)))
    Zmin, Zmax = Z.min(), Z.max()
    print(f"13. {Zmin:.6f} {Zmax:.6f}")
    out["e13"] = (Zmin, Zmax)

    # 15. Create a 2d array with 1 on the border and 0 inside
    Z = np.ones((10, 10))
    Z[1:-1, 1:-1] = 0
    print("15.", int(Z.sum()))
    out["e15"] = Z

    # 16. How to add a border (filled with 0's) around an existing array?
    Z = np.ones((5, 5))
    Z = np.pad(Z, pad_width=1, mode="constant", constant_values=0)
    Z2 = np.ones((5, 5))
    Z2[:, [0, -1]] = 0
    Z2[[0, -1], :] = 0
    print("16.", Z.shape, int(Z.sum()), int(Z2.sum()))
    out["e16"] = (Z, Z2)

    # 17. What is the result of the following expressions?
    answers = [
        0 * np.nan,
        np.nan == np.nan,
        np.inf > np.nan,
        np.nan - np.nan,
        np.nan in {np.nan},
        0.3 == 3 * 0.1,
    ]
    print("17.", answers)
    out["e17"] = [str(a) for a in answers]

    # 18. Create a 5x5 matrix with values 1,2,3,4 just below the diagonal
    Z = np.diag(1 + np.arange(4), k=-1)
    print("18.", Z.tolist())
    out["e18"] = Z

    # 19. Create a 8x8 matrix and fill it with a checkerboard pattern
    Z = np.zeros((8, 8), dtype=int)
    Z[1::2, ::2] = 1
    Z[::2, 1::2] = 1
    print("19.")
    print(Z)
    out["e19"] = Z

    # 20. Consider a (6,7,8) shape array, what is the index (x,y,z) of the 100th element?
    idx = np.unravel_index(99, (6, 7, 8))
    print("20.", tuple(int(i) for i in idx))
    out["e20"] = tuple(int(i) for i in idx)

    # 21. Create a checkerboard 8x8 matrix using the tile function
    T = np.tile(np.array([[0, 1], [1, 0]]), (4, 4))
    print("21. same as 19:", bool(np.array_equal(T, Z)))
    out["e21"] = T

    # 22. Normalize a 5x5 random matrix
    Z = np.asarray(rng.random((5, 5)))
    Z = (Z - np.mean(Z)) / np.std(Z)
    print(f"22. mean {abs(float(Z.mean())) < 1e-12} std {Z.std():.6f}")
    out["e22"] = Z

    # 24. Multiply a 5x3 matrix by a 3x2 matrix (real matrix product)
    Z = np.ones((5, 3)) @ np.ones((3, 2))
    Z2 = np.dot(np.ones((5, 3)), np.ones((3, 2)))
    print("24.", Z.tolist()[0], bool((Z == Z2).all()))
    out["e24"] = Z

    # 25. Given a 1D array, negate all elements which are between 3 and 8, in place
    Z = np.arange(11)
    Z[(Z > 3) & (Z < 8)] *= -1
    print("25.", Z.tolist())
    out["e25"] = Z

    # 26. What is the output of the following script? (builtin sum vs np.sum)
    print("26.", sum(range(5), -1), int(np.sum(range(5), -1)))

    # 29. How to round away from zero a float array?
    Z = np.asarray(rng.uniform(-10, +10, 10))
    away = np.copysign(np.ceil(np.abs(Z)), Z)
    away2 = np.where(Z > 0, np.ceil(Z), np.floor(Z))
    print("29.", away.astype(int).tolist(), bool(np.array_equal(away, away2)))
    out["e29"] = away

    # 30. How to find common values between two arrays?
    Z1 = np.asarray(rng.integers(0, 10, 10))
    Z2 = np.asarray(rng.integers(0, 10, 10))
    common = np.intersect1d(Z1, Z2)
    print("30.", common.tolist())
    out["e30"] = common

    # 36. Extract the integer part of a random array of positive numbers using 4 methods
    Z = np.asarray(rng.uniform(0, 10, 10))
    ways = [Z - Z % 1, Z // 1, np.floor(Z), Z.astype(int), np.trunc(Z)]
    print("36.", [bool(np.array_equal(ways[0], w)) for w in ways])
    out["e36"] = ways

    # 37. Create a 5x5 matrix with row values ranging from 0 to 4
    Z = np.zeros((5, 5))
    Z += np.arange(5)
    print("37.", Z[3].tolist())
    out["e37"] = Z

    # 39. Create a vector of size 10 with values ranging from 0 to 1, both excluded
    Z = np.linspace(0, 1, 11, endpoint=False)[1:]
    print("39.", [round(float(v), 6) for v in Z])
    out["e39"] = Z

    # 40. Create a random vector of size 10 and sort it
    Z = np.asarray(rng.random(10))
    Z.sort()
    print("40. sorted:", bool(np.all(np.diff(Z) >= 0)))
    out["e40"] = Z

    # 42. Consider two random array A and B, check if they are equal
    A = np.asarray(rng.integers(0, 2, 5))
    B = np.asarray(rng.integers(0, 2, 5))
    print("42.", np.allclose(A, B), np.array_equal(A, B))
    out["e42"] = (np.allclose(A, B), np.array_equal(A, B))

    # 44. Convert a random 10x2 matrix of cartesian coordinates to polar
    Z = np.asarray(rng.random((10, 2)))
    X, Y = Z[:, 0], Z[:, 1]
    R = np.sqrt(X**2 + Y**2)
    T = np.arctan2(Y, X)
    print(f"44. {R.sum():.6f} {T.sum():.6f}")
    out["e44"] = (R, T)

    # 45. Create random vector of size 10 and replace the maximum value by 0
    Z = np.asarray(rng.random(10))
    Z[Z.argmax()] = 0
    print(f"45. {Z.max():.6f}")
    out["e45"] = Z

    return out
