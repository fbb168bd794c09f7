"""Drop-in speed (issue 17): numpy programs run unchanged under numpy, lazygraph.numpy, jax.numpy.

Every program below is a plain function written the way a numpy user writes it,
against a module passed in as ``np``: ``numpy`` itself, ``lazygraph.numpy`` on
lazygraph's default backend (``lazygraph``) and on its python backend
(``lazygraph-python``, ``LAZYGRAPH_BACKEND=python``), and ``jax.numpy`` with
float64 enabled and no ``jax.jit`` (``jax``). The harness converts what a program
returns into numpy arrays (``numpy.asarray``, the point where a lazy result is
computed) inside the timed region, and checks every engine's result against
numpy's. A program jax cannot run unchanged (item assignment into an immutable
array, say) shows ``n/a`` with the reason; it is never dropped.

Each (program, engine) pair runs in fresh processes (OPENBLAS_NUM_THREADS=1, the
compile cache in a new empty temporary folder):

- the first process times the first run (``first run, empty caches``) and then
  the median of ``--repeats`` warm runs in the same process (``warm``; a run of
  a few microseconds is repeated in a loop and the loop's mean is one sample);
- a second process, sharing the now filled cache folder, times its first run
  again (``first run, warm cache``).

The micro-cost rows (issue 17's list) are programs too, with an untimed part
that makes their inputs (the computed ``(3, 4)`` array of ``float(a[1, 2])``)
and, for the recording row, no conversion to numpy inside the timed region.

    OPENBLAS_NUM_THREADS=1 python benchmarks/dropin.py   # full sizes, writes the README table
    python benchmarks/dropin.py --quick                  # tiny sizes, one warm run: a smoke run
    python benchmarks/dropin.py --programs kmeans,dct_textbook --engines numpy,lazygraph

The table goes to standard output and ``benchmarks/results/dropin.md``, the raw
numbers to ``benchmarks/results/dropin.json``; a full run of every program and
engine also replaces the table between the ``dropin`` markers of
benchmarks/README.md (``--no-readme``: it does not).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
README = HERE / "README.md"
START, END = "<!-- dropin:start -->", "<!-- dropin:end -->"

ENGINES = ("numpy", "lazygraph", "lazygraph-python", "jax")
ENGINE_TITLES = {
    "numpy": "numpy",
    "lazygraph": "lazygraph (default backend)",
    "lazygraph-python": "lazygraph (python backend)",
    "jax": "jax.numpy, no jit",
}

Data = dict[str, numpy.ndarray]


# --------------------------------------------------------------------------------------
# The programs. Each takes the numpy-like module and its inputs (numpy arrays made by its
# setup, outside the timed region) and returns its results; the harness converts them to
# numpy. Programs never write into their inputs (the harness checks): a program that
# updates an array in place copies it first, as numpy code that keeps its data must.
# --------------------------------------------------------------------------------------


def running_integral(np: Any, d: Data) -> Any:
    """Element loop with item assignment: cumulative trapezoid integral of samples."""
    x = np.asarray(d["x"])
    dt = 0.01
    out = np.zeros(len(x))
    for i in range(1, len(x)):
        out[i] = out[i - 1] + 0.5 * (x[i] + x[i - 1]) * dt
    return out


def zero_crossings(np: Any, d: Data) -> Any:
    """Element loop reading values: count sign changes and sum the jumps across them."""
    x = np.asarray(d["x"])
    count = 0
    jump = 0.0
    for i in range(1, len(x)):
        if x[i - 1] * x[i] < 0:
            count += 1
            jump += float(abs(x[i] - x[i - 1]))
    return numpy.array([count, jump])


def jacobi(np: Any, d: Data) -> Any:
    """Jacobi iteration for a diagonally dominant system, stopping on the update's norm."""
    A = np.asarray(d["A"])
    b = np.asarray(d["b"])
    D = np.diag(A)
    R = A - np.diag(D)
    x = np.zeros_like(b)
    for _ in range(500):
        x_new = (b - R @ x) / D
        if np.linalg.norm(x_new - x) < 1e-10:
            break
        x = x_new
    return x_new


def conjugate_gradient(np: Any, d: Data) -> Any:
    """Conjugate gradients on a symmetric positive definite system."""
    A = np.asarray(d["A"])
    b = np.asarray(d["b"])
    x = np.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rs = r @ r
    iterations = 0
    while np.sqrt(rs) > 1e-10 and iterations < 1000:
        Ap = A @ p
        alpha = rs / (p @ Ap)
        x += alpha * p
        r -= alpha * Ap
        rs_new = r @ r
        p = r + (rs_new / rs) * p
        rs = rs_new
        iterations += 1
    return x


def power_iteration(np: Any, d: Data) -> Any:
    """Dominant eigenvalue and eigenvector, stopping when the estimate settles."""
    A = np.asarray(d["A"])
    n = A.shape[0]
    v = np.ones(n) / np.sqrt(n)
    lam = 0.0
    for _ in range(1000):
        w = A @ v
        lam_new = v @ w
        v = w / np.linalg.norm(w)
        if abs(lam_new - lam) < 1e-10 * abs(lam_new):
            break
        lam = lam_new
    return lam_new, np.abs(v)


