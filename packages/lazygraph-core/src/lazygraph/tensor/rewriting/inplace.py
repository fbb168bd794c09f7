"""Rewrites of the ``inplace`` stage (being written)."""
