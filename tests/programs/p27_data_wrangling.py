"""Group-by, binning and ranking on numeric columns, without pandas.

Style: "doing pandas things with plain numpy" answers (Stack Overflow and
the Python Data Science Handbook's "Aggregations" / "Fancy indexing"
chapters): a small sales table as parallel arrays, group sums and means with
np.unique(return_inverse) + np.bincount(weights=), binning with np.digitize
and np.searchsorted, ranks with double argsort, percentiles per group,
a pivot table with np.add.at, top-n per group, de-duplication, joins with
np.isin / np.intersect1d, and a cumulative share (Pareto) analysis.
"""

import numpy as _numpy


def main(np):
    rng = _numpy.random.default_rng(27)
    n = 300
    store = np.asarray(rng.integers(100, 106, n))
    month = np.asarray(rng.integers(1, 13, n))
    units = np.asarray(rng.poisson(4, n))
    price = np.asarray(rng.choice([2.5, 4.0, 9.99, 15.0], n))
    revenue = units * price

    # group by store
    stores, inv = np.unique(store, return_inverse=True)
    rev_by_store = np.bincount(inv, weights=revenue)
    n_by_store = np.bincount(inv)
    mean_by_store = rev_by_store / n_by_store
    for s, total, m in zip(
        stores.tolist(), rev_by_store.tolist(), mean_by_store.tolist(), strict=True
    ):
        print(f"store {s}: revenue {total:9.2f}, mean per sale {m:6.3f}")
    best = stores[np.argmax(rev_by_store)]
    print(f"best store {int(best)}")

    # pivot table store x month with add.at
    pivot = np.zeros((len(stores), 12))
    np.add.at(pivot, (inv, month - 1), revenue)
    print(f"pivot total matches: {bool(np.isclose(pivot.sum(), revenue.sum()))}")
    best_month = pivot.sum(axis=0).argmax() + 1
    print(f"best month {int(best_month)}")
    quarter = pivot.reshape(len(stores), 4, 3).sum(axis=2)
    print(f"quarterly totals {np.round(quarter.sum(axis=0), 2).tolist()}")

    # binning
    bins = np.array([0, 10, 25, 50, 100])
    which = np.digitize(revenue, bins)
    print(f"revenue bands {np.bincount(which, minlength=len(bins) + 1).tolist()}")
    pos = np.searchsorted(bins, revenue, side="right")
    print(f"searchsorted agrees with digitize: {bool(np.array_equal(pos, which))}")
    counts, _ = np.histogram(revenue, bins=bins)
    print(f"histogram over the same bands {counts.tolist()}")

    # ranks and percentiles
    ranks = revenue.argsort(kind="stable").argsort(kind="stable") + 1
    pct_rank = ranks / len(revenue)
    print(f"top sale rank {int(ranks.max())}, median pct rank {np.median(pct_rank):.4f}")
    p90 = np.array([np.percentile(revenue[inv == g], 90) for g in range(len(stores))])
    print(f"90th percentile per store {np.round(p90, 3).tolist()}")
    q = np.quantile(revenue, [0.1, 0.5, 0.9], method="nearest")
    print(f"nearest-rank quantiles {q.tolist()}")

    # top-3 sales per store with lexsort
    order = np.lexsort((-revenue, inv))
    sorted_inv = inv[order]
    first = np.r_[True, sorted_inv[1:] != sorted_inv[:-1]]
    group_start = np.flatnonzero(first)
    pos_in_group = np.arange(n) - np.repeat(group_start, np.diff(np.r_[group_start, n]))
    top3 = order[pos_in_group < 3]
    print(f"top-3 rows per store: {len(top3)}, their revenue {revenue[top3].sum():.2f}")

    # de-duplicate (store, month) pairs and join with a promotion list
    keys = store * 100 + month
    uniq_keys, first_idx = np.unique(keys, return_index=True)
    print(f"{len(uniq_keys)} distinct store-months, first rows {np.sort(first_idx)[:5].tolist()}")
    promo = np.array([10103, 10207, 10311, 10405, 10512])
    in_promo = np.isin(keys, promo)
    print(
        f"sales in promotion store-months {int(in_promo.sum())}, "
        f"revenue {revenue[in_promo].sum():.2f}"
    )
    common = np.intersect1d(uniq_keys, promo)
    missing = np.setdiff1d(promo, uniq_keys)
    print(f"promotions matched {common.tolist()}, unmatched {missing.tolist()}")

    # Pareto: how many sales make 80% of revenue
    sorted_rev = np.sort(revenue)[::-1]
    share = np.cumsum(sorted_rev) / sorted_rev.sum()
    k80 = int(np.searchsorted(share, 0.8)) + 1
    print(f"{k80} of {n} sales ({k80 / n:.1%}) make 80% of revenue")

    # fill missing values with the group mean
    messy = revenue.copy()
    messy[::13] = np.nan
    group_mean = np.array([np.nanmean(messy[inv == g]) for g in range(len(stores))])
    filled = np.where(np.isnan(messy), group_mean[inv], messy)
    print(f"filled {int(np.isnan(messy).sum())} gaps, total {filled.sum():.4f}")

    return {
        "stores": stores,
        "rev_by_store": rev_by_store,
        "mean_by_store": mean_by_store,
        "pivot": pivot,
        "quarter": quarter,
        "which": which,
        "counts": counts,
        "ranks": ranks,
        "p90": p90,
        "q": q,
        "top3": top3,
        "uniq_keys": uniq_keys,
        "first_idx": first_idx,
        "in_promo": in_promo,
        "common": common,
        "missing": missing,
        "share": share,
        "k80": k80,
        "filled": filled,
    }
