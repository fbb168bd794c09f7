"""Tests of the tensor rewrite stages (canonicalize, stabilize, specialize, fusion, inplace)."""
