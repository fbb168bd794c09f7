"""The JAX/XLA backend (GPU/TPU). Placeholder: its lowering arrives with issue 7.

``backend`` is the object the ``lazygraph.backends`` entry point names; it is
``None`` until the lowering exists, which the backend registry reads as "not
available". This module imports nothing heavy (not jax).
"""

backend = None
