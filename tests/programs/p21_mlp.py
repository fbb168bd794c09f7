"""A two-layer neural network trained on a spiral, forward and backward by hand.

Style: Stanford CS231n's "Putting it together: minimal neural network case
study": the spiral data set, ReLU hidden layer, softmax cross-entropy with
the max-subtraction trick, backpropagation written out (dscores, dhidden
with the ReLU mask set to zero in place), L2 regularisation, in-place
parameter updates; then a numerical gradient check by central differences.
"""

import numpy as _numpy


def forward_backward(np, X, y, W, b, W2, b2, reg):
    num_examples = X.shape[0]
    hidden_layer = np.maximum(0, np.dot(X, W) + b)
    scores = np.dot(hidden_layer, W2) + b2
    scores -= np.max(scores, axis=1, keepdims=True)
    exp_scores = np.exp(scores)
    probs = exp_scores / np.sum(exp_scores, axis=1, keepdims=True)
    correct_logprobs = -np.log(probs[range(num_examples), y])
    data_loss = np.sum(correct_logprobs) / num_examples
    reg_loss = 0.5 * reg * np.sum(W * W) + 0.5 * reg * np.sum(W2 * W2)
    loss = data_loss + reg_loss

    dscores = probs
    dscores[range(num_examples), y] -= 1
    dscores /= num_examples
    dW2 = np.dot(hidden_layer.T, dscores)
    db2 = np.sum(dscores, axis=0, keepdims=True)
    dhidden = np.dot(dscores, W2.T)
    dhidden[hidden_layer <= 0] = 0
    dW = np.dot(X.T, dhidden)
    db = np.sum(dhidden, axis=0, keepdims=True)
    dW2 += reg * W2
    dW += reg * W
    return loss, (dW, db, dW2, db2), scores


def main(np):
    N, D, K = 30, 2, 3
    data_rng = _numpy.random.default_rng(231)
    Xd = _numpy.zeros((N * K, D))
    yd = _numpy.zeros(N * K, dtype="uint8")
    for j in range(K):
        ix = range(N * j, N * (j + 1))
        r = _numpy.linspace(0.0, 1, N)
        t = _numpy.linspace(j * 4, (j + 1) * 4, N) + data_rng.normal(size=N) * 0.2
        Xd[ix] = _numpy.c_[r * _numpy.sin(t), r * _numpy.cos(t)]
        yd[ix] = j
    X = np.asarray(Xd)
    y = np.asarray(yd)
    print(f"spiral data {X.shape}, labels {np.bincount(y).tolist()}")

    h = 20
    W = 0.5 * np.asarray(data_rng.normal(size=(D, h)))
    b = np.zeros((1, h))
    W2 = 0.5 * np.asarray(data_rng.normal(size=(h, K)))
    b2 = np.zeros((1, K))
    step_size, reg = 1.0, 1e-3

    for i in range(50):
        loss, (dW, db, dW2, db2), _ = forward_backward(np, X, y, W, b, W2, b2, reg)
        if i % 10 == 0:
            print(f"iteration {i}: loss {loss:.6f}")
        W += -step_size * dW
        b += -step_size * db
        W2 += -step_size * dW2
        b2 += -step_size * db2

    hidden_layer = np.maximum(0, np.dot(X, W) + b)
    scores = np.dot(hidden_layer, W2) + b2
    predicted_class = np.argmax(scores, axis=1)
    accuracy = np.mean(predicted_class == y)
    print(f"training accuracy: {accuracy:.4f}")
    dead = int(np.sum(np.all(hidden_layer == 0, axis=0)))
    print(f"dead hidden units: {dead}")

    # numerical gradient check on a few entries of W2
    _, (dW, db, dW2, db2), _ = forward_backward(np, X, y, W, b, W2, b2, reg)
    h_ = 1e-5
    rel_errors = []
    for i, j in [(0, 0), (3, 1), (7, 2), (11, 0)]:
        old = float(W2[i, j])
        W2[i, j] = old + h_
        lp, _, _ = forward_backward(np, X, y, W, b, W2, b2, reg)
        W2[i, j] = old - h_
        lm, _, _ = forward_backward(np, X, y, W, b, W2, b2, reg)
        W2[i, j] = old
        numeric = (lp - lm) / (2 * h_)
        analytic = dW2[i, j]
        rel = abs(numeric - analytic) / max(1e-8, abs(numeric) + abs(analytic))
        rel_errors.append(float(rel))
    print(f"gradient check: max relative error below 1e-6: {max(rel_errors) < 1e-6}")

    return {
        "W": W,
        "b": b,
        "W2": W2,
        "b2": b2,
        "scores": scores,
        "predicted_class": predicted_class,
        "accuracy": accuracy,
        "dead": dead,
        "dW2": dW2,
    }