def logistic_regression(np: Any, d: Data) -> Any:
    """Gradient descent on the logistic loss until the gradient is small."""
    X = np.asarray(d["X"])
    y = np.asarray(d["y"])
    w = np.zeros(X.shape[1])
    lr = 0.5
    for _ in range(300):
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        grad = X.T @ (p - y) / len(y)
        if np.linalg.norm(grad) < 1e-4:
            break
        w = w - lr * grad
    return w


def fir_filter(np: Any, d: Data) -> Any:
    """Signal processing loop: an FIR filter applied one tap at a time into a buffer."""
    x = np.asarray(d["x"])
    h = np.asarray(d["h"])
    n = len(x)
    y = np.zeros(n)
    for k in range(len(h)):
        y[k:] += h[k] * x[: n - k]
    return y


def spectrogram(np: Any, d: Data) -> Any:
    """Signal processing loop: Hann-windowed frames through rfft, then log power."""
    x = np.asarray(d["x"])
    width, hop = 64, 32
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(width) / (width - 1))
    frames = []
    for start in range(0, len(x) - width + 1, hop):
        frame = x[start : start + width] * window
        frames.append(np.abs(np.fft.rfft(frame)) ** 2)
    power = np.stack(frames)
    return 10 * np.log10(power + 1e-12)


def box_blur(np: Any, d: Data) -> Any:
    """Image filter: a 3x3 box blur with edge padding, applied a few times."""
    img = np.asarray(d["img"])
    for _ in range(4):
        p = np.pad(img, 1, mode="edge")
        img = (
            p[:-2, :-2] + p[:-2, 1:-1] + p[:-2, 2:]
            + p[1:-1, :-2] + p[1:-1, 1:-1] + p[1:-1, 2:]
            + p[2:, :-2] + p[2:, 1:-1] + p[2:, 2:]
        ) / 9.0  # fmt: skip
    return img


def sobel_edges(np: Any, d: Data) -> Any:
    """Image filter: Sobel gradient magnitude and a thresholded edge mask."""
    img = np.asarray(d["img"])
    gx = (img[:-2, 2:] + 2 * img[1:-1, 2:] + img[2:, 2:]) - (
        img[:-2, :-2] + 2 * img[1:-1, :-2] + img[2:, :-2]
    )
    gy = (img[2:, :-2] + 2 * img[2:, 1:-1] + img[2:, 2:]) - (
        img[:-2, :-2] + 2 * img[:-2, 1:-1] + img[:-2, 2:]
    )
    magnitude = np.hypot(gx, gy)
    edges = magnitude > 0.5 * magnitude.max()
    return magnitude, edges, np.count_nonzero(edges)


def heat_equation(np: Any, d: Data) -> Any:
    """Explicit finite differences for 2-d heat flow, updating the interior in place."""
    u = np.asarray(d["u0"]).copy()
    alpha = 0.2
    for _ in range(20):
        u[1:-1, 1:-1] = u[1:-1, 1:-1] + alpha * (
            u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4 * u[1:-1, 1:-1]
        )
    return u


def wave_history(np: Any, d: Data) -> Any:
    """Time stepping into a preallocated history: row ``t + 1`` from row ``t`` of a
    damped 1-d wave with a time-dependent source, its peak read every 10 steps."""
    u0, src = np.asarray(d["u0"]), np.asarray(d["src"])
    steps, dt = 60, 0.1
    hist = np.zeros((steps + 1, u0.shape[0]))
    hist[0] = u0
    peaks = []
    for t in range(steps):
        lap = np.roll(hist[t], 1) - 2 * hist[t] + np.roll(hist[t], -1)
        hist[t + 1] = 0.99 * hist[t] + 0.2 * lap + 0.01 * np.sin(0.3 * t * dt) * src
        if t % 10 == 9:
            peaks.append(float(np.abs(hist[t + 1]).max()))
    return hist, np.array(peaks)


def monte_carlo_pi(np: Any, d: Data) -> Any:
    """Monte Carlo: estimate pi from batches of random points."""
    hits = 0
    total = 0
    for batch in np.asarray(d["points"]):
        x, y = batch[0], batch[1]
        hits += int(np.count_nonzero(x * x + y * y <= 1.0))
        total += x.shape[0]
    return 4.0 * hits / total


def monte_carlo_asian(np: Any, d: Data) -> Any:
    """Monte Carlo: price an Asian call option from geometric Brownian motion paths."""
    z = np.asarray(d["z"])
    s0, strike, rate, sigma, years = 100.0, 100.0, 0.03, 0.2, 1.0
    dt = years / z.shape[1]
    log_paths = np.cumsum((rate - 0.5 * sigma**2) * dt + sigma * np.sqrt(dt) * z, axis=1)
    prices = s0 * np.exp(log_paths)
    payoff = np.maximum(prices.mean(axis=1) - strike, 0.0)
    price = np.exp(-rate * years) * payoff.mean()
    stderr = payoff.std() / np.sqrt(len(payoff))
    return price, stderr


