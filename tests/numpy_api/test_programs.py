"""Realistic numpy programs, each written once against a namespace ``np`` and run
with ``numpy`` and with ``lazygraph.numpy``: the results must agree.

The second half replaces each hand-written backward pass by ``lazygraph.grad``
of the loss (written once, in the same style) and checks that training gives
the same parameters.
"""

from __future__ import annotations

import functools

import numpy
import pytest

import lazygraph
import lazygraph.numpy as lnp

# -- helpers ------------------------------------------------------------------------


def _leaves(x):
    if isinstance(x, tuple | list):
        return [leaf for item in x for leaf in _leaves(item)]
    return [x]


def assert_same(got, want, rtol=1e-9, atol=1e-12):
    """Every leaf of ``got`` (lazy or not) equals ``want``'s in dtype, shape and value."""
    got_leaves, want_leaves = _leaves(got), _leaves(want)
    assert len(got_leaves) == len(want_leaves)
    for g, w in zip(got_leaves, want_leaves, strict=True):
        g, w = numpy.asarray(g), numpy.asarray(w)
        assert g.dtype == w.dtype, (g.dtype, w.dtype)
        assert g.shape == w.shape, (g.shape, w.shape)
        if w.dtype.kind in "fc":
            numpy.testing.assert_allclose(g, w, rtol=rtol, atol=atol)
        else:
            numpy.testing.assert_array_equal(g, w)


def run_both(program, *args, rtol=1e-9, atol=1e-12, **kwargs):
    want = program(numpy, *args, **kwargs)
    got = program(lnp, *args, **kwargs)
    assert_same(got, want, rtol=rtol, atol=atol)
    return got, want


def _data(seed=0):
    return numpy.random.default_rng(seed)


# -- the programs ---------------------------------------------------------------------


def logistic_regression(np, X, y, steps=30, lr=0.5):
    """Binary logistic regression trained by full-batch gradient descent."""
    X = np.asarray(X)
    y = np.asarray(y)
    n, d = X.shape
    w = np.zeros(d)
    b = 0.0
    for _ in range(steps):
        z = X @ w + b
        p = 1.0 / (1.0 + np.exp(-z))
        grad_w = X.T @ (p - y) / n
        grad_b = np.mean(p - y)
        w = w - lr * grad_w
        b = b - lr * grad_b
    p = 1.0 / (1.0 + np.exp(-(X @ w + b)))
    loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    accuracy = np.mean((p > 0.5) == (y > 0.5))
    return w, b, loss, accuracy


def kmeans(np, X, k=3, iters=8):
    """Lloyd's algorithm with boolean masks selecting each cluster's points."""
    X = np.asarray(X)
    centers = X[:k].copy()
    for _ in range(iters):
        dist = np.sum((X[:, None, :] - centers[None, :, :]) ** 2, axis=-1)
        labels = np.argmin(dist, axis=1)
        for j in range(k):
            members = X[labels == j]
            if len(members) > 0:
                centers[j] = members.mean(axis=0)
    inertia = np.sum(np.min(dist, axis=1))
    return centers, labels, inertia


def mlp(np, X, Y, W1, b1, W2, b2, steps=15, lr=0.2):
    """A 2-layer tanh MLP with softmax cross-entropy and a hand-written backward pass."""
    X, Y = np.asarray(X), np.asarray(Y)
    W1, b1, W2, b2 = (np.array(a, copy=True) for a in (W1, b1, W2, b2))
    n = X.shape[0]
    for _ in range(steps):
        h = np.tanh(X @ W1 + b1)
        logits = h @ W2 + b2
        logits = logits - np.max(logits, axis=1, keepdims=True)
        e = np.exp(logits)
        p = e / np.sum(e, axis=1, keepdims=True)
        loss = -np.sum(Y * np.log(p)) / n
        dlogits = (p - Y) / n
        dW2 = h.T @ dlogits
        db2 = dlogits.sum(axis=0)
        dh = dlogits @ W2.T
        dpre = dh * (1 - h**2)
        dW1 = X.T @ dpre
        db1 = dpre.sum(axis=0)
        W1 -= lr * dW1
        b1 -= lr * db1
        W2 -= lr * dW2
        b2 -= lr * db2
    return W1, b1, W2, b2, loss


