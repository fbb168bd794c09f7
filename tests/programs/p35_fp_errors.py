"""Floating-point errors as numpy reports them: an errstate that raises turns a
division by zero into an exception, and a naive log-sum-exp overflows to inf.

Style: the "numerical pitfalls" tutorial of p30, the two passages where
lazygraph.numpy differs from numpy today (see the expected failure in
test_corpus.py): numpy's error state is not honoured, and the stabilising
rewrites turn ``log(sum(exp(x)))`` into a log-sum-exp that does not overflow.
"""


def main(np):
    try:
        with np.errstate(divide="raise"):
            np.log(np.array([1.0, 0.0]))
        print("log(0) did not raise")
    except FloatingPointError as exc:
        print(f"FloatingPointError: {exc}")

    big = np.array([1000.0, 1000.5, 999.0])
    with np.errstate(over="ignore"):
        naive = np.log(np.sum(np.exp(big)))
    print(f"naive logsumexp {naive}")
    return {"naive": naive}
