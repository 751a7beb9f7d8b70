#!/bin/bash
# Speed before/after a change: the same `cardlab bench` commands from two commits, interleaved.
#   bench/before_after.sh OLD NEW [ROUNDS]   (run from the project; outputs in $OUT, default /tmp/cardlab-ab)
# Each commit is checked out in its own git worktree and run with this project's venv and its
# own numba cache; round 0 warms the caches and is not a measurement. Interleaving the commits
# in every round spreads what other jobs on the machine take over both sides.
set -euo pipefail
old=${1:?usage: before_after.sh OLD NEW [ROUNDS]} new=${2:?usage: before_after.sh OLD NEW [ROUNDS]}
rounds=${3:-3}
project=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-/tmp/cardlab-ab}
mkdir -p "$out/results"
benches=("holdem-training evaluator" "holdem-training equity" "holdem-training judge" "twocarddraw speed"
         "splendor speed" "cg-holdem speed" "tractor simulate")
for commit in "$old" "$new"; do
  [ -d "$out/$commit" ] || git -C "$project" worktree add --detach "$out/$commit" "$commit" >/dev/null
done
run() {  # run COMMIT ARGS...: cardlab from that checkout, its state kept under $out
  local tree=$out/$1; shift
  (cd "$tree" && export ROOT=$tree && . .ci/env.sh && export CARDLAB_DB="$tree.duckdb" CARDLAB_OUT="$tree.out" \
     PYTHONPATH=$tree && "$project/.venv/bin/python" -c \
     "import sys; from cardlab.cli import main; sys.argv[0] = 'cardlab'; main()" "$@")
}
for round in $(seq 0 "$rounds"); do
  for bench in "${benches[@]}"; do
    for commit in "$old" "$new"; do
      file=$out/results/$round.$commit.${bench// /_}.txt
      { echo "### round=$round $commit $bench load=$(cut -d' ' -f1 /proc/loadavg) $(date -u +%T)"
        run "$commit" bench $bench 2>&1; } > "$file"
    done
  done
done
echo "results in $out/results (round 0 is the warm-up); remove the checkouts with: git worktree remove $out/<commit>"
