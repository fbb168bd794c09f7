"""Rewrites of the ``canonicalize`` stage (being written)."""
