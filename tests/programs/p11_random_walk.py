"""Random walks: one walker step by step, then many walkers at once.

Style: "Python for Data Analysis" (McKinney), chapter 4's random-walk example:
a pure-Python loop, then np.where on random draws and cumsum, the first
crossing time with argmax on a boolean array, and 50 walkers as a 2-d array
whose crossing times are summarised. Uses np.random.default_rng inside the
program (the namespace's Generator must give numpy's streams).
"""


def main(np):
    rng = np.random.default_rng(12345)

    # One walker, the loop way
    position = 0
    walk = [position]
    steps = rng.integers(0, 2, size=50)
    for i in range(len(steps)):
        step = 1 if steps[i] else -1
        position += step
        walk.append(position)
    print(f"loop walk: final {walk[-1]}, min {min(walk)}, max {max(walk)}")

    # The same walk, vectorised
    walk_np = np.concatenate([[0], np.where(steps > 0, 1, -1).cumsum()])
    print(f"vectorised agrees: {walk_np.tolist() == walk}")
    first_ten = int((np.abs(walk_np) >= 5).argmax())
    print(f"first time |position| >= 5: step {first_ten}")

    # Many walkers
    nwalks, nsteps = 50, 300
    draws = rng.integers(0, 2, size=(nwalks, nsteps))
    walks = np.where(draws > 0, 1, -1).cumsum(axis=1)
    print(f"walks: max {int(walks.max())}, min {int(walks.min())}")
    hits30 = (np.abs(walks) >= 30).any(axis=1)
    print(f"{int(hits30.sum())} walkers reached 30")
    crossing_times = (np.abs(walks[hits30]) >= 30).argmax(axis=1)
    print(f"mean crossing time {crossing_times.mean():.4f}")

    # Gaussian steps and the diffusion law
    gauss = rng.normal(loc=0.0, scale=0.25, size=(nwalks, nsteps))
    paths = gauss.cumsum(axis=1)
    msd = (paths**2).mean(axis=0)
    t = np.arange(1, nsteps + 1)
    D = np.sum(msd * t) / np.sum(t * t)
    print(f"mean squared displacement slope {D:.6f} (theory 0.0625)")

    # A 2-d lattice walk with choice
    moves = np.array([[1, 0], [-1, 0], [0, 1], [0, -1]])
    picks = rng.choice(4, size=100)
    track = np.cumsum(moves[picks], axis=0)
    distance = np.sqrt((track**2).sum(axis=1))
    print(f"2-d walk ends at {track[-1].tolist()}, farthest {distance.max():.6f}")
    visited = np.unique(track, axis=0)
    print(f"distinct sites visited: {len(visited)}")

    return {
        "walk": walk,
        "walk_np": walk_np,
        "first_ten": first_ten,
        "walks": walks,
        "hits30": hits30,
        "crossing_times": crossing_times,
        "msd": msd,
        "D": D,
        "track": track,
        "visited": visited,
    }
