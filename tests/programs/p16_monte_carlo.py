"""Monte Carlo estimates: pi, an integral, a bootstrap and an option price.

Style: a "Monte Carlo methods in numpy" tutorial: pi from points in the
quarter circle (fixed data generated once), the running estimate's error
with cumsum, a 1-d integral by the sample mean, exercise 100 of "100 numpy
exercises" (bootstrapped confidence interval of the mean), importance of the
sample size, and a European call priced under geometric Brownian motion.
"""

import math

import numpy as _numpy


def main(np):
    rng0 = _numpy.random.default_rng(31415)
    pts = np.asarray(rng0.random((4000, 2)))

    inside = (pts**2).sum(axis=1) <= 1.0
    pi_hat = 4.0 * inside.mean()
    print(f"pi estimate {pi_hat:.6f}, error {abs(pi_hat - np.pi):.6f}")
    running = 4.0 * np.cumsum(inside) / np.arange(1, len(inside) + 1)
    for n in (10, 100, 1000, 4000):
        print(f"  n={n:5d}: {running[n - 1]:.6f}")
    stderr = 4.0 * np.sqrt(inside.mean() * (1 - inside.mean()) / len(inside))
    print(f"standard error {stderr:.6f}")

    # integral of exp(-x^2) on [0, 2] by the sample mean
    x = 2.0 * pts[:, 0]
    fx = np.exp(-(x**2))
    integral = 2.0 * fx.mean()
    exact = math.sqrt(math.pi) / 2 * math.erf(2.0)
    print(f"integral {integral:.6f} vs exact {exact:.6f}")

    # 100. Compute bootstrapped 95% confidence intervals for the mean of a 1D array X
    rng = np.random.default_rng(100)
    X = rng.standard_normal(100)
    N = 200
    idx = rng.integers(0, X.size, (N, X.size))
    means = X[idx].mean(axis=1)
    confint = np.percentile(means, [2.5, 97.5])
    print(f"bootstrap 95% CI [{confint[0]:.6f}, {confint[1]:.6f}] around {X.mean():.6f}")

    # European call option under geometric Brownian motion
    S0, K, r, sigma, T = 100.0, 105.0, 0.05, 0.2, 1.0
    Zn = rng.standard_normal(20000)
    ST = S0 * np.exp((r - 0.5 * sigma**2) * T + sigma * np.sqrt(T) * Zn)
    payoff = np.maximum(ST - K, 0.0)
    price = math.exp(-r * T) * payoff.mean()
    d1 = (math.log(S0 / K) + (r + 0.5 * sigma**2) * T) / (sigma * math.sqrt(T))
    d2 = d1 - sigma * math.sqrt(T)
    cdf = lambda v: 0.5 * (1 + math.erf(v / math.sqrt(2)))  # noqa: E731
    bs = S0 * cdf(d1) - K * math.exp(-r * T) * cdf(d2)
    print(f"MC price {price:.6f}, Black-Scholes {bs:.6f}")
    in_the_money = np.count_nonzero(payoff)
    print(f"{in_the_money} of {len(payoff)} paths in the money")

    # a random sample of dice and their sum distribution
    dice = rng.integers(1, 7, size=(3000, 2))
    totals = dice.sum(axis=1)
    freq = np.bincount(totals, minlength=13)[2:] / len(totals)
    print(f"most common total {int(np.argmax(freq)) + 2}, P(7) {freq[5]:.4f}")

    return {
        "pi_hat": pi_hat,
        "running": running,
        "stderr": stderr,
        "integral": integral,
        "X": X,
        "means": means,
        "confint": confint,
        "price": price,
        "in_the_money": in_the_money,
        "freq": freq,
    }
