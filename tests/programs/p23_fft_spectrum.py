"""Spectral analysis of a sampled signal with np.fft.

Style: a signal-processing tutorial ("FFT in Python with numpy"): a sum of
two sines plus noise sampled at 256 Hz, the one-sided amplitude spectrum
with rfft/rfftfreq, peak detection, a Hann window (np.hanning) against
leakage, Parseval's theorem, a brick-wall low-pass filter by zeroing bins
and irfft, fftshift of a complex FFT, and 2-d FFT of a small image.
"""

import numpy as _numpy


def main(np):
    fs = 256.0
    n = 512
    t = np.arange(n) / fs
    rng = _numpy.random.default_rng(23)
    noise = np.asarray(rng.normal(scale=0.3, size=n))
    x = 1.0 * np.sin(2 * np.pi * 12.0 * t) + 0.5 * np.sin(2 * np.pi * 40.0 * t + 0.3) + noise

    X = np.fft.rfft(x)
    freqs = np.fft.rfftfreq(n, d=1 / fs)
    amp = 2.0 * np.abs(X) / n
    top = np.argsort(amp)[-2:][::-1]
    print(f"{len(freqs)} bins, resolution {freqs[1]:.4f} Hz")
    for i in top:
        print(f"peak at {freqs[i]:.2f} Hz, amplitude {amp[i]:.4f}")

    # Parseval: energy in time equals energy in frequency
    full = np.fft.fft(x)
    e_time = np.sum(x**2)
    e_freq = np.sum(np.abs(full) ** 2) / n
    print(f"Parseval holds: {bool(np.isclose(e_time, e_freq))}")

    # windowing against leakage, with an off-bin frequency
    y = np.sin(2 * np.pi * 10.3 * t)
    window = np.hanning(n)
    raw = np.abs(np.fft.rfft(y))
    win = np.abs(np.fft.rfft(y * window))
    far = freqs > 30
    print(f"leakage above 30 Hz: raw {raw[far].sum():.4f}, Hann {win[far].sum():.4f}")
    coherent_gain = window.sum() / n
    print(f"Hann coherent gain {coherent_gain:.6f}")

    # low-pass filter by zeroing bins above 20 Hz
    Xf = X.copy()
    Xf[freqs > 20] = 0
    smooth = np.fft.irfft(Xf, n=n)
    clean = np.sin(2 * np.pi * 12.0 * t)
    print(f"filtered RMS error {np.sqrt(np.mean((smooth - clean) ** 2)):.6f}")
    print(f"unfiltered RMS error {np.sqrt(np.mean((x - clean) ** 2)):.6f}")
    roundtrip = np.fft.irfft(X, n=n)
    print(f"irfft round trip exact: {bool(np.allclose(roundtrip, x))}")

    # centred spectrum of a complex exponential
    z = np.exp(2j * np.pi * -20.0 * t)
    Z = np.fft.fftshift(np.fft.fft(z))
    zf = np.fft.fftshift(np.fft.fftfreq(n, 1 / fs))
    print(f"complex tone at {zf[np.argmax(np.abs(Z))]:.2f} Hz")

    # 2-d FFT of a small striped image
    r, c = np.meshgrid(np.arange(32), np.arange(32), indexing="ij")
    img = np.cos(2 * np.pi * 4 * c / 32) + 0.5 * np.cos(2 * np.pi * 2 * r / 32)
    F = np.fft.fft2(img)
    mag = np.abs(F)
    peaks = np.argwhere(mag > 1.0)
    print(f"2-d FFT peaks at {peaks.tolist()}")
    back = np.fft.ifft2(F).real
    print(f"ifft2 round trip: {bool(np.allclose(back, img))}")

    return {
        "amp": amp,
        "freqs": freqs,
        "top": top,
        "e_freq": e_freq,
        "window": window,
        "win": win,
        "smooth": smooth,
        "Z": Z,
        "zf": zf,
        "mag": mag,
        "peaks": peaks,
        "back": back,
    }
