"""Placeholder: linear algebra ops are being written (issue 3)."""

__all__: list[str] = []
