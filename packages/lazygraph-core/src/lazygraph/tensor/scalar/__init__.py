"""Scalar ops: the table of elementwise functions that ``Elemwise`` broadcasts."""

__all__: list[str] = []
