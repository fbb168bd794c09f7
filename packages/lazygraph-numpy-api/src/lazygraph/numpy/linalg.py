"""lazygraph.numpy.linalg (being written)"""

__all__: list[str] = []
