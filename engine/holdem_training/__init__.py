"""Hold'em Training: heads-up simplified hold'em against a fixed Monte Carlo opponent (Bob).

Rules: docs/rules/holdem_training.md.
"""