def nbody(np: Any, d: Data) -> Any:
    """Pairwise gravity with broadcasting and a few leapfrog steps."""
    pos = np.asarray(d["pos"]).copy()
    vel = np.asarray(d["vel"]).copy()
    mass = np.asarray(d["mass"])
    dt, soft = 0.01, 0.1
    for _ in range(5):
        dx = pos[None, :, :] - pos[:, None, :]
        r2 = (dx**2).sum(axis=2) + soft**2
        acc = (dx * (mass[None, :, None] * r2[:, :, None] ** -1.5)).sum(axis=1)
        vel += dt * acc
        pos += dt * vel
    return pos, vel


def mlp_backprop(np: Any, d: Data) -> Any:
    """A plain-numpy MLP (tanh, softmax) trained by hand-written backprop and SGD."""
    X = np.asarray(d["X"])
    Y = np.asarray(d["Y"])
    W1 = np.asarray(d["W1"]).copy()
    W2 = np.asarray(d["W2"]).copy()
    b1 = np.zeros(W1.shape[1])
    b2 = np.zeros(W2.shape[1])
    n = X.shape[0]
    lr = 0.1
    losses = []
    for step in range(20):
        h = np.tanh(X @ W1 + b1)
        logits = h @ W2 + b2
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        loss = -np.mean(np.sum(Y * np.log(p + 1e-12), axis=1))
        dlogits = (p - Y) / n
        dW2 = h.T @ dlogits
        db2 = dlogits.sum(axis=0)
        dh = (dlogits @ W2.T) * (1 - h**2)
        dW1 = X.T @ dh
        db1 = dh.sum(axis=0)
        W1 -= lr * dW1
        b1 -= lr * db1
        W2 -= lr * dW2
        b2 -= lr * db2
        if step % 5 == 0:
            losses.append(float(loss))
    return W1, W2, numpy.array(losses)


