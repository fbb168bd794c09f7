"""The heat equation on a plate: explicit finite differences.

Style: a numerical-methods course notebook ("12 steps to Navier-Stokes",
step 7 "2-D diffusion"): a 2-d grid with a hot square, the five-point
Laplacian from slices updated in place, fixed boundaries re-imposed each
step, a periodic version with np.roll, an insulated version with np.pad
(mode="edge"), and the heat flux from np.gradient at the end.
"""


def main(np):
    nx = ny = 31
    dx = 2.0 / (nx - 1)
    dy = 2.0 / (ny - 1)
    nu = 0.05
    sigma = 0.25
    dt = sigma * dx * dy / nu

    u = np.ones((ny, nx))
    u[int(0.5 / dy) : int(1 / dy + 1), int(0.5 / dx) : int(1 / dx + 1)] = 2.0
    initial_heat = u.sum()
    for _ in range(40):
        un = u.copy()
        u[1:-1, 1:-1] = (
            un[1:-1, 1:-1]
            + nu * dt / dx**2 * (un[1:-1, 2:] - 2 * un[1:-1, 1:-1] + un[1:-1, 0:-2])
            + nu * dt / dy**2 * (un[2:, 1:-1] - 2 * un[1:-1, 1:-1] + un[0:-2, 1:-1])
        )
        u[0, :] = 1
        u[-1, :] = 1
        u[:, 0] = 1
        u[:, -1] = 1
    print(f"Dirichlet: peak {u.max():.6f}, heat {u.sum():.6f} (was {initial_heat:.1f})")
    peak = np.unravel_index(np.argmax(u), u.shape)
    print(f"hottest cell at {tuple(int(i) for i in peak)}")

    # Periodic boundaries with np.roll: heat is conserved exactly
    v = np.zeros((20, 20))
    v[8:12, 8:12] = 10.0
    for _ in range(30):
        lap = (
            np.roll(v, 1, axis=0)
            + np.roll(v, -1, axis=0)
            + np.roll(v, 1, axis=1)
            + np.roll(v, -1, axis=1)
            - 4 * v
        )
        v += 0.2 * lap
    print(f"periodic: total {v.sum():.6f}, centre {v[10, 10]:.6f}, corner {v[0, 0]:.3e}")

    # Insulated (zero-flux) boundaries with edge padding
    w = np.zeros((16, 16))
    w[:, :4] = 5.0
    for _ in range(25):
        p = np.pad(w, 1, mode="edge")
        w = w + 0.2 * (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * w)
    print(f"insulated: total {w.sum():.6f}, right column mean {w[:, -1].mean():.6f}")

    # 1-d rod cooling towards its ends, then the temperature gradient
    x = np.linspace(0.0, 1.0, 41)
    T = 100.0 * np.sin(np.pi * x)
    alpha, h = 0.4, x[1] - x[0]
    for _ in range(50):
        T[1:-1] += alpha * (T[2:] - 2 * T[1:-1] + T[:-2])
    decay = T.max() / 100.0
    print(f"rod: max {T.max():.6f}, decay factor {decay:.6f}")
    dT = np.gradient(T, h)
    gy, gx = np.gradient(u, dy, dx)
    flux = np.hypot(gx, gy)
    print(f"gradient at ends {dT[0]:.4f} {dT[-1]:.4f}; max plate flux {flux.max():.6f}")

    return {"u": u, "peak": peak, "v": v, "w": w, "T": T, "dT": dT, "gx": gx, "gy": gy}
