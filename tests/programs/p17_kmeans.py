"""k-means clustering from scratch.

Style: a from-scratch ML blog post ("k-means in 20 lines of numpy"):
k-means++ seeding with a seeded Generator, Lloyd iterations with a distance
matrix by broadcasting, empty-cluster handling, convergence test with
np.allclose, inertia, cluster sizes with bincount and an elbow curve.
"""

import numpy as _numpy


def kmeans_pp_init(np, X, k, rng):
    n = X.shape[0]
    centers = [X[rng.integers(n)]]
    for _ in range(1, k):
        C = np.array(centers)
        d2 = np.min(((X[:, None, :] - C[None, :, :]) ** 2).sum(-1), axis=1)
        probs = d2 / d2.sum()
        centers.append(X[rng.choice(n, p=probs)])
    return np.array(centers)


def kmeans(np, X, k, rng, max_iter=20, tol=1e-8):
    centers = kmeans_pp_init(np, X, k, rng)
    iterations = 0
    for _ in range(max_iter):
        iterations += 1
        dists = np.linalg.norm(X[:, np.newaxis, :] - centers[np.newaxis, :, :], axis=2)
        labels = np.argmin(dists, axis=1)
        new_centers = centers.copy()
        for j in range(k):
            members = X[labels == j]
            if len(members):
                new_centers[j] = members.mean(axis=0)
        shift = np.abs(new_centers - centers).max()
        centers = new_centers
        if np.allclose(shift, 0.0, atol=tol):
            break
    inertia = ((X - centers[labels]) ** 2).sum()
    return centers, labels, inertia, iterations


def main(np):
    data_rng = _numpy.random.default_rng(8)
    true_centers = _numpy.array([[0.0, 0.0], [5.0, 5.0], [0.0, 6.0], [6.0, 0.0]])
    blobs = [c + data_rng.normal(scale=0.8, size=(60, 2)) for c in true_centers]
    X = np.asarray(_numpy.concatenate(blobs))
    print(f"data {X.shape}, mean {np.round(X.mean(axis=0), 6).tolist()}")

    rng = np.random.default_rng(0)
    centers, labels, inertia, iters = kmeans(np, X, 4, rng)
    order = np.lexsort((centers[:, 1], centers[:, 0]))
    print(f"converged after {iters} iterations, inertia {inertia:.6f}")
    print(f"sorted centers {np.round(centers[order], 4).tolist()}")
    sizes = np.bincount(labels, minlength=4)
    print(f"cluster sizes (sorted) {sorted(sizes.tolist())}")

    elbow = []
    for k in range(1, 7):
        _, _, inert, _ = kmeans(np, X, k, np.random.default_rng(k))
        elbow.append(float(inert))
        print(f"k={k}: inertia {inert:.4f}")
    drops = -np.diff(np.array(elbow))
    print(f"largest drop going to k={int(np.argmax(drops)) + 2}")

    # silhouette-like check: mean intra vs nearest other center distance
    d_all = np.sqrt(((X[:, None, :] - centers[None, :, :]) ** 2).sum(-1))
    own = d_all[np.arange(len(X)), labels]
    d_all[np.arange(len(X)), labels] = np.inf
    other = d_all.min(axis=1)
    print(f"mean own distance {own.mean():.6f}, mean nearest other {other.mean():.6f}")

    return {
        "centers": centers[order],
        "labels_sorted_sizes": np.sort(sizes),
        "inertia": inertia,
        "iters": iters,
        "elbow": elbow,
        "own": own,
        "other": other,
    }
