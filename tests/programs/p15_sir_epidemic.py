"""The SIR epidemic model: an ODE integrated by hand and an agent version.

Style: an epidemiology course notebook: Euler and RK4 integration of the
SIR equations stored in preallocated arrays, the peak day with argmax, the
final size, R0 scanning with a Python loop, and a stochastic agent-based
run driven by a seeded Generator and boolean state vectors.
"""


def deriv(np, y, beta, gamma):
    S, I, _R = y
    N = y.sum()
    dS = -beta * S * I / N
    dI = beta * S * I / N - gamma * I
    dR = gamma * I
    return np.array([dS, dI, dR])


def rk4(np, y0, beta, gamma, days, dt=1.0):
    n = int(days / dt)
    out = np.zeros((n + 1, 3))
    out[0] = y0
    y = np.asarray(y0, dtype=float)
    for k in range(n):
        k1 = deriv(np, y, beta, gamma)
        k2 = deriv(np, y + 0.5 * dt * k1, beta, gamma)
        k3 = deriv(np, y + 0.5 * dt * k2, beta, gamma)
        k4 = deriv(np, y + dt * k3, beta, gamma)
        y = y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
        out[k + 1] = y
    return out


def main(np):
    N = 1000.0
    y0 = np.array([N - 1.0, 1.0, 0.0])
    beta, gamma = 0.4, 0.1
    days = 40

    # Euler with a vectorised state
    sir = np.zeros((days + 1, 3))
    sir[0] = y0
    for t in range(days):
        S, I, _ = sir[t]
        new_inf = beta * S * I / N
        new_rec = gamma * I
        sir[t + 1] = sir[t] + np.array([-new_inf, new_inf - new_rec, new_rec])
    peak_day = int(np.argmax(sir[:, 1]))
    print(f"Euler: peak day {peak_day}, peak infected {sir[peak_day, 1]:.4f}")
    print(f"conserved population: {bool(np.allclose(sir.sum(axis=1), N))}")

    traj = rk4(np, y0, beta, gamma, days)
    print(f"RK4: final S {traj[-1, 0]:.4f}, I {traj[-1, 1]:.4f}, R {traj[-1, 2]:.4f}")
    print(f"max |Euler - RK4| infected {np.abs(sir[:, 1] - traj[:, 1]).max():.4f}")

    # a scan over R0 with the Euler scheme, vectorised over parameters
    betas = np.linspace(0.15, 0.6, 10)
    state = np.tile(y0, (len(betas), 1))
    peak = np.zeros(len(betas))
    for _ in range(60):
        S, I = state[:, 0], state[:, 1]
        inf = betas * S * I / N
        rec = gamma * I
        state = state + np.stack([-inf, inf - rec, rec], axis=1)
        peak = np.maximum(peak, state[:, 1])
    R0 = betas / gamma
    attack = state[:, 2] / N
    for r0, a, p in zip(R0.tolist(), attack.tolist(), peak.tolist(), strict=True):
        print(f"R0={r0:.2f} attack rate {a:.4f} peak {p:.2f}")

    # a stochastic agent-based version
    rng = np.random.default_rng(2020)
    n = 500
    status = np.zeros(n, dtype=np.int8)  # 0 S, 1 I, 2 R
    status[rng.choice(n, size=5, replace=False)] = 1
    counts = []
    for day in range(30):
        infected = status == 1
        n_inf = int(infected.sum())
        p_inf = 1.0 - (1.0 - 0.3 / n) ** n_inf
        u = rng.random(n)
        v = rng.random(n)
        newly_infected = (status == 0) & (u < p_inf)
        recovered = infected & (v < gamma)
        status[newly_infected] = 1
        status[recovered] = 2
        counts.append(np.bincount(status, minlength=3))
        if day % 10 == 9:
            print(
                f"day {day + 1}: S={int(counts[-1][0])} "
                f"I={int(counts[-1][1])} R={int(counts[-1][2])}"
            )
    counts = np.array(counts)
    print(f"agent peak infected {int(counts[:, 1].max())} on day {int(counts[:, 1].argmax()) + 1}")

    return {
        "sir": sir,
        "peak_day": peak_day,
        "traj": traj,
        "attack": attack,
        "peak": peak,
        "status": status,
        "counts": counts,
    }
