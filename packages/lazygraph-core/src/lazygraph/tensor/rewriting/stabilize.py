"""Rewrites of the ``stabilize`` stage (being written)."""
