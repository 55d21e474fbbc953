#!/usr/bin/env bash
# How long `swift run course check NN` takes after a one-line edit to a
# learner's test, with its fault check: what a learner feels in a "Write the
# test" task. Not a test: it prints timings for the notes and the README.
#
#   bash .ci/bench-fault-check.sh [STAGE] [RUNS]     (default: 03, 5 runs)
#
# The first check (which builds the scratch package) is timed apart. Each run
# appends a comment line to the stage's first YourTests file, runs the check,
# and the file is put back at the end.
set -euo pipefail
stage="${1:-03}"
runs="${2:-5}"
cd "$(dirname "$0")/.."
folder=$(ls -d Lessons/"$stage"-* | head -1)
file=$(ls "$folder"/YourTests/*.swift | head -1)
backup=$(mktemp)
cp "$file" "$backup"
trap 'cp "$backup" "$file"; rm -f "$backup"' EXIT

swift build --build-tests >/dev/null 2>&1 || true
start=$(date +%s.%N)
swift run course check "$stage" >/dev/null 2>&1 || true
echo "first check of $stage (builds the scratch package if needed): $(echo "$(date +%s.%N) - $start" | bc) s"

times=()
for i in $(seq "$runs"); do
  echo "// edit $i" >>"$file"
  start=$(date +%s.%N)
  swift run course check "$stage" >/dev/null 2>&1 || true
  times+=("$(echo "$(date +%s.%N) - $start" | bc)")
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
median=$(echo "$sorted" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}')
echo "after a one-line edit, $runs runs: $(echo "$sorted" | tr '\n' ' ')s; median $median s"