def monte_carlo_pi(np, n=20_000, seed=1234):
    """pi from the fraction of uniform points inside the unit quarter circle,
    once with the legacy global generator and once with a Generator."""
    np.random.seed(seed)
    xy = np.random.random((n, 2))
    inside = np.sum(xy[:, 0] ** 2 + xy[:, 1] ** 2 <= 1.0)
    legacy = 4.0 * inside / n
    rng = np.random.default_rng(seed)
    pts = rng.uniform(-1.0, 1.0, size=(n, 2))
    r2 = np.sum(pts * pts, axis=1)
    modern = 4.0 * np.count_nonzero(r2 <= 1.0) / n
    return legacy, modern


def heat_equation(np, n=40, steps=60, alpha=0.2):
    """An explicit 1-D heat stencil, then a 2-D one, updated in place by slices."""
    x = np.linspace(0.0, 1.0, n)
    u = np.sin(np.pi * x) + 0.5 * (x > 0.5)
    u[0] = 0.0
    u[-1] = 0.0
    for _ in range(steps):
        u[1:-1] = u[1:-1] + alpha * (u[2:] - 2 * u[1:-1] + u[:-2])
    v = np.zeros((12, 12))
    v[5:7, 5:7] = 1.0
    for _ in range(10):
        lap = v[2:, 1:-1] + v[:-2, 1:-1] + v[1:-1, 2:] + v[1:-1, :-2] - 4 * v[1:-1, 1:-1]
        v[1:-1, 1:-1] += 0.1 * lap
    return u, v, u.sum()


def mandelbrot(np, width=36, height=24, max_iter=25):
    """Escape-time Mandelbrot with boolean masks updating only live points."""
    x = np.linspace(-2.0, 1.0, width)
    y = np.linspace(-1.2, 1.2, height)
    c = x[None, :] + 1j * y[:, None]
    z = np.zeros_like(c)
    counts = np.zeros(c.shape, dtype=np.int64)
    for _ in range(max_iter):
        live = np.abs(z) <= 2.0
        z[live] = z[live] ** 2 + c[live]
        counts[live] += 1
    return counts, np.count_nonzero(counts == max_iter)


def softmax_classifier(np, X, labels, k, steps=25, lr=0.5, reg=1e-3):
    """Multinomial logistic regression with L2 regularisation, one-hot targets."""
    X = np.asarray(X)
    labels = np.asarray(labels)
    n, d = X.shape
    Y = (labels[:, None] == np.arange(k)[None, :]).astype(X.dtype)
    W = np.zeros((d, k))
    for _ in range(steps):
        scores = X @ W
        scores -= scores.max(axis=1, keepdims=True)
        probs = np.exp(scores)
        probs /= probs.sum(axis=1, keepdims=True)
        grad = X.T @ (probs - Y) / n + reg * W
        W = W - lr * grad
    predictions = np.argmax(X @ W, axis=1)
    return W, predictions, np.mean(predictions == labels)


def least_squares(np, A, b):
    """A polynomial fit by numpy.linalg.lstsq and by the normal equations."""
    A, b = np.asarray(A), np.asarray(b)
    coef, residuals, rank, sv = np.linalg.lstsq(A, b, rcond=None)
    normal = np.linalg.solve(A.T @ A, A.T @ b)
    fitted = A @ coef
    r2 = 1.0 - np.sum((b - fitted) ** 2) / np.sum((b - b.mean()) ** 2)
    return coef, residuals, rank, sv, normal, r2


# -- tests: the programs under numpy and lazygraph.numpy -----------------------------------


def classification_data(seed=0, n=60, d=3):
    rng = _data(seed)
    X = rng.normal(size=(n, d))
    y = (X @ numpy.array([1.5, -2.0, 0.5][:d]) + 0.3 * rng.normal(size=n) > 0).astype(float)
    return X, y


def test_logistic_regression():
    X, y = classification_data()
    run_both(logistic_regression, X, y)


