"""JAX lowerings: linalg ops."""

from __future__ import annotations
