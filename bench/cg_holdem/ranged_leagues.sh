#!/usr/bin/env bash
# Issue 32's benchmark: the ranged bot (exported, as the arena runs it) in leagues against
# cardlab's other bots (exported) and the style programs (bench/cg_holdem/styles), seats rotated
# on every deal (duplicate format).
#   heads-up: one league per opponent, GAMES games (default 200: 100 deals x 2 seatings);
#   four seats: ranged, aggressive, montecarlo, pushfold at one table, GAMES4 games (default 200).
# Usage: bench/cg_holdem/ranged_leagues.sh OUT [hu|four|all] [BOT]   (BOT: the bot under test,
# default ranged; e.g. aggressive for the baseline's figures). Results: OUT/<league>.json.
# TURN_MS (default 200) and FIRST_TURN_MS (default 3000: Python's start-up) relax the contest's
# 50 / 1000 ms so a loaded shared machine measures strength, not load (the per-turn time is
# tested on its own: tests/cg_holdem/test_ranged.py). PYTHON: the interpreter every program
# runs under (default: python3 resolved past any shim, which costs start-up time).
set -euo pipefail
OUT=${1:?usage: ranged_leagues.sh OUT [hu|four|all] [BOT]}
WHAT=${2:-all}
BOT=${3:-ranged}
GAMES=${GAMES:-200}
GAMES4=${GAMES4:-200}
TURN_MS=${TURN_MS:-200}
FIRST_TURN_MS=${FIRST_TURN_MS:-3000}
PYTHON=${PYTHON:-$(python3 -c 'import sys; print(sys.executable)')}
# WORKERS (default 1): games in parallel within a league; OPPONENTS: the heads-up opponents
# (default: cardlab's four other bots, then the four style_* programs)
SEED=${SEED:-32}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CARDLAB=${CARDLAB:-$ROOT/.venv/bin/cardlab}
mkdir -p "$OUT/programs"
export CARDLAB_HOME=${CARDLAB_HOME:-$OUT} CARDLAB_DB=${CARDLAB_DB:-$OUT/handlog.duckdb} CARDLAB_OUT=${CARDLAB_OUT:-$OUT}
for b in "$BOT" aggressive montecarlo pushfold station; do
  [ -f "$OUT/programs/$b.py" ] || "$CARDLAB" export cg-holdem --bot "$b" --out "$OUT/programs/$b.py" >/dev/null 2>&1
done
program() {  # NAME -> its command
  case $1 in
    style_*) echo "$PYTHON $HERE/styles/${1#style_}.py" ;;
    *) echo "$PYTHON $OUT/programs/$1.py" ;;
  esac
}
league() {  # NAME PLAYERS GAMES ENTRANT...
  local name=$1 players=$2 games=$3
  shift 3
  local args=()
  for e in "$@"; do args+=(--program "$e=$(program "$e")"); done
  "$CARDLAB" league cg-holdem "${args[@]}" --players "$players" --games "$games" --seed "$SEED" \
    --opt turn_ms="$TURN_MS" --opt first_turn_ms="$FIRST_TURN_MS" --name "$name" --workers "${WORKERS:-1}" --json > "$OUT/$name.json"
  echo "$(date -u +%FT%TZ) $name done"
}
if [ "$WHAT" = hu ] || [ "$WHAT" = all ]; then
  for opp in ${OPPONENTS:-aggressive montecarlo pushfold station style_lag style_rules style_pushfold style_mcpot}; do
    [ "$opp" = "$BOT" ] || league "hu-$BOT-$opp" 2 "$GAMES" "$BOT" "$opp"
  done
fi
if [ "$WHAT" = four ] || [ "$WHAT" = all ]; then
  if [ "$BOT" = aggressive ]; then others=(montecarlo pushfold station); else others=(aggressive montecarlo pushfold); fi
  # OTHERS4 (e.g. "style_lag style_rules aggressive"): another table of three, named after them
  if [ -n "${OTHERS4:-}" ]; then read -ra others <<< "$OTHERS4"; fi
  short=${OTHERS4:-} short=${short//style_/}  # league names take 40 characters; unset under set -u
  league "four-$BOT${OTHERS4:+-${short// /-}}" 4 "$GAMES4" "$BOT" "${others[@]}"
fi
