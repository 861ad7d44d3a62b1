"""Numba kernels: contiguous arrays in, arrays out; no validation, no Python objects."""
