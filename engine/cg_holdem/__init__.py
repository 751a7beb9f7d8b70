"""CodinGame Hold'em ("Poker", 2-4 players): a clone of the contest's referee.

rules.py (constants, GameConfig), sha1prng.py + deck.py (Java SHA1PRNG decks from the game
seed), state.py (positions, blinds, betting, replacement, eliminations), settle.py (layered
side pots, odd chips), protocol.py (byte-exact turn input and output parsing), judge.py
(in-process bots and external programs; play_chunk for the workspace), phh.py (PokerKit
hand histories), _kernels.py (numba Monte Carlo equity). Rules: docs/rules/cg_holdem.md.
"""
