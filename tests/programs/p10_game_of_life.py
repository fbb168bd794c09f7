"""Conway's Game of Life, two ways.

Style: the simulation examples of Nicolas Rougier's "From Python to Numpy"
(chapter "Uniform vectorization"): the neighbour count from eight shifted
slices with boolean birth/survival rules, and the same with np.roll on a
torus; a glider's displacement and the population history are printed.
"""

import numpy as _numpy


def iterate(np, Z):
    # Count neighbours
    N = (
        Z[0:-2, 0:-2] + Z[0:-2, 1:-1] + Z[0:-2, 2:]
        + Z[1:-1, 0:-2] + Z[1:-1, 2:]
        + Z[2:, 0:-2] + Z[2:, 1:-1] + Z[2:, 2:]
    )  # fmt: skip
    # Apply rules
    birth = (N == 3) & (Z[1:-1, 1:-1] == 0)
    survive = ((N == 2) | (N == 3)) & (Z[1:-1, 1:-1] == 1)
    Z[...] = 0
    Z[1:-1, 1:-1][birth | survive] = 1
    return Z


def step_torus(np, Z):
    N = sum(
        np.roll(np.roll(Z, dy, axis=0), dx, axis=1)
        for dy in (-1, 0, 1)
        for dx in (-1, 0, 1)
        if (dy, dx) != (0, 0)
    )
    return ((N == 3) | ((Z == 1) & (N == 2))).astype(Z.dtype)


def show(np, Z):
    for row in Z:
        print("".join("#" if cell else "." for cell in row.tolist()))


def main(np):
    # A glider on a bordered board
    Z = np.zeros((12, 12), dtype=int)
    glider = np.array([[0, 1, 0], [0, 0, 1], [1, 1, 1]])
    Z[1:4, 1:4] = glider
    start = np.argwhere(Z == 1).mean(axis=0)
    for _ in range(8):
        Z = iterate(np, Z)
    end = np.argwhere(Z == 1).mean(axis=0)
    print(f"glider moved by {np.round(end - start, 6).tolist()} with {int(Z.sum())} cells")
    show(np, Z[:8, :8])

    # A random soup on a torus
    rng = _numpy.random.default_rng(11)
    soup = np.asarray((rng.random((24, 24)) < 0.3).astype(np.int8))
    history = []
    for generation in range(30):
        soup = step_torus(np, soup)
        history.append(int(soup.sum()))
        if generation % 10 == 9:
            print(f"generation {generation + 1}: population {history[-1]}")
    print(f"population min {min(history)} max {max(history)}")
    alive_rows = np.flatnonzero(soup.any(axis=1))
    print(f"rows with life: {alive_rows.tolist()}")

    # The blinker oscillates with period 2
    B = np.zeros((7, 7), dtype=int)
    B[3, 2:5] = 1
    B1 = iterate(np, B.copy())
    B2 = iterate(np, B1.copy())
    print(f"blinker period 2: {bool(np.array_equal(B, B2))}, vertical: {B1[2:5, 3].tolist()}")

    return {
        "Z": Z,
        "start": start,
        "end": end,
        "soup": soup,
        "history": history,
        "alive_rows": alive_rows,
        "B1": B1,
        "B2": B2,
    }
