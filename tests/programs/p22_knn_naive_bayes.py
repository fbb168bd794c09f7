"""k-nearest neighbours and Gaussian naive Bayes, from scratch.

Style: the from-scratch classifier posts of a machine-learning blog (and
CS231n's kNN assignment): a train/test split by a seeded permutation, the
no-loop L2 distance matrix, argsort to get the k nearest labels, majority
vote with np.apply_along_axis over np.bincount, k chosen by cross-validation
with np.array_split; then a Gaussian naive Bayes with per-class means,
variances and log priors, predicted with log-likelihood sums and argmax.
"""

import numpy as _numpy


def l2_distances(np, A, B):
    sq = np.sum(A**2, axis=1)[:, np.newaxis] + np.sum(B**2, axis=1) - 2 * A @ B.T
    return np.sqrt(np.maximum(sq, 0))


def knn_predict(np, Xtr, ytr, Xte, k, n_classes):
    d = l2_distances(np, Xte, Xtr)
    nearest = np.argsort(d, axis=1, kind="stable")[:, :k]
    votes = ytr[nearest]
    return np.apply_along_axis(lambda v: np.bincount(v, minlength=n_classes).argmax(), 1, votes)


def main(np):
    rng = _numpy.random.default_rng(22)
    n_per, n_classes = 40, 3
    means = _numpy.array([[0.0, 0.0, 0.0], [2.0, 2.0, 0.0], [0.0, 2.5, 2.0]])
    X = np.asarray(_numpy.concatenate([m + rng.normal(size=(n_per, 3)) for m in means]))
    y = np.asarray(_numpy.repeat(_numpy.arange(n_classes), n_per))

    prng = np.random.default_rng(5)
    perm = prng.permutation(len(X))
    split = int(0.75 * len(X))
    tr, te = perm[:split], perm[split:]
    Xtr, ytr, Xte, yte = X[tr], y[tr], X[te], y[te]
    print(f"train {Xtr.shape}, test {Xte.shape}")

    # choose k by 5-fold cross-validation on the training set
    folds_X = np.array_split(Xtr, 5)
    folds_y = np.array_split(ytr, 5)
    cv = {}
    for k in (1, 3, 5, 9):
        accs = []
        for f in range(5):
            X_val, y_val = folds_X[f], folds_y[f]
            X_fit = np.concatenate(folds_X[:f] + folds_X[f + 1 :])
            y_fit = np.concatenate(folds_y[:f] + folds_y[f + 1 :])
            pred = knn_predict(np, X_fit, y_fit, X_val, k, n_classes)
            accs.append(float(np.mean(pred == y_val)))
        cv[k] = sum(accs) / len(accs)
        print(f"k={k}: cv accuracy {cv[k]:.4f}")
    best_k = max(cv, key=lambda k: (cv[k], -k))
    knn_pred = knn_predict(np, Xtr, ytr, Xte, best_k, n_classes)
    knn_acc = np.mean(knn_pred == yte)
    print(f"best k={best_k}, test accuracy {knn_acc:.4f}")

    # Gaussian naive Bayes
    classes = np.unique(ytr)
    mu = np.array([Xtr[ytr == c].mean(axis=0) for c in classes])
    var = np.array([Xtr[ytr == c].var(axis=0) for c in classes]) + 1e-9
    log_prior = np.log(np.bincount(ytr) / len(ytr))
    ll = -0.5 * np.sum(np.log(2 * np.pi * var), axis=1) - 0.5 * np.sum(
        (Xte[:, np.newaxis, :] - mu) ** 2 / var, axis=2
    )
    log_post = ll + log_prior
    nb_pred = classes[np.argmax(log_post, axis=1)]
    nb_acc = (nb_pred == yte).mean()
    # normalised posteriors with the log-sum-exp trick
    m = log_post.max(axis=1, keepdims=True)
    post = np.exp(log_post - m)
    post /= post.sum(axis=1, keepdims=True)
    print(f"naive Bayes accuracy {nb_acc:.4f}, mean max posterior {post.max(axis=1).mean():.6f}")
    agree = np.mean(nb_pred == knn_pred)
    print(f"kNN and NB agree on {agree:.2%} of the test set")

    return {
        "perm": perm,
        "cv": cv,
        "best_k": best_k,
        "knn_pred": knn_pred,
        "knn_acc": knn_acc,
        "mu": mu,
        "var": var,
        "log_prior": log_prior,
        "log_post": log_post,
        "nb_pred": nb_pred,
        "post": post,
    }
