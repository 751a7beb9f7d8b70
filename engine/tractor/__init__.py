"""Tractor (SPOJ TRACTOR): the contest's single-round simulator and a full-round engine.

rules.py     card ids, tokens, the card order of a (main suit, CR) pair, round setup
tricks.py    lead structure, follower honour, trick winner, round outcome (the judge's rules)
protocol.py  the contest text: token-based parsing with clear errors, byte-exact output
simulate.py  the simulator: parsed rounds -> trick winners -> output (stdlib only; exported)
state.py     full rounds: deal, hidden cards, legal leads/follows, events
judge.py     rounds between in-process bots, replayed through the simulator; play_chunk
"""
