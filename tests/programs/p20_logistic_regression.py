"""Binary and multinomial logistic regression with hand-written gradients.

Style: a from-scratch ML tutorial ("logistic regression in numpy"): sigmoid
with np.clip against overflow, log loss with an epsilon, full-batch gradient
descent, accuracy, precision/recall from a confusion matrix built with
np.add.at, the decision threshold sweep (ROC points and AUC by the
trapezoidal rule), and a one-vs-rest multinomial model.
"""

import numpy as _numpy


def sigmoid(np, z):
    z = np.clip(z, -500, 500)
    return 1.0 / (1.0 + np.exp(-z))


def main(np):
    rng = _numpy.random.default_rng(20)
    n = 200
    X = np.asarray(rng.normal(size=(n, 2)))
    true_w = np.array([2.0, -1.0])
    y = (X @ true_w + 0.5 + np.asarray(rng.normal(scale=0.8, size=n)) > 0).astype(int)
    print(f"class balance {np.bincount(y).tolist()}")

    w = np.zeros(2)
    b = 0.0
    lr = 0.5
    eps = 1e-12
    for epoch in range(40):
        p = sigmoid(np, X @ w + b)
        loss = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))
        dw = X.T @ (p - y) / n
        db = np.sum(p - y) / n
        w -= lr * dw
        b -= lr * db
        if epoch % 10 == 0:
            print(f"epoch {epoch:2d}: loss {loss:.6f}")
    print(f"weights {np.round(w, 6).tolist()}, bias {float(b):.6f}")

    p = sigmoid(np, X @ w + b)
    pred = (p >= 0.5).astype(int)
    acc = (pred == y).mean()
    cm = np.zeros((2, 2), dtype=int)
    np.add.at(cm, (y, pred), 1)
    _tn, fp, fn, tp = cm.ravel()
    precision = tp / (tp + fp)
    recall = tp / (tp + fn)
    f1 = 2 * precision * recall / (precision + recall)
    print(f"accuracy {acc:.4f} precision {precision:.4f} recall {recall:.4f} f1 {f1:.4f}")
    print("confusion matrix:")
    print(cm)

    thresholds = np.linspace(1, 0, 21)
    tpr = np.array([((p >= t) & (y == 1)).sum() / (y == 1).sum() for t in thresholds])
    fpr = np.array([((p >= t) & (y == 0)).sum() / (y == 0).sum() for t in thresholds])
    auc = np.trapezoid(tpr, fpr)
    print(f"AUC {auc:.6f}")

    # one-vs-rest on three classes
    centers = np.array([[0.0, 0.0], [3.0, 3.0], [-3.0, 3.0]])
    labels = np.asarray(rng.integers(0, 3, 150))
    Xm = centers[labels] + np.asarray(rng.normal(size=(150, 2)))
    Xb = np.hstack([Xm, np.ones((150, 1))])
    W = np.zeros((3, 3))
    for c in range(3):
        target = (labels == c).astype(float)
        wc = np.zeros(3)
        for _ in range(30):
            pc = sigmoid(np, Xb @ wc)
            wc -= 0.3 * Xb.T @ (pc - target) / len(target)
        W[c] = wc
    scores = Xb @ W.T
    pred_m = scores.argmax(axis=1)
    per_class = np.array([(pred_m[labels == c] == c).mean() for c in range(3)])
    print(f"one-vs-rest accuracy {(pred_m == labels).mean():.4f}")
    print(f"per-class recall {np.round(per_class, 4).tolist()}")

    return {
        "w": w,
        "b": b,
        "p": p,
        "pred": pred,
        "acc": acc,
        "cm": cm,
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "tpr": tpr,
        "fpr": fpr,
        "auc": auc,
        "W": W,
        "pred_m": pred_m,
        "per_class": per_class,
    }