def kmeans(np: Any, d: Data) -> Any:
    """k-means: assign by squared distance, move centres to the mean, stop when they settle."""
    X = np.asarray(d["X"])
    k = 4
    centers = X[:k].copy()
    for _ in range(50):
        d2 = ((X[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
        labels = np.argmin(d2, axis=1)
        new = np.stack([X[labels == j].mean(axis=0) for j in range(k)])
        if np.allclose(new, centers):
            break
        centers = new
    return centers, labels


def game_of_life(np: Any, d: Data) -> Any:
    """Conway's Game of Life on a torus: neighbour counts from rolled copies."""
    grid = np.asarray(d["grid"])
    for _ in range(10):
        neighbours = sum(
            np.roll(np.roll(grid, i, axis=0), j, axis=1)
            for i in (-1, 0, 1)
            for j in (-1, 0, 1)
            if (i, j) != (0, 0)
        )
        grid = ((neighbours == 3) | ((grid == 1) & (neighbours == 2))).astype(np.int8)
    return grid


def data_cleaning(np: Any, d: Data) -> Any:
    """Data cleaning with masks: fill gaps, winsorize outliers, drop bad rows, standardize."""
    X = np.asarray(d["X"])
    missing = np.isnan(X)
    col_mean = np.nanmean(X, axis=0)
    X = np.where(missing, col_mean, X)
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    outlier = np.abs(X - mu) > 3 * sd
    X = np.where(outlier, np.clip(X, mu - 3 * sd, mu + 3 * sd), X)
    keep = (missing.sum(axis=1) + outlier.sum(axis=1)) <= 1
    X = X[keep]
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    return X, keep.sum()


def small_linalg(np: Any, d: Data) -> Any:
    """Small linear algebra: many least-squares fits by the normal equations, with dets."""
    A = np.asarray(d["A"])
    y = np.asarray(d["y"])
    coefs = []
    dets = []
    for i in range(A.shape[0]):
        G = A[i].T @ A[i]
        coefs.append(np.linalg.solve(G, A[i].T @ y[i]))
        dets.append(np.linalg.det(G))
    coefs = np.stack(coefs)
    residual = y - np.einsum("mij,mj->mi", A, coefs)
    return coefs, np.stack(dets), np.linalg.norm(residual, axis=1)


def dct_textbook(np: Any, d: Data) -> Any:
    """The textbook DCT-II, one term at a time (a micro-cost of issue 17 and a program)."""
    x = np.asarray(d["x"])
    N = len(x)
    out = np.zeros(N)
    for k in range(N):
        for n, xn in enumerate(x):
            out[k] += xn * np.cos(np.pi * k * (2 * n + 1) / (2 * N))
    return out


# ---- the micro-costs: an untimed ``prepare`` makes the state, ``run`` is what is timed ----


def _prep_x(np: Any, d: Data) -> dict[str, Any]:
    return {"x": np.asarray(d["x"])}


def micro_record(np: Any, s: dict[str, Any]) -> Any:
    return s["x"] * 2 + 1


def micro_compute(np: Any, s: dict[str, Any]) -> Any:
    # ``(x * 2 + 1).compute()``, written so that numpy and jax run it too
    return numpy.asarray(s["x"] * 2 + 1)


def _prep_computed(np: Any, d: Data) -> dict[str, Any]:
    a = np.asarray(d["a"]) * 2
    numpy.asarray(a)  # computes a (and pins it: later reads need no graph)
    return {"a": a}


def micro_item(np: Any, s: dict[str, Any]) -> Any:
    return float(s["a"][1, 2])


def micro_item_loop(np: Any, s: dict[str, Any]) -> Any:
    a = s["a"]
    total = 0.0
    for i in range(200):
        total += float(a[i, 0])
    return total


def micro_while_norm(np: Any, d: Data) -> Any:
    """``while float(np.linalg.norm(r)) > tol:``, a Richardson iteration of 9 steps."""
    A = np.asarray(d["A"])
    b = np.asarray(d["b"])
    tol = float(d["tol"])
    x = np.zeros_like(b)
    r = b - A @ x
    steps = 0
    while float(np.linalg.norm(r)) > tol:
        x = x + 0.9 * r
        r = b - A @ x
        steps += 1
    return x, steps


def micro_pow(np: Any, d: Data) -> Any:
    b = np.asarray(d["a"])
    return numpy.asarray(b + b**10)


def _prep_xy(np: Any, d: Data) -> dict[str, Any]:
    return {"x": np.asarray(d["x"]), "y": np.asarray(d["y"])}


def micro_chain(np: Any, s: dict[str, Any]) -> Any:
    x, y = s["x"], s["y"]
    return np.exp(x) * np.sin(y) + np.log1p(x * x) - np.tanh(y) * np.sqrt(np.abs(x) + 1)


# ---- inputs (real numpy, seeded, untimed) ----


def _rng(seed: int = 0) -> numpy.random.Generator:
    return numpy.random.default_rng(seed)


def _signal(n: int) -> Data:
    t = numpy.arange(n) / 100.0
    return {"x": numpy.sin(2 * numpy.pi * 3 * t) + 0.3 * _rng().standard_normal(n)}


def _dominant(n: int) -> Data:
    rng = _rng()
    A = rng.random((n, n))
    A += numpy.diag(A.sum(axis=1) + 1.0)
    return {"A": A, "b": rng.random(n)}


def _spd(n: int) -> Data:
    rng = _rng()
    M = rng.standard_normal((n, n))
    return {"A": M @ M.T / n + numpy.eye(n), "b": rng.standard_normal(n)}


def _classification(n: int) -> Data:
    rng = _rng()
    X = rng.standard_normal((n, 10))
    w = rng.standard_normal(10)
    return {"X": X, "y": (X @ w + 0.5 * rng.standard_normal(n) > 0).astype(numpy.float64)}


def _image(n: int) -> Data:
    rng = _rng()
    yy, xx = numpy.mgrid[0:n, 0:n] / max(n - 1, 1)
    return {"img": ((xx - 0.5) ** 2 + (yy - 0.5) ** 2 < 0.1) + 0.1 * rng.random((n, n))}


def _heat(n: int) -> Data:
    u = numpy.zeros((n, n))
    u[n // 4 : 3 * n // 4, n // 4 : 3 * n // 4] = 100.0
    return {"u0": u}


def _nbody(n: int) -> Data:
    rng = _rng()
    return {
        "pos": rng.standard_normal((n, 3)),
        "vel": 0.1 * rng.standard_normal((n, 3)),
        "mass": rng.random(n) + 0.5,
    }


def _mlp(n: int) -> Data:
    rng = _rng()
    X = rng.standard_normal((n, 32))
    labels = (X[:, :10] @ rng.standard_normal((10, 10))).argmax(axis=1)
    return {
        "X": X,
        "Y": numpy.eye(10)[labels],
        "W1": rng.standard_normal((32, 64)) * 0.1,
        "W2": rng.standard_normal((64, 10)) * 0.1,
    }


def _blobs(n: int) -> Data:
    rng = _rng()
    centres = numpy.array([[0.0, 0.0], [6.0, 0.0], [0.0, 6.0], [6.0, 6.0]])
    X = centres[numpy.arange(n) % 4] + rng.standard_normal((n, 2))
    return {"X": X}


def _life(n: int) -> Data:
    return {"grid": (_rng().random((n, n)) < 0.3).astype(numpy.int8)}


def _dirty(n: int) -> Data:
    rng = _rng()
    X = rng.standard_normal((n, 8)) * [1, 2, 3, 4, 5, 6, 7, 8] + 10
    X[rng.random(X.shape) < 0.02] = numpy.nan
    X[rng.random(X.shape) < 0.01] *= 50  # outliers
    return {"X": X}


def _lstsq(n: int) -> Data:
    rng = _rng()
    return {"A": rng.standard_normal((n, 8, 4)), "y": rng.standard_normal((n, 8))}


def _richardson(n: int) -> Data:
    """A system whose Richardson iteration (x += 0.9 r) stops after exactly 9 steps: the
    tolerance sits between the residual norms after 8 and after 9 steps."""
    rng = _rng()
    A = numpy.eye(n) + 0.4 * rng.random((n, n)) / n
    b = rng.random(n)
    x = numpy.zeros(n)
    norms = []
    for _ in range(9):
        x = x + 0.9 * (b - A @ x)
        norms.append(numpy.linalg.norm(b - A @ x))
    return {"A": A, "b": b, "tol": numpy.array(math.sqrt(norms[7] * norms[8]))}


# --------------------------------------------------------------------------------------
# The table of programs.
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Program:
    name: str
    title: str  # the table's row label; ``{n}`` is the size
    setup: Callable[[int], Data]
    run: Callable[[Any, Any], Any]
    full: int
    quick: int
    #: untimed: makes the state ``run`` takes from the module and the inputs
    prepare: Callable[[Any, Data], Any] | None = None
    #: convert the result to numpy inside the timed region (False: recording only)
    materialize: bool = True
    micro: bool = False
    rtol: float = 1e-7
    atol: float = 1e-9


def _p(*args: Any, **kwargs: Any) -> Program:
    return Program(*args, **kwargs)


PROGRAMS: tuple[Program, ...] = (
    _p("running_integral", "running integral, element loop, {n:,} samples",
       _signal, running_integral, 1_000, 20),
    _p("zero_crossings", "zero crossings, element loop, {n:,} samples",
       _signal, zero_crossings, 2_000, 30),
    _p("jacobi", "Jacobi solver to 1e-10, {n}x{n}", _dominant, jacobi, 300, 8),
    _p("conjugate_gradient", "conjugate gradients to 1e-10, {n}x{n}",
       _spd, conjugate_gradient, 300, 8, rtol=1e-6),
    _p("power_iteration", "power iteration, {n}x{n}", _spd, power_iteration, 300, 8,
       rtol=1e-6),
    _p("logistic_regression", "logistic regression by gradient descent, {n:,}x10",
       _classification, logistic_regression, 10_000, 50, rtol=1e-6),
    _p("fir_filter", "FIR filter, 64 taps, {n:,} samples",
       lambda n: {**_signal(n), "h": numpy.hanning(64) / 32}, fir_filter, 100_000, 100),
    _p("spectrogram", "spectrogram (64-sample frames, rfft), {n:,} samples",
       _signal, spectrogram, 20_000, 256, atol=1e-6),
    _p("box_blur", "3x3 box blur x4, {n}x{n} image", _image, box_blur, 1_000, 8),
    _p("sobel_edges", "Sobel edges, {n}x{n} image", _image, sobel_edges, 1_000, 8),
    _p("heat_equation", "2-d heat equation, 20 steps, {n}x{n}",
       _heat, heat_equation, 500, 8),
    _p("wave_history", "wave into a (61, {n:,}) history, `h[t + 1] = f(h[t], t)`",
       lambda n: {"u0": numpy.sin(numpy.linspace(0.0, 6.0, n)), "src": _rng().random(n)},
       wave_history, 200_000, 50),
    _p("monte_carlo_pi", "Monte Carlo pi, 10 batches of {n:,} points",
       lambda n: {"points": _rng().random((10, 2, n))}, monte_carlo_pi, 100_000, 50),
    _p("monte_carlo_asian", "Monte Carlo Asian option, {n:,} paths x 64 steps",
       lambda n: {"z": _rng().standard_normal((n, 64))}, monte_carlo_asian, 50_000, 20),
    _p("nbody", "n-body, 5 leapfrog steps, {n} bodies", _nbody, nbody, 300, 5),
    _p("mlp_backprop", "MLP 32-64-10, backprop, 20 SGD steps, batch {n}",
       _mlp, mlp_backprop, 1_000, 16, rtol=1e-6),
    _p("kmeans", "k-means, k=4, {n:,} points", _blobs, kmeans, 10_000, 40),
    _p("game_of_life", "Game of Life, 10 steps, {n}x{n}", _life, game_of_life, 500, 8),
    _p("data_cleaning", "data cleaning with masks, {n:,}x8", _dirty, data_cleaning,
       100_000, 60),
    _p("small_linalg", "{n} least-squares fits 8x4, solve + det",
       _lstsq, small_linalg, 200, 4, rtol=1e-6),
    _p("dct_textbook", "textbook DCT `out[k] += xn * np.cos(...)`, N = {n}",
       lambda n: {"x": _rng().random(n)}, dct_textbook, 64, 8, micro=True, rtol=1e-6),
    _p("micro_record", "record `x * 2 + 1`, {n:,} float64 (no compute)",
       lambda n: {"x": _rng().random(n)}, micro_record, 1_000, 1_000,
       prepare=_prep_x, materialize=False, micro=True),
    _p("micro_compute", "`(x * 2 + 1).compute()`, {n:,} float64, cached graph",
       lambda n: {"x": _rng().random(n)}, micro_compute, 1_000, 1_000,
       prepare=_prep_x, micro=True),
    _p("micro_item", "`float(a[1, 2])` on a computed (3, 4) array",
       lambda n: {"a": _rng().random((3, 4))}, micro_item, 3, 3,
       prepare=_prep_computed, micro=True),
    _p("micro_item_loop", "200 x `float(a[i, 0])` on a computed array",
       lambda n: {"a": _rng().random((n, 4))}, micro_item_loop, 200, 200,
       prepare=_prep_computed, micro=True),
    _p("micro_while_norm", "`while float(np.linalg.norm(r)) > tol:`, 9 iterations, n = {n}",
       _richardson, micro_while_norm, 100, 100, micro=True),
    _p("micro_pow", "`b = np.asarray(a); (b + b**10).compute()`, {n:,} float64",
       lambda n: {"a": _rng().random(n)}, micro_pow, 5_000_000, 1_000, micro=True),
    _p("micro_chain", "`exp(x)*sin(y) + log1p(x*x) - tanh(y)*sqrt(abs(x)+1)`, {n:,} float64",
       lambda n: {"x": _rng().random(n), "y": _rng(1).random(n)}, micro_chain,
       10_000_000, 1_000, prepare=_prep_xy, micro=True),
)  # fmt: skip
BY_NAME = {p.name: p for p in PROGRAMS}


# --------------------------------------------------------------------------------------
# Running one program in this process.
# --------------------------------------------------------------------------------------


def load_engine(engine: str) -> Any:
    """The numpy-like module of ``engine``. ``lazygraph-python`` relies on
    LAZYGRAPH_BACKEND=python being set before lazygraph is imported (the harness sets it)."""
    if engine == "numpy":
        return numpy
    if engine in ("lazygraph", "lazygraph-python"):
        import lazygraph.numpy

        return lazygraph.numpy
    if engine == "jax":
        import jax

        jax.config.update("jax_enable_x64", True)
        import jax.numpy

        return jax.numpy
    raise ValueError(f"unknown engine {engine!r}; expected one of {', '.join(ENGINES)}")


def to_numpy(result: Any) -> tuple[numpy.ndarray, ...]:
    """A program's result as a tuple of numpy arrays (this computes lazy values)."""
    items = result if isinstance(result, tuple) else (result,)
    return tuple(numpy.asarray(item) for item in items)


def run_program(
    program: Program, np: Any, data: Data
) -> Callable[[], tuple[numpy.ndarray, ...] | Any]:
    """The timed callable of ``program`` on module ``np`` (its untimed part done)."""
    state = program.prepare(np, data) if program.prepare is not None else data
    if program.materialize:
        return lambda: to_numpy(program.run(np, state))
    return lambda: program.run(np, state)


def check(
    program: Program, got: tuple[numpy.ndarray, ...], want: tuple[numpy.ndarray, ...]
) -> str | None:
    """None when ``got`` matches numpy's ``want``, else what differs."""
    if len(got) != len(want):
        return f"{len(got)} results, numpy gives {len(want)}"
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        if g.shape != w.shape:
            return f"result {i}: shape {g.shape}, numpy gives {w.shape}"
        if not numpy.allclose(g, w, rtol=program.rtol, atol=program.atol, equal_nan=True):
            err = numpy.max(numpy.abs(g.astype(float) - w.astype(float)))
            return f"result {i}: max abs difference {err:.3g}"
    return None


def _inputs(program: Program, size: int) -> Data:
    return program.setup(size)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:200]


def measure(program: Program, engine: str, size: int, repeats: int, quick: bool) -> dict:
    """Run ``program`` in this process: the first run, then ``repeats`` warm samples.
    Returns the timings and the results (numpy arrays) of the first and the last run."""
    t = time.perf_counter()
    np = load_engine(engine)
    out: dict[str, Any] = {"import_s": time.perf_counter() - t}
    data = _inputs(program, size)
    pristine = {k: v.copy() for k, v in data.items()}
    fallbacks: list[str] = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call = run_program(program, np, data)
            t, c = time.perf_counter(), time.process_time()
            first = call()
            out["first_s"] = time.perf_counter() - t
            out["first_cpu_s"] = time.process_time() - c
        fallbacks = sorted({str(w.message).splitlines()[0][:160] for w in caught})
        # a sample lasts at least ``target`` seconds: micro-costs are looped
        target = 0.002 if quick else 0.05
        t = time.perf_counter()
        last = call()
        once = time.perf_counter() - t
        loops = max(1, min(100_000, math.ceil(target / max(once, 1e-7))))
        samples = []
        for _ in range(repeats):
            t = time.perf_counter()
            for _ in range(loops):
                last = call()
            samples.append((time.perf_counter() - t) / loops)
    except Exception as exc:  # reported in the table, never raised
        out["error"] = _one_line(exc)
        out["traceback"] = traceback.format_exc(limit=-4)
        return out
    for key, value in data.items():
        if not numpy.array_equal(value, pristine[key], equal_nan=True):
            out["error"] = f"the program wrote into its input {key!r}"
            return out
    out.update(warm_s=statistics.median(samples), samples=samples, loops=loops)
    out["fallbacks"] = fallbacks
    out["first"] = to_numpy(first)
    out["last"] = to_numpy(last)
    return out


def _child(args: argparse.Namespace) -> int:
    program = BY_NAME[args.one[0]]
    result = measure(program, args.one[1], args.size, args.repeats, args.quick)
    arrays: dict[str, numpy.ndarray] = {}
    for key in ("first", "last"):
        for i, value in enumerate(result.pop(key, ())):
            arrays[f"{key}_{i}"] = value
    if arrays:
        numpy.savez(args.result + ".npz", **arrays)
    Path(args.result + ".json").write_text(json.dumps(result))
    return 0


# --------------------------------------------------------------------------------------
# The harness: fresh processes per (program, engine), then the tables.
# --------------------------------------------------------------------------------------


def child_env(engine: str, cache_dir: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        OPENBLAS_NUM_THREADS="1",
        LAZYGRAPH_CACHE_DIR=cache_dir,
        NUMBA_CACHE_DIR=os.path.join(cache_dir, "numba"),
        LAZYGRAPH_PROGRESS="0",
        PYTHONHASHSEED="0",
    )
    env.pop("LAZYGRAPH_BACKEND", None)  # "lazygraph" is the default backend
    if engine == "lazygraph-python":
        env["LAZYGRAPH_BACKEND"] = "python"
    if engine == "jax":
        env.setdefault("JAX_PLATFORMS", "cpu")  # beside numpy on the same CPU
    return env


def run_child(
    program: Program, engine: str, size: int, repeats: int, quick: bool, cache_dir: str,
    timeout: float, work: str, tag: str,
) -> dict:  # fmt: skip
    """One fresh process; its timings, and its results loaded back from ``work``."""
    base = os.path.join(work, f"{program.name}-{engine}-{tag}")
    cmd = [
        sys.executable, str(Path(__file__).resolve()), "--one", program.name, engine,
        "--size", str(size), "--repeats", str(repeats), "--result", base,
    ]  # fmt: skip
    if quick:
        cmd.append("--quick")
    t = time.perf_counter()
    try:
        proc = subprocess.run(
            cmd, env=child_env(engine, cache_dir), capture_output=True, text=True,
            timeout=timeout,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"error": f"timeout: > {timeout:.0f} s", "timeout": True}
    wall = time.perf_counter() - t
    if proc.returncode != 0 or not os.path.exists(base + ".json"):
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        return {"error": f"process failed (rc {proc.returncode}): {tail[0][:200]}"}
    result = json.loads(Path(base + ".json").read_text())
    result["process_s"] = wall
    if os.path.exists(base + ".npz"):
        with numpy.load(base + ".npz") as z:
            for key in ("first", "last"):
                result[key] = tuple(z[f"{key}_{i}"] for i in range(len(z.files) // 2))
    return result


def fmt_time(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.1f} µs"


def _cell(result: dict | None, key: str, base: float | None) -> str:
    if result is None:
        return "–"
    if "error" in result:
        return result["error"].replace("|", "\\|")
    seconds = result[key]
    text = fmt_time(seconds)
    if base:
        ratio = seconds / base
        text += f" ({ratio:.2f}×)" if ratio < 10 else f" ({ratio:,.0f}×)"
    if result.get("mismatch"):
        text += " ✗"
    return text


def machine_line() -> str:
    import _common

    return _common.machine()


def jax_reason(message: str) -> str:
    """The ``n/a`` cell of a program jax cannot run unchanged."""
    if "immutable" in message or "does not support item assignment" in message:
        return "n/a: item assignment (jax arrays are immutable)"
    return f"n/a: {message}"


def render(results: dict, meta: dict) -> str:
    """The Markdown tables of a run (``results[program][engine][tag]``)."""
    engines = meta["engines"]
    lines = []
    sections = (
        ("empty", "warm_s", "Warm: median of the repeats after the first run, same process"),
        ("empty", "first_s", "First run in a fresh process, empty caches"),
        ("cached", "first_s", "First run in a fresh process, warm cache (filled by the first)"),
    )
    for tag, key, heading in sections:
        lines += [
            f"**{heading}** (ratio to numpy)",
            "",
            "| program | " + " | ".join(ENGINE_TITLES[e] for e in engines) + " |",
            "|---|" + "---:|" * len(engines),
        ]
        programs = [p for p in PROGRAMS if p.name in results]
        for group in (False, True):
            for p in (q for q in programs if q.micro is group):
                row = results[p.name]
                ref = row.get("numpy", {}).get(tag)
                base = ref.get(key) if ref and "error" not in ref else None
                cells = [
                    _cell(row.get(e, {}).get(tag), key, None if e == "numpy" else base)
                    for e in engines
                ]
                title = p.title.format(n=meta["sizes"][p.name])
                lines.append(f"| {'micro: ' if group else ''}{title} | " + " | ".join(cells) + " |")
        lines.append("")
    lines += summary(results, meta)
    return "\n".join(lines) + "\n"


def summary(results: dict, meta: dict) -> list[str]:
    lines = []
    for engine in meta["engines"]:
        if engine == "numpy":
            continue
        ratios = []
        for p in PROGRAMS:
            if p.micro or p.name not in results:
                continue
            mine = results[p.name].get(engine, {}).get("empty")
            ref = results[p.name].get("numpy", {}).get("empty")
            if mine and ref and "error" not in mine and "error" not in ref:
                ratios.append(mine["warm_s"] / ref["warm_s"])
        if ratios:
            geo = math.exp(statistics.fmean(math.log(r) for r in ratios))
            ok = sum(r <= 1.0 for r in ratios)
            lines.append(
                f"{ENGINE_TITLES[engine]}: warm at least as fast as numpy on {ok} of "
                f"{len(ratios)} programs it ran (micro-costs aside); geometric mean ratio "
                f"{geo:.2f}×."
            )
    notes = []
    for p in PROGRAMS:
        for engine, tags in results.get(p.name, {}).items():
            for tag, r in tags.items():
                if r.get("mismatch"):
                    notes.append(f"✗ {p.name} on {engine} ({tag}): {r['mismatch']}")
            fb = tags.get("empty", {}).get("fallbacks")
            if fb:
                notes.append(f"{p.name} on {engine} warned: {'; '.join(fb)}")
    if notes:
        lines += ["", "Notes:", ""] + [f"- {n}" for n in notes]
    lines += [
        "",
        f"Machine: {meta['machine']}; load average {meta['load_before']:.2f} before, "
        f"{meta['load_after']:.2f} after; {meta['date']}; repeats {meta['repeats']}"
        + ("; `--quick` sizes" if meta["quick"] else "")
        + ". lazygraph and jax keep their default thread counts.",
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, one warm repeat")
    parser.add_argument("--programs", help="comma-separated program names (default: all)")
    parser.add_argument("--engines", default=",".join(ENGINES), help="comma-separated")
    parser.add_argument("--repeats", type=int, help="warm samples (default 7; 1 with --quick)")
    parser.add_argument("--size", type=int, help="override every program's size")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per process")
    parser.add_argument("--no-readme", action="store_true", help="do not update README.md")
    parser.add_argument("--list", action="store_true", help="list the programs and exit")
    parser.add_argument("--one", nargs=2, metavar=("PROGRAM", "ENGINE"), help=argparse.SUPPRESS)
    parser.add_argument("--result", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.repeats is None:
        args.repeats = 1 if args.quick else 7
    if args.one:
        if args.size is None:
            p = BY_NAME[args.one[0]]
            args.size = p.quick if args.quick else p.full
        return _child(args)
    if args.list:
        for p in PROGRAMS:
            print(f"{p.name:22} {p.title.format(n=p.full)}")
        return 0

    # the children run with one BLAS thread; the machine line says what they ran with
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    names = args.programs.split(",") if args.programs else [p.name for p in PROGRAMS]
    engines = args.engines.split(",")
    for name in names:
        if name not in BY_NAME:
            parser.error(f"unknown program {name!r} (see --list)")
    for engine in engines:
        if engine not in ENGINES:
            parser.error(f"unknown engine {engine!r}; expected some of {', '.join(ENGINES)}")
    if "numpy" not in engines:
        engines.insert(0, "numpy")  # the reference every result is checked against
    engines = [e for e in ENGINES if e in engines]
    sizes = {p.name: args.size or (p.quick if args.quick else p.full) for p in PROGRAMS}
    meta: dict[str, Any] = {
        "machine": machine_line(),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "load_before": os.getloadavg()[0],
        "quick": args.quick,
        "repeats": args.repeats,
        "engines": engines,
        "sizes": sizes,
    }
    results: dict[str, dict[str, dict[str, dict]]] = {}
    with tempfile.TemporaryDirectory(prefix="lazygraph-dropin-") as work:
        for name in names:
            program = BY_NAME[name]
            row = results.setdefault(name, {})
            for engine in engines:
                cache = tempfile.mkdtemp(prefix=f"cache-{name}-{engine}-", dir=work)
                cells = row.setdefault(engine, {})
                common = (program, engine, sizes[name], args.repeats, args.quick, cache,
                          args.timeout, work)  # fmt: skip
                first = cells["empty"] = run_child(*common, "empty")
                if "error" in first:
                    cells["cached"] = first  # not run again
                    first["raw_error"] = first["error"]
                    if engine == "jax" and not first.get("timeout"):
                        first["error"] = jax_reason(first["error"])
                    elif not first.get("timeout"):
                        first["error"] = "error: " + first["error"]
                else:
                    cells["cached"] = run_child(*common, "cached")
                print(f"{name:22} {engine:17} " + _progress(first), file=sys.stderr)
            _check_row(program, row)
    meta["load_after"] = os.getloadavg()[0]
    table = render(results, meta)
    print(table)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "dropin.md").write_text(table)
    (RESULTS / "dropin.json").write_text(json.dumps(_raw(results, meta), indent=1))
    complete = set(names) == set(BY_NAME) and engines == list(ENGINES)
    if complete and not args.quick and not args.size and not args.no_readme:
        _write_readme(table)
    return 0


def _progress(result: dict) -> str:
    if "error" in result:
        return result["error"]
    return f"first {fmt_time(result['first_s'])}, warm {fmt_time(result['warm_s'])}"


def _check_row(program: Program, row: dict) -> None:
    """Mark every result that differs from numpy's first result."""
    ref = row.get("numpy", {}).get("empty", {})
    want = ref.get("first")
    if want is None:
        return
    for tags in row.values():
        for result in tags.values():
            if "error" in result or "mismatch" in result:
                continue
            for key in ("first", "last"):
                problem = check(program, result.get(key, ()), want)
                if problem:
                    result["mismatch"] = f"{key} run: {problem}"
                    break


def _raw(results: dict, meta: dict) -> dict:
    """The JSON record: everything but the result arrays."""
    skip = {"first", "last", "traceback"}
    return {
        "meta": meta,
        "results": {
            name: {
                engine: {
                    tag: {k: v for k, v in r.items() if k not in skip} for tag, r in tags.items()
                }
                for engine, tags in row.items()
            }
            for name, row in results.items()
        },
    }


def _write_readme(table: str) -> None:
    if not README.exists():
        return
    text = README.read_text()
    if START in text and END in text:
        head, rest = text.split(START, 1)
        _, tail = rest.split(END, 1)
        README.write_text(f"{head}{START}\n{table}{END}{tail}")


if __name__ == "__main__":
    sys.exit(main())
