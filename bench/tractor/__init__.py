"""Tractor benchmarks: the contest simulator as its own process on a large input."""
