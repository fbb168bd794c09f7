"""JAX lowerings: sort ops."""

from __future__ import annotations
