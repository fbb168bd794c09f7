"""Compiled backends for lazygraph.

A backend turns a rewritten ``FunctionGraph`` into a callable. Each one
registers a lowering per Op by dispatch on the Op class, so core never imports
numba or jax; core finds the backends through the ``lazygraph.backends``
entry-point group.

Backend modules in this distribution:

- ``lazygraph.backends.numba``: Numba on the CPU (issue 6, not there yet).
- ``lazygraph.backends.jax``: JAX/XLA on GPU/TPU (issue 7, not there yet).

The ``python`` reference backend ships with lazygraph-core.
"""