def test_kmeans():
    rng = _data(1)
    blobs = [rng.normal(loc=c, scale=0.4, size=(20, 2)) for c in ((0, 0), (4, 4), (0, 5))]
    X = numpy.concatenate(blobs)[rng.permutation(60)]
    run_both(kmeans, X)


def mlp_data(seed=2, n=32, d=4, hidden=8, k=3):
    rng = _data(seed)
    X = rng.normal(size=(n, d))
    Y = numpy.eye(k)[rng.integers(0, k, size=n)]
    W1 = rng.normal(size=(d, hidden)) * 0.5
    b1 = numpy.zeros(hidden)
    W2 = rng.normal(size=(hidden, k)) * 0.5
    b2 = numpy.zeros(k)
    return X, Y, W1, b1, W2, b2


def test_mlp_hand_written_backward():
    params = mlp_data()
    before = [p.copy() for p in params]
    run_both(mlp, *params)
    for p, q in zip(params, before, strict=True):
        numpy.testing.assert_array_equal(p, q)  # the caller's arrays are untouched


def test_monte_carlo_pi():
    (legacy, modern), _ = run_both(monte_carlo_pi)
    assert abs(float(legacy) - numpy.pi) < 0.05
    assert abs(float(modern) - numpy.pi) < 0.05


def test_heat_equation_in_place_stencil():
    run_both(heat_equation)


def test_mandelbrot_boolean_masks():
    run_both(mandelbrot)


def test_softmax_classifier():
    rng = _data(3)
    centers = numpy.array([[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]])
    labels = rng.integers(0, 3, size=45)
    X = centers[labels] + rng.normal(scale=0.7, size=(45, 2))
    run_both(softmax_classifier, X, labels, 3)


def test_least_squares():
    rng = _data(4)
    t = numpy.linspace(-1, 1, 25)
    A = numpy.vander(t, 4)
    b = 0.5 * t**3 - t + 0.2 + 0.05 * rng.normal(size=25)
    run_both(least_squares, A, b, rtol=1e-8, atol=1e-10)


# -- the same programs with lazygraph.grad for the backward pass ----------------------------


def logistic_loss(np, w, b, X, y):
    p = 1.0 / (1.0 + np.exp(-(X @ w + b)))
    return -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))


def mlp_loss(np, params, X, Y):
    W1, b1, W2, b2 = params
    h = np.tanh(X @ W1 + b1)
    logits = h @ W2 + b2
    logits = logits - np.max(logits, axis=1, keepdims=True)
    log_p = logits - np.log(np.sum(np.exp(logits), axis=1, keepdims=True))
    return -np.sum(Y * log_p) / X.shape[0]


def softmax_loss(np, W, X, Y, reg):
    scores = X @ W
    scores = scores - scores.max(axis=1, keepdims=True)
    log_p = scores - np.log(np.exp(scores).sum(axis=1, keepdims=True))
    return -np.sum(Y * log_p) / X.shape[0] + 0.5 * reg * np.sum(W * W)


def squared_error(np, coef, A, b):
    r = A @ coef - b
    return np.sum(r * r)


def test_logistic_regression_with_grad():
    X, y = classification_data()
    w_ref, b_ref, loss_ref, _ = logistic_regression(numpy, X, y)
    grad_fn = lazygraph.grad(functools.partial(logistic_loss, lnp), argnums=(0, 1))
    w, b = numpy.zeros(3), 0.0
    for _ in range(30):
        gw, gb = grad_fn(w, b, X, y)
        w = w - 0.5 * gw
        b = b - 0.5 * gb
    assert grad_fn.trace_count == 1  # one trace: later steps reuse the compiled gradient
    assert_same(w, w_ref)
    assert_same(numpy.asarray(b), numpy.asarray(b_ref))
    assert_same(logistic_loss(numpy, w, b, X, y), loss_ref)


def test_mlp_with_grad():
    X, Y, *params = mlp_data()
    W1, b1, W2, b2, loss_ref = mlp(numpy, X, Y, *params)
    value_and_grad = lazygraph.value_and_grad(functools.partial(mlp_loss, lnp))
    params = tuple(params)
    for _ in range(15):
        loss, grads = value_and_grad(params, X, Y)
        params = tuple(p - 0.2 * g for p, g in zip(params, grads, strict=True))
    assert value_and_grad.trace_count == 1
    assert_same(params, (W1, b1, W2, b2))
    assert_same(loss, loss_ref)


