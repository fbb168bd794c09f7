"""Floating-point errors as numpy reports them: the default state warns, an
errstate that raises turns a division by zero into an exception, one that
ignores silences the block, and ``seterrcall`` collects what went wrong.

Style: the "numerical pitfalls" part of a numerics tutorial (p30's), with the
warnings caught and printed so that the program's output shows them. Each
value is printed where it is made, as a tutorial does: a lazy value is
computed, and its errors reported, where it is first needed.
"""

import warnings


def main(np):
    x = np.array([1.0, 0.0, -1.0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        logs = np.log(x)
        print("log:", logs)
        ratio = np.array([1.0, 0.0]) / np.array([0.0, 0.0])
        print("ratio:", ratio)
        grown = np.exp(np.array([10.0, 1000.0]))
        print("exp:", grown)
    for w in caught:
        print(f"{w.category.__name__}: {w.message}")

    try:
        with np.errstate(divide="raise"):
            print(np.log(np.array([1.0, 0.0])))
        print("log(0) did not raise")
    except FloatingPointError as exc:
        print(f"FloatingPointError: {exc}")

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with np.errstate(all="ignore"):
            quiet = np.sqrt(np.array([-4.0, 4.0])) + np.log(np.zeros(2))
        print(f"after an ignoring block: {quiet}, {len(caught)} warnings")

    seen = []
    old = np.seterrcall(lambda kind, flag: seen.append(kind))
    try:
        with np.errstate(all="call"):
            print(np.array([0.0]) / np.array([0.0]))
            print(np.exp(np.array([1e4])))
    finally:
        np.seterrcall(old)
    print(f"seterrcall saw {seen}")
    return {"logs": logs, "ratio": ratio, "grown": grown, "quiet": quiet}
