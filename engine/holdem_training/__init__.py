"""Hold'em Training: heads-up simplified hold'em against a fixed Monte Carlo opponent (Bob)."""
