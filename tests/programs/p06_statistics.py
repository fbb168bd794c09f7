"""Descriptive statistics of a small data set.

Style: a "statistics with numpy" tutorial: mean/median/std/var with ddof,
weighted averages, percentiles and quantiles, z-scores and outliers, a
covariance and correlation matrix, histograms, and the nan-aware reductions
for data with missing values.
"""

import numpy as _numpy


def main(np):
    rng = _numpy.random.default_rng(2024)
    heights = np.asarray(rng.normal(170.0, 8.0, size=200))
    weights = 0.9 * heights - 90 + np.asarray(rng.normal(0.0, 5.0, size=200))
    ages = np.asarray(rng.integers(18, 80, size=200))

    print(f"n = {len(heights)}")
    print(f"mean height {np.mean(heights):.4f}, median {np.median(heights):.4f}")
    print(f"std (population) {heights.std():.4f}, std (sample) {heights.std(ddof=1):.4f}")
    print(f"var {np.var(weights):.4f}, range {np.ptp(weights):.4f}")
    q1, q3 = np.percentile(heights, [25, 75])
    iqr = q3 - q1
    print(f"quartiles {q1:.4f} {q3:.4f}, IQR {iqr:.4f}")
    deciles = np.quantile(weights, np.linspace(0, 1, 11))
    print(f"deciles {np.round(deciles, 3).tolist()}")
    print(f"median age {np.median(ages)}, mean age {ages.mean():.3f}")

    z = (heights - heights.mean()) / heights.std()
    outliers = np.flatnonzero(np.abs(z) > 2.5)
    print(f"outliers at {outliers.tolist()}")
    lo, hi = q1 - 1.5 * iqr, q3 + 1.5 * iqr
    fenced = heights[(heights < lo) | (heights > hi)]
    print(f"{fenced.size} values outside the Tukey fences")

    w = ages / ages.sum()
    wavg = np.average(heights, weights=ages)
    avg, wsum = np.average(weights, weights=w, returned=True)
    print(f"age-weighted mean height {wavg:.4f}, weights sum {wsum:.6f}, weighted weight {avg:.4f}")

    data = np.vstack([heights, weights, ages.astype(float)])
    C = np.cov(data)
    R = np.corrcoef(data)
    print(f"cov diag {np.round(np.diag(C), 3).tolist()}")
    print(f"corr(height, weight) {R[0, 1]:.6f}, corr(height, age) {R[0, 2]:.6f}")
    slope = C[0, 1] / C[0, 0]
    print(f"regression slope of weight on height {slope:.6f}")

    counts, edges = np.histogram(heights, bins=10)
    print(f"histogram counts {counts.tolist()}")
    print(f"edges from {edges[0]:.4f} to {edges[-1]:.4f}")
    density, _ = np.histogram(heights, bins=edges, density=True)
    print(f"density integrates to {np.sum(density * np.diff(edges)):.6f}")
    age_counts, age_edges = np.histogram(ages, bins=[18, 30, 45, 60, 80])
    print(f"age groups {age_counts.tolist()}")
    mode_bin = int(np.argmax(counts))
    print(f"modal bin [{edges[mode_bin]:.2f}, {edges[mode_bin + 1]:.2f})")

    # missing data
    with_missing = heights.copy()
    with_missing[::17] = np.nan
    print(f"mean with NaN is nan: {bool(np.isnan(np.mean(with_missing)))}")
    print(f"nanmean {np.nanmean(with_missing):.4f}, nanstd {np.nanstd(with_missing):.4f}")
    print(f"nanmin {np.nanmin(with_missing):.4f}, nanmax {np.nanmax(with_missing):.4f}")
    print(
        f"count missing {int(np.isnan(with_missing).sum())}, nansum {np.nansum(with_missing):.3f}"
    )

    # per-group statistics with boolean masks
    young = ages < 40
    print(f"young: {int(young.sum())}, mean height {heights[young].mean():.4f}")
    print(f"older: {int((~young).sum())}, mean height {heights[~young].mean():.4f}")

    # running statistics
    running_mean = np.cumsum(heights) / np.arange(1, len(heights) + 1)
    print(f"running mean after 10: {running_mean[9]:.4f}, after 200: {running_mean[-1]:.4f}")

    return {
        "mean": np.mean(heights),
        "median": np.median(heights),
        "std1": heights.std(ddof=1),
        "ptp": np.ptp(weights),
        "q": (q1, q3),
        "deciles": deciles,
        "z": z,
        "outliers": outliers,
        "fenced": fenced,
        "wavg": wavg,
        "avg": avg,
        "wsum": wsum,
        "C": C,
        "R": R,
        "counts": counts,
        "edges": edges,
        "density": density,
        "age_counts": age_counts,
        "age_edges": age_edges,
        "nanmean": np.nanmean(with_missing),
        "nanstd": np.nanstd(with_missing),
        "running_mean": running_mean,
    }
