"""Shared pieces every contest engine uses: jit options, seeded randomness, cards, chunk logs."""
