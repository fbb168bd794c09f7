"""The "100 numpy exercises" whose answers use ufunc methods and index tricks.

Style: Nicolas Rougier's "100 numpy exercises" again, the answers built on
np.add.reduce, np.subtract.outer, np.add.at, np.add.reduceat, out= arguments,
np.r_, np.mgrid/np.ogrid, np.fromiter, np.put, np.delete/np.insert,
np.vectorize and np.apply_along_axis.
"""

import numpy as _numpy


def main(np):
    out = {}
    rng = _numpy.random.default_rng(300)

    # 35. How to compute ((A+B)*(-A/2)) in place (without copy)?
    A = np.ones(3) * 1
    B = np.ones(3) * 2
    np.add(A, B, out=B)
    np.divide(A, 2, out=A)
    np.negative(A, out=A)
    np.multiply(A, B, out=A)
    print("35.", A.tolist())
    out["e35"] = A

    # 38. Consider a generator function that generates 10 integers and use it to build an array
    def generate():
        yield from range(10)

    Z = np.fromiter(generate(), dtype=float, count=-1)
    print("38.", Z.tolist())
    out["e38"] = Z

    # 41. How to sum a small array faster than np.sum?
    Z = np.arange(10)
    print("41.", int(np.add.reduce(Z)))
    out["e41"] = np.add.reduce(Z)

    # 47. Given two arrays, X and Y, construct the Cauchy matrix C (Cij = 1/(xi - yj))
    X = np.arange(8)
    Y = X + 0.5
    C = 1.0 / np.subtract.outer(X, Y)
    print(f"47. {np.linalg.det(C):.6e}")
    out["e47"] = C

    # 56 (again). Generate a generic 2D Gaussian-like array, with mgrid
    X, Y = np.mgrid[-1:1:10j, -1:1:10j]
    G = np.exp(-(X * X + Y * Y) / 2.0)
    yy, xx = np.ogrid[0:5, 0:6]
    dist = np.hypot(yy - 2, xx - 3)
    print(f"56. {G.sum():.6f} ogrid {yy.shape} {xx.shape} {dist.max():.6f}")
    out["e56"] = (G, dist)

    # 57. How to randomly place p elements in a 2D array?
    n, p = 10, 3
    Z = np.zeros((n, n))
    np.put(Z, rng.choice(range(n * n), p, replace=False), 1)
    print("57.", int(Z.sum()), np.argwhere(Z == 1).tolist())
    out["e57"] = Z

    # 64 (again). Add 1 to each element indexed by a second vector, repeated indices counted
    Z = np.ones(10)
    I = np.asarray(rng.integers(0, len(Z), 20))
    np.add.at(Z, I, 1)
    print("64.", Z.astype(int).tolist())
    out["e64"] = Z

    # 73-style: pad a vector with r_
    Z = np.arange(1, 6)
    padded = np.r_[0, Z, 0]
    both = np.c_[Z, Z**2]
    print("r_.", padded.tolist(), "c_.", both.tolist())
    out["r_c_"] = (padded, both)

    # 87. Consider a 16x16 array, how to get the block-sum (block size is 4x4)?
    Z = np.ones((16, 16))
    k = 4
    S = np.add.reduceat(
        np.add.reduceat(Z, np.arange(0, Z.shape[0], k), axis=0), np.arange(0, Z.shape[1], k), axis=1
    )
    print("87.", S.shape, int(S.sum()))
    out["e87"] = S

    # running maximum and cumulative products with ufunc.accumulate
    prices = np.asarray(rng.uniform(90, 110, 15)).round(2)
    peak = np.maximum.accumulate(prices)
    drawdown = (prices - peak) / peak
    growth = np.multiply.accumulate(np.array([1.1, 0.9, 1.05, 1.2]))
    print(f"max drawdown {drawdown.min():.6f}, growth {growth[-1]:.6f}")
    out["accumulate"] = (peak, drawdown, growth)

    # combining many masks with logical_and.reduce
    V = np.asarray(rng.normal(size=30))
    ok = np.logical_and.reduce([V > -1, V < 1, np.abs(V) > 0.1])
    print("masks.", int(ok.sum()))
    out["masks"] = ok

    # delete and insert rows, columns and elements
    M = np.arange(12).reshape(3, 4)
    no_row = np.delete(M, 1, axis=0)
    no_cols = np.delete(M, [0, 2], axis=1)
    flat_del = np.delete(np.arange(10), np.s_[::3])
    ins = np.insert(np.arange(5), 2, 99)
    ins_col = np.insert(M, 1, [-1, -2, -3], axis=1)
    print("delete.", no_row.tolist(), no_cols.tolist(), flat_del.tolist())
    print("insert.", ins.tolist(), ins_col.tolist())
    out["delete_insert"] = (no_row, no_cols, flat_del, ins, ins_col)

    # vectorize a Python function with branches
    def tax(income):
        if income < 10_000:
            return 0.0
        if income < 50_000:
            return 0.2 * (income - 10_000)
        return 8_000 + 0.4 * (income - 50_000)

    incomes = np.array([5_000, 20_000, 50_000, 75_000, 120_000])
    taxes = np.vectorize(tax)(incomes)
    print("vectorize.", taxes.tolist(), taxes.dtype)
    out["vectorize"] = taxes

    # majority vote per row with apply_along_axis
    votes = np.asarray(rng.integers(0, 4, (6, 7)))
    winner = np.apply_along_axis(lambda row: np.bincount(row, minlength=4).argmax(), 1, votes)
    spread = np.apply_along_axis(np.ptp, 0, votes)
    print("apply_along_axis.", winner.tolist(), spread.tolist())
    out["apply"] = (winner, spread)

    return out
