#!/usr/bin/env bash
# Leagues of 4 programs per contest, each played one game at a time and then 2 in parallel
# (`cardlab bench league`, fresh scratch hand logs): the figures in the README's Leagues section.
# Usage: bench/leagues/run.sh [contest ...]   (default: all five). Entrants: the project's exported
# bundles (`cardlab export`) and the small stdlib programs in tests/.
set -euo pipefail
cd "$(dirname "$0")/../.."
CARDLAB=.venv/bin/cardlab
PY=$(python3 -c 'import sys; print(sys.executable)')  # the binary, not a shim: start-up counts
WORK=$(mktemp -d -t cardlab-league-bench-XXXX)
trap 'rm -rf "$WORK"' EXIT
bundle() { "$CARDLAB" export "$@" >/dev/null; }
T=tests/holdem_training/data/contestant.py
B=tests/flows/league_programs/splendor_buyer.py
CARDS=data/splendor/cards.csv

holdem_training() {
  bundle holdem-training --bot exploit --out "$WORK/ht-exploit"
  bundle holdem-training --bot rate_equity --out "$WORK/ht-rate"
  "$CARDLAB" bench league holdem-training --games 4 --opt hands=1000 \
    --program "exploit=$WORK/ht-exploit/run" --program "rate_equity=$WORK/ht-rate/run" \
    --program "checker=$PY $T check" --program "rate_then_raise=$PY $T example 0"
}
cg_holdem() {  # stdlib programs that read every turn and answer one fixed action
  C=tests/cg_holdem/data/caller.py  # argv: delay, from round, answer
  "$CARDLAB" bench league cg-holdem --games 6 --players 2 \
    --program "call=$PY $C 0 1 CALL" --program "check=$PY $C 0 1 CHECK" \
    --program "allin=$PY $C 0 1 ALL-IN" --program "fold=$PY $C 0 1 FOLD"
}
splendor() {
  "$CARDLAB" bench league splendor --games 4 --players 4 \
    --program "points=$PY $B $CARDS points" --program "cheap=$PY $B $CARDS cheap" \
    --program "take=$PY $B $CARDS take" --program "pass=$PY -c print(1,0)"
}
tractor() {
  bundle tractor --out "$WORK/sim"
  "$CARDLAB" bench league tractor --games 4 --opt cases=10 \
    --program "bundle=$WORK/sim/run" --program "script=$PY $WORK/sim/simulate.py" \
    --program "echo=cat" --program "silent=$PY -c pass"
}
twocarddraw() {
  "$CARDLAB" bench league twocarddraw --games 4 --opt hands=2000 \
    --program "sample=bot:sample" --program "prior_br=bot:prior_br" --program "learner=bot:learner" \
    --program "oracle=bot:oracle"
}
for contest in "${@:-holdem_training cg_holdem splendor tractor twocarddraw}"; do
  for c in $contest; do echo "== $c"; "${c//-/_}"; done
done
