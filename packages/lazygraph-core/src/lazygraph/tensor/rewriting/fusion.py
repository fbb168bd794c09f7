"""Rewrites of the ``fusion`` stage (being written)."""
