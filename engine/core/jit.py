"""Numba options in one place: every kernel is cached on disk and releases the GIL,
so thread pools get real parallelism and a fresh process skips recompilation."""

from numba import njit

KERNEL_OPTIONS = {"cache": True, "nogil": True, "fastmath": False, "error_model": "numpy"}


def kernel(fn=None, **overrides):
    """Decorator for private numba kernels: ``@kernel`` or ``@kernel(inline="always")``."""
    options = {**KERNEL_OPTIONS, **overrides}
    if fn is None:
        return lambda f: njit(**options)(f)
    return njit(**options)(fn)
