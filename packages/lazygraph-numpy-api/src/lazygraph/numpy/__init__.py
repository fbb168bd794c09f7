"""lazygraph.numpy: the array API namespace that records numpy code into a graph.

This namespace is being built (issue 4). Until then it exports nothing; the
functions arrive chapter by chapter of the array API standard, each listed in
``__all__``.

>>> import lazygraph.numpy as lnp
>>> lnp.__array_api_version__
'2024.12'
"""

__all__: list[str] = []

__array_api_version__ = "2024.12"
