"""Markov chains: stationary distributions, absorption and simulation.

Style: a probability course notebook: a row-stochastic transition matrix,
distribution evolution by repeated vector-matrix products, power iteration,
the stationary distribution from the left eigenvector of eigenvalue 1
(normalised to sum 1, so its sign does not matter) and from a linear
system, matrix_power, the fundamental matrix of an absorbing chain (expected
steps to absorption) and a simulated path drawn with Generator.choice.
"""


def main(np):
    P = np.array(
        [
            [0.5, 0.3, 0.2, 0.0],
            [0.2, 0.5, 0.2, 0.1],
            [0.1, 0.2, 0.6, 0.1],
            [0.0, 0.1, 0.3, 0.6],
        ]
    )
    print(f"rows sum to one: {bool(np.allclose(P.sum(axis=1), 1))}")

    dist = np.array([1.0, 0.0, 0.0, 0.0])
    history = [dist]
    for _ in range(30):
        dist = dist @ P
        history.append(dist)
    history = np.array(history)
    print(f"after 30 steps {np.round(dist, 6).tolist()}")

    # stationary distribution from the left eigenvector
    w, V = np.linalg.eig(P.T)
    i = np.argmin(np.abs(w - 1.0))
    pi_eig = np.real(V[:, i])
    pi_eig = pi_eig / pi_eig.sum()
    print(f"eigenvalue closest to 1: {w[i].real:.10f}")
    print(f"stationary (eig) {np.round(pi_eig, 6).tolist()}")

    # ... and from solving (P^T - I) pi = 0 with sum(pi) = 1
    n = P.shape[0]
    A = np.vstack([P.T - np.eye(n), np.ones(n)])
    b = np.zeros(n + 1)
    b[-1] = 1.0
    pi_ls = np.linalg.lstsq(A, b, rcond=None)[0]
    print(f"lstsq agrees: {bool(np.allclose(pi_ls, pi_eig))}")
    P50 = np.linalg.matrix_power(P, 50)
    print(f"rows of P^50 all equal pi: {bool(np.allclose(P50, pi_eig[np.newaxis, :]))}")
    tv = 0.5 * np.abs(history - pi_eig).sum(axis=1)
    mixing = int(np.argmax(tv < 1e-3))
    print(f"total variation below 1e-3 after {mixing} steps")

    # mean first return times are 1/pi
    print(f"mean return times {np.round(1 / pi_eig, 4).tolist()}")

    # absorbing chain: gambler's ruin with 0 and 5 absorbing
    N = 5
    p = 0.45
    G = np.zeros((N + 1, N + 1))
    G[0, 0] = G[N, N] = 1.0
    for s in range(1, N):
        G[s, s + 1] = p
        G[s, s - 1] = 1 - p
    transient = np.arange(1, N)
    Q = G[np.ix_(transient, transient)]
    R = G[np.ix_(transient, [0, N])]
    Nf = np.linalg.inv(np.eye(len(transient)) - Q)
    steps = Nf.sum(axis=1)
    absorb = Nf @ R
    print(f"expected steps {np.round(steps, 6).tolist()}")
    print(f"P(win) from each state {np.round(absorb[:, 1], 6).tolist()}")

    # simulate a path
    rng = np.random.default_rng(29)
    state = 0
    path = [state]
    for _ in range(50):
        state = int(rng.choice(n, p=P[state]))
        path.append(state)
    visits = np.bincount(np.array(path), minlength=n)
    print(f"path {path[:20]}...")
    print(f"visit frequencies {np.round(visits / visits.sum(), 4).tolist()}")

    return {
        "history": history,
        "pi_eig": pi_eig,
        "pi_ls": pi_ls,
        "P50": P50,
        "tv": tv,
        "mixing": mixing,
        "steps": steps,
        "absorb": absorb,
        "path": path,
        "visits": visits,
    }
