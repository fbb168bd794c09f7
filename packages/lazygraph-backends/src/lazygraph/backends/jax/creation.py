"""JAX lowerings: creation ops."""

from __future__ import annotations
