"""Hold'em Training benchmarks: evaluator, equity and judge speed against peers; bot strength; headroom."""
