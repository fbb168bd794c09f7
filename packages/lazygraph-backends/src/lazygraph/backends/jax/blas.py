"""JAX lowerings: blas ops."""

from __future__ import annotations
