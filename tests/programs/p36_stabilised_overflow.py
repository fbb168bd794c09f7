"""A naive log-sum-exp that overflows in numpy: ``log(sum(exp(x)))`` of large
``x`` is ``inf`` there, with numpy's overflow warning.

Style: the "numerical pitfalls" part of a numerics tutorial (p30's): the one
passage where lazygraph.numpy knowingly differs (see the expected failure in
test_corpus.py): the stabilising rewrites turn the expression into a
log-sum-exp that does not overflow.
"""


def main(np):
    big = np.array([1000.0, 1000.5, 999.0])
    with np.errstate(over="ignore"):
        naive = np.log(np.sum(np.exp(big)))
    print(f"naive logsumexp {naive}")
    return {"naive": naive}
