"""Convolution and filtering of 1-d signals and 2-d arrays.

Style: a DSP / image-processing tutorial written with numpy only: moving
averages with np.convolve in its three modes, a Gaussian kernel normalised
to unit sum, cross-correlation to find a time delay, an exponential moving
average with a Python loop, a 2-d box blur and Sobel edges from shifted
slices, and a separable 2-d Gaussian blur applied row and column-wise.
"""

import numpy as _numpy


def gaussian_kernel(np, sigma, radius):
    x = np.arange(-radius, radius + 1)
    k = np.exp(-(x**2) / (2 * sigma**2))
    return k / k.sum()


def main(np):
    rng = _numpy.random.default_rng(24)
    t = np.linspace(0, 4 * np.pi, 200)
    signal = np.sin(t) + np.asarray(rng.normal(scale=0.4, size=t.size))

    box = np.ones(9) / 9
    full = np.convolve(signal, box)
    same = np.convolve(signal, box, mode="same")
    valid = np.convolve(signal, box, mode="valid")
    print(f"convolve lengths: full {len(full)}, same {len(same)}, valid {len(valid)}")
    print(f"noise RMS before {np.std(signal - np.sin(t)):.6f}")
    print(f"noise RMS after {np.std(same[8:-8] - np.sin(t)[8:-8]):.6f}")

    g = gaussian_kernel(np, 2.0, 6)
    smooth = np.convolve(signal, g, mode="same")
    print(f"Gaussian kernel sum {g.sum():.6f}, peak {g.max():.6f}")
    print(f"Gaussian-smoothed extremes {smooth.min():.6f} {smooth.max():.6f}")

    # exponential moving average, loop style
    alpha = 0.2
    ema = np.zeros_like(signal)
    ema[0] = signal[0]
    for i in range(1, 50):
        ema[i] = alpha * signal[i] + (1 - alpha) * ema[i - 1]
    print(f"EMA at 49: {ema[49]:.6f}")

    # time-delay estimation with cross-correlation
    pulse = np.zeros(64)
    pulse[10:16] = np.array([0.2, 0.6, 1.0, 1.0, 0.6, 0.2])
    delayed = np.roll(pulse, 17) + np.asarray(rng.normal(scale=0.05, size=64))
    xc = np.correlate(delayed, pulse, mode="full")
    lag = int(np.argmax(xc)) - (len(pulse) - 1)
    print(f"estimated delay {lag} samples")

    # 2-d filters from shifted slices
    img = np.zeros((24, 24))
    img[6:18, 6:18] = 1.0
    img += np.asarray(rng.normal(scale=0.1, size=img.shape))
    p = np.pad(img, 1, mode="reflect")
    blurred = sum(p[i : i + 24, j : j + 24] for i in range(3) for j in range(3)) / 9.0
    gx = (p[:-2, 2:] + 2 * p[1:-1, 2:] + p[2:, 2:]) - (p[:-2, :-2] + 2 * p[1:-1, :-2] + p[2:, :-2])
    gy = (p[2:, :-2] + 2 * p[2:, 1:-1] + p[2:, 2:]) - (p[:-2, :-2] + 2 * p[:-2, 1:-1] + p[:-2, 2:])
    edges = np.hypot(gx, gy)
    strong = edges > 0.5 * edges.max()
    print(f"blur mean {blurred.mean():.6f}, strong edge pixels {int(strong.sum())}")
    rows, cols = np.nonzero(strong)
    print(
        f"edge bounding box rows {int(rows.min())}-{int(rows.max())} "
        f"cols {int(cols.min())}-{int(cols.max())}"
    )

    # separable Gaussian blur with a row then column convolution
    k = gaussian_kernel(np, 1.0, 3)
    sep = np.array([np.convolve(row, k, mode="same") for row in img])
    sep = np.array([np.convolve(col, k, mode="same") for col in sep.T]).T
    print(f"separable blur: centre {sep[12, 12]:.6f}, corner {sep[0, 0]:.6f}")

    return {
        "full": full,
        "same": same,
        "valid": valid,
        "g": g,
        "smooth": smooth,
        "ema": ema,
        "xc": xc,
        "lag": lag,
        "blurred": blurred,
        "edges": edges,
        "strong": strong,
        "sep": sep,
    }
