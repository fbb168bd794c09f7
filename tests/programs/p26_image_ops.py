"""Image-like 2-d array manipulation with an 8-bit grayscale picture.

Style: the scikit-image / scipy-lectures "Image manipulation and processing
using Numpy" chapter, numpy parts only: a synthetic uint8 image, crops,
flips and rotations, padding modes, masks (a circular vignette from
np.ogrid-style broadcasting), an integral image with cumsum for box sums,
thresholding, histogram equalisation with np.interp, downsampling by
reshape-mean, and intensity rescaling with clipping and astype.
"""

import numpy as _numpy


def main(np):
    rng = _numpy.random.default_rng(26)
    h, w = 48, 64
    yy, xx = np.indices((h, w))
    img = 80 + 60 * np.sin(xx / 7.0) + 40 * np.cos(yy / 5.0)
    img += np.asarray(rng.normal(scale=8.0, size=(h, w)))
    img = np.clip(img, 0, 255).astype(np.uint8)
    print(
        f"image {img.shape} {img.dtype}, min {int(img.min())} "
        f"max {int(img.max())} mean {img.mean():.4f}"
    )

    crop = img[10:30, 20:50]
    flipped_ud = np.flipud(img)
    flipped_lr = img[:, ::-1]
    rot = np.rot90(img)
    rot3 = np.rot90(img, k=3)
    print(
        f"crop {crop.shape}, rot90 {rot.shape}, flips agree "
        f"{bool(np.array_equal(np.fliplr(img), flipped_lr))}"
    )
    print(
        f"rot90 twice equals flip both: {bool(np.array_equal(np.rot90(img, 2), img[::-1, ::-1]))}"
    )
    print(f"rot90 k=3 corner {int(rot3[0, 0])} = img[-1, 0] {int(img[-1, 0])}")

    # padding modes
    small = np.arange(1, 7, dtype=np.uint8).reshape(2, 3)
    for mode in ("constant", "edge", "reflect", "symmetric", "wrap"):
        padded = np.pad(small, 1, mode=mode)
        print(f"pad {mode:9s} first row {padded[0].tolist()}")
    asym = np.pad(small, ((1, 0), (0, 2)), mode="constant", constant_values=9)
    print(f"asymmetric pad {asym.tolist()}")

    # circular vignette mask
    cy, cx = h / 2, w / 2
    r = np.sqrt((yy - cy) ** 2 + (xx - cx) ** 2)
    vignette = img.copy()
    vignette[r > 20] = 0
    print(f"vignette keeps {int((vignette > 0).sum())} pixels")

    # integral image and box sums
    ii = img.astype(np.int64).cumsum(axis=0).cumsum(axis=1)
    ii = np.pad(ii, ((1, 0), (1, 0)))
    y0, x0, y1, x1 = 5, 7, 25, 40
    box = ii[y1, x1] - ii[y0, x1] - ii[y1, x0] + ii[y0, x0]
    print(f"box sum {int(box)} equals direct {int(img[y0:y1, x0:x1].astype(np.int64).sum())}")

    # thresholding with Otsu's method from the histogram
    hist = np.bincount(img.ravel(), minlength=256)
    p = hist / hist.sum()
    omega = np.cumsum(p)
    mu = np.cumsum(p * np.arange(256))
    mu_t = mu[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        sigma_b = (mu_t * omega - mu) ** 2 / (omega * (1 - omega))
    sigma_b = np.nan_to_num(sigma_b)
    thresh = int(np.argmax(sigma_b))
    binary = img > thresh
    print(f"Otsu threshold {thresh}, foreground fraction {binary.mean():.4f}")

    # histogram equalisation
    cdf = hist.cumsum()
    cdf_norm = (cdf - cdf.min()) * 255 / (cdf.max() - cdf.min())
    equalised = np.interp(img.ravel(), np.arange(256), cdf_norm).reshape(img.shape).astype(np.uint8)
    print(
        f"equalised range {int(equalised.min())}-{int(equalised.max())}, std {equalised.std():.4f}"
    )

    # downsample by block means and upsample by repetition
    down = img.reshape(h // 4, 4, w // 4, 4).mean(axis=(1, 3))
    up = np.repeat(np.repeat(down, 4, axis=0), 4, axis=1)
    print(f"downsampled {down.shape}, upsample error {np.abs(up - img).mean():.4f}")

    # contrast stretch with percentiles, then back to uint8
    lo, hi = np.percentile(img, (2, 98))
    stretched = np.clip((img - lo) / (hi - lo), 0, 1)
    out8 = (stretched * 255).round().astype(np.uint8)
    print(f"stretch {lo:.2f}..{hi:.2f} -> mean {out8.mean():.4f}")

    # uint8 arithmetic wraps, so convert before adding
    brighter_wrong = img + np.uint8(100)
    brighter = np.clip(img.astype(np.int16) + 100, 0, 255).astype(np.uint8)
    print(
        f"wrapped pixels {int((brighter_wrong < img).sum())}, "
        f"saturated {int((brighter == 255).sum())}"
    )

    return {
        "img": img,
        "crop": crop,
        "flipped_ud": flipped_ud,
        "rot": rot,
        "asym": asym,
        "vignette": vignette,
        "ii": ii,
        "box": box,
        "sigma_b": sigma_b,
        "thresh": thresh,
        "equalised": equalised,
        "down": down,
        "up": up,
        "out8": out8,
        "brighter_wrong": brighter_wrong,
        "brighter": brighter,
    }