def test_softmax_classifier_with_grad():
    rng = _data(3)
    centers = numpy.array([[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]])
    labels = rng.integers(0, 3, size=45)
    X = centers[labels] + rng.normal(scale=0.7, size=(45, 2))
    W_ref, pred_ref, _ = softmax_classifier(numpy, X, labels, 3)
    Y = numpy.eye(3)[labels]
    grad_fn = lazygraph.jit(lazygraph.grad(functools.partial(softmax_loss, lnp)))
    W = numpy.zeros((2, 3))
    for _ in range(25):
        W = W - 0.5 * grad_fn(W, X, Y, 1e-3)
    assert_same(W, W_ref)
    assert_same(numpy.argmax(X @ W, axis=1), pred_ref)


def test_least_squares_with_grad():
    rng = _data(4)
    t = numpy.linspace(-1, 1, 25)
    A = numpy.vander(t, 4)
    b = 0.5 * t**3 - t + 0.2 + 0.05 * rng.normal(size=25)
    grad_fn = lazygraph.grad(functools.partial(squared_error, lnp))
    coef = rng.normal(size=4)
    assert_same(grad_fn(coef, A, b), 2 * A.T @ (A @ coef - b))
    # At the least-squares solution the gradient vanishes.
    coef = numpy.linalg.lstsq(A, b, rcond=None)[0]
    numpy.testing.assert_allclose(grad_fn(coef, A, b), 0.0, atol=1e-10)
    # The Hessian of the squared error is 2 A^T A.
    assert_same(lazygraph.hessian(functools.partial(squared_error, lnp))(coef, A, b), 2 * A.T @ A)


def test_mlp_grad_inside_a_lazy_program():
    """The autograd MLP step written in lazygraph.numpy itself: grads of lazy
    parameters stay lazy, and the whole training run computes once at the end."""
    X, Y, *params = mlp_data()
    W1, b1, W2, b2, _ = mlp(numpy, X, Y, *params)
    grad_fn = lazygraph.grad(functools.partial(mlp_loss, lnp))
    lazy = tuple(lnp.asarray(p) for p in params)
    for _ in range(15):
        grads = grad_fn(lazy, X, Y)
        lazy = tuple(p - 0.2 * g for p, g in zip(lazy, grads, strict=True))
    assert all(isinstance(p, lnp.Array) for p in lazy)
    assert_same(lazygraph.compute(*lazy), (W1, b1, W2, b2))


@pytest.mark.parametrize("program", [heat_equation, mandelbrot])
def test_programs_reuse_compiled_functions(program):
    """Running a program again on the same types rewrites and compiles nothing:
    with every node in the graph (``eager_max_elements=0``) it finds its functions
    in the cache; with small arrays computed at once, it needs none."""
    from lazygraph.compile.cache import stats

    want = program(numpy)
    for eager in (0, lazygraph.config.eager_max_elements):
        with lazygraph.config.change(eager_max_elements=eager):
            assert_same(program(lnp), want)
            before = stats()
            assert_same(program(lnp), want)
            after = stats()
        assert after.compiles == before.compiles
        if eager == 0:
            assert after.hits > before.hits


def test_jit_of_whole_programs():
    """A whole training run (in-place updates included) traced once by jit."""
    params = mlp_data()
    want = mlp(numpy, *params)
    train = lazygraph.jit(functools.partial(mlp, lnp))
    assert_same(train(*params), want)
    X, Y, *rest = mlp_data(seed=5)
    assert_same(train(X, Y, *rest), mlp(numpy, X, Y, *rest))
    assert train.trace_count == 1
    heat = lazygraph.jit(functools.partial(heat_equation, lnp), static_argnums=(0, 1))
    assert_same(heat(40, 60, 0.2), heat_equation(numpy, 40, 60, 0.2))
    assert_same(heat(40, 60, 0.1), heat_equation(numpy, 40, 60, 0.1))
    assert heat.trace_count == 1  # alpha is data: a new value does not trace again
