"""Rewrites of the ``specialize`` stage (being written)."""
