"""Linear regression four ways.

Style: a from-scratch ML tutorial ("linear regression with numpy"): a design
matrix with a bias column (np.c_), the normal equations with np.linalg.solve,
np.linalg.lstsq, batch gradient descent with a learning rate and an early
stop, ridge regression, and a polynomial fit with np.polyfit / np.polyval;
R^2 and the residual standard error are printed.
"""

import numpy as _numpy


def r2_score(np, y, yhat):
    ss_res = np.sum((y - yhat) ** 2)
    ss_tot = np.sum((y - np.mean(y)) ** 2)
    return 1 - ss_res / ss_tot


def main(np):
    rng = _numpy.random.default_rng(19)
    n = 120
    x1 = np.asarray(rng.uniform(-2, 2, n))
    x2 = np.asarray(rng.uniform(0, 5, n))
    noise = np.asarray(rng.normal(0, 0.3, n))
    y = 1.5 + 2.0 * x1 - 0.7 * x2 + noise

    X = np.c_[np.ones(n), x1, x2]
    print(f"design matrix {X.shape}")

    beta_ne = np.linalg.solve(X.T @ X, X.T @ y)
    beta_inv = np.linalg.inv(X.T @ X) @ X.T @ y
    beta_ls, res, rank, sv = np.linalg.lstsq(X, y, rcond=None)
    print(f"normal equations {np.round(beta_ne, 6).tolist()}")
    print(f"lstsq agrees {bool(np.allclose(beta_ls, beta_ne))}, rank {int(rank)}")
    yhat = X @ beta_ls
    print(f"R^2 {r2_score(np, y, yhat):.6f}")
    rse = np.sqrt(np.sum((y - yhat) ** 2) / (n - X.shape[1]))
    print(f"residual standard error {rse:.6f}")
    cov_beta = rse**2 * np.linalg.inv(X.T @ X)
    se = np.sqrt(np.diag(cov_beta))
    print(f"standard errors {np.round(se, 6).tolist()}")

    # batch gradient descent on standardised features
    mu, sd = X[:, 1:].mean(axis=0), X[:, 1:].std(axis=0)
    Xs = X.copy()
    Xs[:, 1:] = (X[:, 1:] - mu) / sd
    w = np.zeros(3)
    lr = 0.1
    losses = []
    for epoch in range(50):
        err = Xs @ w - y
        loss = (err**2).mean() / 2
        losses.append(float(loss))
        grad = Xs.T @ err / n
        w -= lr * grad
        if epoch > 0 and abs(losses[-2] - losses[-1]) < 1e-12:
            break
    w_orig = w.copy()
    w_orig[1:] = w[1:] / sd
    w_orig[0] = w[0] - np.sum(w[1:] * mu / sd)
    print(f"gradient descent after {len(losses)} epochs: loss {losses[-1]:.6f}")
    print(f"GD coefficients {np.round(w_orig, 4).tolist()}")

    # ridge regression for a grid of penalties
    I = np.eye(3)
    I[0, 0] = 0
    for lam in (0.0, 1.0, 10.0, 100.0):
        b = np.linalg.solve(X.T @ X + lam * I, X.T @ y)
        print(f"ridge lambda={lam:6.1f}: |b|={np.linalg.norm(b[1:]):.6f}")

    # polynomial regression with polyfit
    t = np.linspace(-1, 1, 30)
    yt = 0.5 * t**3 - t + 0.2 + np.asarray(rng.normal(0, 0.05, 30))
    coeffs = np.polyfit(t, yt, 3)
    fitted = np.polyval(coeffs, t)
    print(f"cubic fit {np.round(coeffs, 4).tolist()}, R^2 {r2_score(np, yt, fitted):.6f}")
    line, cov = np.polyfit(t, yt, 1, cov=True)
    print(f"line slope {line[0]:.6f} +- {np.sqrt(cov[0, 0]):.6f}")

    return {
        "X": X,
        "beta_ne": beta_ne,
        "beta_inv": beta_inv,
        "beta_ls": beta_ls,
        "res": res,
        "rank": rank,
        "sv": sv,
        "rse": rse,
        "se": se,
        "w": w,
        "w_orig": w_orig,
        "losses": losses,
        "coeffs": coeffs,
        "fitted": fitted,
        "line": line,
        "cov": cov,
    }
