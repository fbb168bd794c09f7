"""Floating-point care: errstate, NaN/inf handling, tolerant comparisons.

(The errstate that raises and the naive log-sum-exp that overflows are in
p35_fp_errors, where lazygraph differs from numpy today.)

Style: a "numerical pitfalls in numpy" tutorial and test-suite code: safe
division with np.errstate and np.divide(..., out=, where=), np.nan_to_num,
np.isfinite filters, log-sum-exp against overflow, catastrophic cancellation
and np.log1p/np.expm1, float32 vs float64 accumulation, np.isclose and
np.allclose with rtol/atol, and np.testing.assert_allclose /
assert_array_equal guarding intermediate results as real scripts do.
"""

# s32 is a float32 sum of 10,000 terms: numpy adds them pairwise, a compiled
# backend may add them in another order, and float32 carries about 7 digits.
TOLERANCE = {"s32": {"rtol": 1e-5}}


def logsumexp(np, a, axis=None):
    a_max = np.max(a, axis=axis, keepdims=True)
    out = np.log(np.sum(np.exp(a - a_max), axis=axis, keepdims=True)) + a_max
    return np.squeeze(out, axis=axis) if axis is not None else out.item()


def main(np):
    num = np.array([1.0, -2.0, 0.0, 4.0, 5.0])
    den = np.array([2.0, 0.0, 0.0, -1.0, 0.5])

    with np.errstate(divide="ignore", invalid="ignore"):
        raw = num / den
    print(f"raw division: {raw.tolist()}")
    print(f"finite entries {np.isfinite(raw).tolist()}, nan count {int(np.isnan(raw).sum())}")
    safe = np.divide(num, den, out=np.zeros_like(num), where=den != 0)
    print(f"safe division: {safe.tolist()}")
    cleaned = np.nan_to_num(raw, nan=0.0, posinf=1e300, neginf=-1e300)
    print(f"nan_to_num: {cleaned.tolist()}")
    print(f"isinf {np.isinf(raw).tolist()} isposinf {np.isposinf(raw).tolist()}")

    state = np.geterr()
    print(f"default divide handling: {state['divide']}")

    # log-sum-exp
    big = np.array([1000.0, 1000.5, 999.0])
    print(f"stable logsumexp {logsumexp(np, big):.10f}")
    M = np.array([[0.0, 1000.0], [-1000.0, -999.0]])
    print(f"row-wise logsumexp {np.round(logsumexp(np, M, axis=1), 8).tolist()}")

    # cancellation
    tiny = np.array([1e-10, 1e-15, 1e-20])
    print("log(1+x) naive", [f"{v:.6e}" for v in np.log(1 + tiny)])
    print("log1p(x)      ", [f"{v:.6e}" for v in np.log1p(tiny)])
    print("expm1(x)      ", [f"{v:.6e}" for v in np.expm1(tiny)])
    a = np.float64(1e8)
    print(
        f"(a + 1) - a = {(a + 1) - a}, with float32: "
        f"{float((np.float32(1e8) + np.float32(1)) - np.float32(1e8))}"
    )

    # accumulation error in float32
    ones32 = np.full(10_000, 0.1, dtype=np.float32)
    s32 = ones32.sum()
    s64 = ones32.astype(np.float64).sum()
    print(f"float32 sum dtype {s32.dtype}, float64 sum {s64:.6f}")
    print(f"float32 and float64 close at rtol 1e-5: {bool(np.isclose(s32, s64, rtol=1e-5))}")

    # tolerant comparisons
    x = np.linspace(0, 1, 11)
    y = x + 1e-9
    print(
        f"isclose default {bool(np.all(np.isclose(x, y)))}, strict "
        f"{np.isclose(x, y, rtol=0, atol=1e-12).tolist()[:3]}"
    )
    print(
        f"allclose {np.allclose(x, y)}, equal_nan "
        f"{np.allclose(np.array([np.nan]), np.array([np.nan]), equal_nan=True)}"
    )
    print(f"0.1 * 3 == 0.3: {0.1 * 3 == 0.3}, isclose: {bool(np.isclose(0.1 * 3, 0.3))}")

    # guard intermediate results the way scripts do
    A = np.array([[4.0, 1.0], [1.0, 3.0]])
    inv = np.linalg.inv(A)
    np.testing.assert_allclose(A @ inv, np.eye(2), atol=1e-12)
    np.testing.assert_array_equal(np.sort(np.array([3, 1, 2])), np.array([1, 2, 3]))
    try:
        np.testing.assert_allclose(x, y, rtol=0, atol=1e-12)
        print("assert_allclose passed unexpectedly")
    except AssertionError:
        print("assert_allclose caught the 1e-9 shift")

    # nan-aware reductions and comparisons
    data = np.array([1.0, np.nan, 3.0, np.inf, -2.0])
    finite = data[np.isfinite(data)]
    print(f"finite mean {finite.mean():.4f}, nanmax {np.nanmax(data)}, max {np.max(data)}")
    print(
        f"nan == nan {bool(np.nan == np.nan)}, array_equal "
        f"equal_nan {np.array_equal(data, data, equal_nan=True)}"
    )
    print(f"finfo eps {np.finfo(np.float64).eps}, float32 eps {np.finfo(np.float32).eps}")

    return {
        "raw": raw,
        "safe": safe,
        "cleaned": cleaned,
        "lse": logsumexp(np, big),
        "lse_rows": logsumexp(np, M, axis=1),
        "log1p": np.log1p(tiny),
        "s32": s32,
        "s64": s64,
        "close": np.isclose(x, y, rtol=0, atol=1e-12),
        "allclose": np.allclose(x, y),
        "inv": inv,
        "finite": finite,
    }
