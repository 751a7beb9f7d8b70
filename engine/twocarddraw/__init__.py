"""TwoCardDraw (TCO07 Marathon Round 2): a bot against a fixed probabilistic server.

rules.py (hands by strength, draw transitions, the flat layouts of the 4155 server rows and the
3945 player decision points), strategy.py + protocol.py (the strategy file), state.py (one
hand), judge.py (the TopCoder tester in process), _kernels.py + best_response.py (exact best
response, fixed-policy value, the generator and its readings), exact.py (a bot's exact expected
profit per hand over a test), analysis.py (fit quality).
Rules: docs/rules/twocarddraw.md.
"""
