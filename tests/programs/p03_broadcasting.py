"""Broadcasting, the numpy user guide way.

Style: the user guide's "Broadcasting" page and the classic tutorial examples:
adding a vector to each row, column-wise normalisation with np.newaxis, outer
sums, pairwise distance matrices without loops, and a vector-quantisation
lookup (the guide's "codes and observation" example).
"""

import numpy as _numpy


def main(np):
    a = np.array([[0.0, 0.0, 0.0], [10.0, 10.0, 10.0], [20.0, 20.0, 20.0], [30.0, 30.0, 30.0]])
    b = np.array([1.0, 2.0, 3.0])
    print(f"a + b row 2: {(a + b)[2].tolist()}")
    col = np.array([0.0, 10.0, 20.0, 30.0])
    outer_sum = col[:, np.newaxis] + b
    print(f"outer sum shape {outer_sum.shape}, total {outer_sum.sum()}")
    print(
        f"broadcast shape of (8,1,6,1) and (7,1,5): {np.broadcast_shapes((8, 1, 6, 1), (7, 1, 5))}"
    )

    # the user guide's vector-quantisation example
    observation = np.array([111.0, 188.0])
    codes = np.array([[102.0, 203.0], [132.0, 193.0], [45.0, 155.0], [57.0, 173.0]])
    diff = codes - observation
    dist = np.sqrt(np.sum(diff**2, axis=-1))
    nearest = int(np.argmin(dist))
    print(f"nearest code {nearest} at distance {dist[nearest]:.6f}")

    # normalise columns and rows of a data matrix
    rng = _numpy.random.default_rng(3)
    X = np.asarray(rng.normal(loc=5.0, scale=2.0, size=(50, 4)))
    mu = X.mean(axis=0)
    sigma = X.std(axis=0)
    Z = (X - mu) / sigma
    print(f"standardised means ~0: {bool(np.allclose(Z.mean(axis=0), 0))}")
    print(f"standardised stds: {np.round(Z.std(axis=0), 6).tolist()}")
    row_norm = X / np.linalg.norm(X, axis=1, keepdims=True)
    print(f"row norms all one: {bool(np.allclose(np.linalg.norm(row_norm, axis=1), 1.0))}")
    centered_rows = X - X.mean(axis=1)[:, np.newaxis]
    worst = np.abs(centered_rows.mean(axis=1)).max()
    print(f"row-centered means below 1e-12: {bool(worst < 1e-12)}")

    # pairwise Euclidean distances between two point sets, no loops
    P = np.asarray(rng.uniform(0, 10, size=(30, 2)))
    Q = np.asarray(rng.uniform(0, 10, size=(20, 2)))
    D = np.sqrt(((P[:, None, :] - Q[None, :, :]) ** 2).sum(axis=2))
    closest = D.argmin(axis=1)
    print(f"distance matrix {D.shape}, min {D.min():.6f}, max {D.max():.6f}")
    print(f"closest Q for first 8 P: {closest[:8].tolist()}")
    # the same with the expanded square trick
    D2 = np.sqrt(np.maximum((P**2).sum(1)[:, None] + (Q**2).sum(1)[None, :] - 2 * P @ Q.T, 0.0))
    print(f"expanded-square agrees: {bool(np.allclose(D, D2))}")

    # multiplication table and a 3-d broadcast
    table = np.arange(1, 10)[:, None] * np.arange(1, 10)
    print(f"9x9 table diagonal {np.diag(table).tolist()}")
    cube = np.arange(3)[:, None, None] + 10 * np.arange(4)[None, :, None] + 100 * np.arange(5)
    print(f"cube shape {cube.shape} corner {int(cube[2, 3, 4])}")

    # broadcast_to and broadcast_arrays
    row = np.arange(4)
    tiled = np.broadcast_to(row, (3, 4))
    u, v = np.broadcast_arrays(np.arange(3)[:, None], np.arange(2))
    print(f"broadcast_to {tiled.shape}, broadcast_arrays {u.shape} {v.shape}")

    # in-place broadcast updates
    grid = np.zeros((4, 5))
    grid += np.arange(5)
    grid *= np.arange(1, 5)[:, None]
    grid -= grid.mean()
    print(f"grid after in-place broadcasts: sum {grid.sum():.6f} min {grid.min():.3f}")

    # broadcasting error messages are part of the behaviour
    try:
        np.ones((3, 4)) + np.ones((3,))
    except ValueError:
        print("(3,4) + (3,) raised ValueError")

    return {
        "outer_sum": outer_sum,
        "dist": dist,
        "nearest": nearest,
        "Z": Z,
        "row_norm": row_norm,
        "centered_rows": centered_rows,
        "D": D,
        "closest": closest,
        "table": table,
        "cube": cube,
        "tiled": tiled,
        "u": u,
        "v": v,
        "grid": grid,
    }
