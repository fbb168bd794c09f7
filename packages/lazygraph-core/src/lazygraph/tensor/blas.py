"""Placeholder: this op family is being written (issue 3)."""

__all__: list[str] = []
