"""Rewrites of the ``constant_folding`` stage (being written)."""
