#!/usr/bin/env bash
# How long `swift run course check NN` takes after a one-line edit to a
# learner's test, with its fault check: what a learner feels in a "Write the
# test" task. Not a test: it prints timings for the notes and the README.
#
#   bash .ci/bench-fault-check.sh [--build-system native|swiftbuild] [--answers] [STAGE] [RUNS]
#
# Defaults: the toolchain's default build system, stage 03, 5 runs.
# --answers puts the reference answers (Solutions/NN-Name/YourTests, read as
# the lesson's) in place of the learner's placeholders first, so the faults are
# really caught, as a learner's finished tests catch them.
# The first check (which builds the scratch package) is timed apart. Each run
# appends a comment line to the stage's first YourTests file, runs the check,
# and the stage's YourTests folder is put back at the end.
set -euo pipefail
bs=(); answers=0
while [ $# -gt 0 ]; do
  case "$1" in
  --build-system) bs=(--build-system "$2"); shift 2 ;;
  --build-system=*) bs=(--build-system "${1#*=}"); shift ;;
  --answers) answers=1; shift ;;
  *) break ;;
  esac
done
stage="${1:-03}"
runs="${2:-5}"
cd "$(dirname "$0")/.."
folder=$(ls -d Lessons/"$stage"-* | head -1)
backup=$(mktemp -d)
cp -R "$folder/YourTests" "$backup/"
trap 'rm -rf "$folder/YourTests"; cp -R "$backup/YourTests" "$folder/"; rm -rf "$backup"' EXIT
if [ "$answers" = 1 ]; then
  for answer in Solutions/"$stage"-*/YourTests/*.swift; do
    sed -E "s/\bSolution$stage\b/Lesson$stage/g" "$answer" >"$folder/YourTests/$(basename "$answer")"
  done
fi
file=$(ls "$folder"/YourTests/*.swift | head -1)

swift build "${bs[@]}" --build-tests >/dev/null 2>&1 || true
start=$(date +%s.%N)
swift run "${bs[@]}" course check "$stage" "${bs[@]}" >/dev/null 2>&1 || true
echo "first check of $stage (builds the scratch package if needed): $(echo "$(date +%s.%N) - $start" | bc) s"

times=()
for i in $(seq "$runs"); do
  echo "// edit $i" >>"$file"
  start=$(date +%s.%N)
  swift run "${bs[@]}" course check "$stage" "${bs[@]}" >/dev/null 2>&1 || true
  times+=("$(echo "$(date +%s.%N) - $start" | bc)")
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
median=$(echo "$sorted" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}')
echo "after a one-line edit, $runs runs: $(echo "$sorted" | tr '\n' ' ')s; median $median s"
