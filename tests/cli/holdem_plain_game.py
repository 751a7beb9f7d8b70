"""Hold'em Training's program play without the game's own judge command, so `cardlab judge holdem-plain` is
the generic judge calling flows.games.holdem_training.play_program for the whole match (its plain path); loaded
by a real `cardlab` process through CARDLAB_EXTRA_GAMES for the interrupt test."""

import dataclasses

from flows.games import holdem_training

SPEC = dataclasses.replace(holdem_training.SPEC, name="holdem-plain", commands=None)
