"""CodinGame Hold'em benchmarks: speed against PokerKit, bot strength."""
