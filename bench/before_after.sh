#!/bin/bash
# Speed before/after a change: the same `cardlab bench` commands from two commits, interleaved.
#   bench/before_after.sh OLD NEW [ROUNDS]   (run from the project; outputs in $OUT, default /tmp/cardlab-ab;
#   BENCHES='tractor simulate;splendor speed' runs only those)
# Each commit is checked out in its own git worktree and run with this project's venv and its
# own numba cache; round 0 warms the caches and is not a measurement. Interleaving the commits
# in every round spreads what other jobs on the machine take over both sides.
set -euo pipefail
old=${1:?usage: before_after.sh OLD NEW [ROUNDS]} new=${2:?usage: before_after.sh OLD NEW [ROUNDS]}
rounds=${3:-3}
project=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-/tmp/cardlab-ab}
mkdir -p "$out/results"
# store and sweep are sized so that one round of everything takes about 6 minutes for both commits;
# every option given here must exist in both commits, since the same command line runs on both.
benches=("holdem-training evaluator" "holdem-training equity" "holdem-training judge" "twocarddraw speed"
         "splendor speed" "cg-holdem speed" "tractor simulate" "store --hands 20000 --chunk 5000"
         "sweep --total 300000")
if [ -n "${BENCHES:-}" ]; then IFS=';' read -r -a benches <<< "$BENCHES"; fi  # e.g. BENCHES='tractor simulate'
for commit in "$old" "$new"; do
  [ -d "$out/$commit" ] || git -C "$project" worktree add --detach "$out/$commit" "$commit" >/dev/null
done
# .ci/env.sh keeps locations the caller already exported: drop them so each checkout gets its own
# (numba cache, Prefect, MLflow, hand log) rather than the calling project's.
locations=(PREFECT_HOME PREFECT_API_DATABASE_CONNECTION_URL MLFLOW_TRACKING_URI CARDLAB_HOME NUMBA_CACHE_DIR
           DASK_TEMPORARY_DIRECTORY UV_CACHE_DIR CARDLAB_DB CARDLAB_OUT)
run() {  # run COMMIT ARGS...: cardlab from that checkout, its state kept under $out
  local tree=$out/$1; shift
  (unset "${locations[@]}"; cd "$tree" && export ROOT=$tree && . .ci/env.sh && export CARDLAB_DB="$tree.duckdb" CARDLAB_OUT="$tree.out" \
     PYTHONPATH=$tree && "$project/.venv/bin/python" -c \
     "import sys; from cardlab.cli import main; sys.argv[0] = 'cardlab'; main()" "$@")
}
# The venv's editable install and its cardlab.games entry points (module paths) must resolve in
# each checkout, not in the project: record where each one's code comes from.
for commit in "$old" "$new"; do
  (unset "${locations[@]}"; cd "$out/$commit" && PYTHONPATH=$out/$commit "$project/.venv/bin/python" -c \
     "import flows.games, engine, cardlab
files = [m.__file__ for m in (flows.games, engine, cardlab)]
assert all(f.startswith('$out/$commit/') for f in files), f'not this checkout: {files}'
print('$commit', *files)")
done > "$out/results/trees.txt"
for round in $(seq 0 "$rounds"); do
  for bench in "${benches[@]}"; do
    for commit in "$old" "$new"; do
      file=$out/results/$round.$commit.${bench// /_}.txt
      { echo "### round=$round $commit $bench load=$(cut -d' ' -f1 /proc/loadavg) $(date -u +%T)"
        run "$commit" bench $bench 2>&1 || echo "### failed: exit status $?"
        echo "### end load=$(cut -d' ' -f1 /proc/loadavg) $(date -u +%T)"; } > "$file"
    done
  done
done
echo "results in $out/results (round 0 is the warm-up); remove the checkouts with: git worktree remove $out/<commit>"
