"""lazygraph.numpy.random (being written)"""

__all__: list[str] = []
