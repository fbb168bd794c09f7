"""JAX lowerings: fft ops."""

from __future__ import annotations
