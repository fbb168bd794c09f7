"""JAX lowerings: join ops."""

from __future__ import annotations
