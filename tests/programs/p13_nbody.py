"""A small gravitational n-body simulation with leapfrog integration.

Style: the vectorised n-body code of Philip Mocz's "Create Your Own N-body
Simulation (With Python)": pairwise separations by broadcasting, softened
inverse cubes, accelerations by matrix products, kick-drift-kick steps,
kinetic and potential energy (np.triu for unique pairs), and the centre of
mass frame. Also an einsum-based force for comparison.
"""

import numpy as _numpy


def get_acc(np, pos, mass, G, softening):
    x = pos[:, 0:1]
    y = pos[:, 1:2]
    z = pos[:, 2:3]
    dx = x.T - x
    dy = y.T - y
    dz = z.T - z
    inv_r3 = dx**2 + dy**2 + dz**2 + softening**2
    inv_r3[inv_r3 > 0] = inv_r3[inv_r3 > 0] ** (-1.5)
    ax = G * (dx * inv_r3) @ mass
    ay = G * (dy * inv_r3) @ mass
    az = G * (dz * inv_r3) @ mass
    return np.hstack((ax, ay, az))


def get_energy(np, pos, vel, mass, G):
    KE = 0.5 * np.sum(np.sum(mass * vel**2))
    x = pos[:, 0:1]
    y = pos[:, 1:2]
    z = pos[:, 2:3]
    dx = x.T - x
    dy = y.T - y
    dz = z.T - z
    inv_r = np.sqrt(dx**2 + dy**2 + dz**2)
    inv_r[inv_r > 0] = 1.0 / inv_r[inv_r > 0]
    PE = G * np.sum(np.sum(np.triu(-(mass * mass.T) * inv_r, 1)))
    return KE, PE


def main(np):
    N = 12
    t, dt, steps = 0.0, 0.01, 40
    softening, G = 0.1, 1.0
    rng = _numpy.random.default_rng(17)
    mass = 20.0 * np.ones((N, 1)) / N
    pos = np.asarray(rng.normal(size=(N, 3)))
    vel = np.asarray(rng.normal(size=(N, 3)))
    vel -= np.mean(mass * vel, 0) / np.mean(mass)

    acc = get_acc(np, pos, mass, G, softening)
    KE0, PE0 = get_energy(np, pos, vel, mass, G)
    print(f"initial energy {KE0 + PE0:.6f} (KE {KE0:.6f}, PE {PE0:.6f})")
    energies = []
    for i in range(steps):
        vel += acc * dt / 2.0
        pos += vel * dt
        acc = get_acc(np, pos, mass, G, softening)
        vel += acc * dt / 2.0
        t += dt
        if i % 10 == 9:
            KE, PE = get_energy(np, pos, vel, mass, G)
            energies.append(float(KE + PE))
            print(f"t={t:.2f} E={energies[-1]:.6f}")
    drift = abs(energies[-1] - float(KE0 + PE0)) / abs(float(KE0 + PE0))
    print(f"relative energy drift {drift:.2e}")

    com = (mass * pos).sum(axis=0) / mass.sum()
    momentum = (mass * vel).sum(axis=0)
    print(f"centre of mass {np.round(com, 6).tolist()}")
    print(f"total momentum ~0: {bool(np.allclose(momentum, 0.0, atol=1e-10))}")

    # the same force with einsum and a masked diagonal
    diff = pos[np.newaxis, :, :] - pos[:, np.newaxis, :]
    r2 = np.einsum("ijk,ijk->ij", diff, diff) + softening**2
    np.fill_diagonal(r2, np.inf)
    acc2 = G * np.einsum("ijk,ij,j->ik", diff, r2**-1.5, mass[:, 0])
    r = np.sqrt(r2)
    close_pairs = np.argwhere(np.triu(r < 0.5, 1))
    print(f"einsum force agrees: {bool(np.allclose(acc, acc2))}, close pairs {len(close_pairs)}")
    nearest = r.argmin(axis=1)
    print(f"nearest neighbours {nearest.tolist()}")

    return {
        "pos": pos,
        "vel": vel,
        "acc": acc,
        "acc2": acc2,
        "energies": energies,
        "com": com,
        "momentum_small": bool(np.allclose(momentum, 0.0, atol=1e-10)),
        "close_pairs": close_pairs,
        "nearest": nearest,
        "t": t,
    }
