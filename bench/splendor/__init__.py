"""Splendor benchmarks: random-game speed against the Python reference engine, search strength against greedy."""
