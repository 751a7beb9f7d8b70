"""TwoCardDraw benchmarks: best-response and generator speed against a numpy peer; bot strength over servers."""
