#!/usr/bin/env bash
# loop-bench.sh [STAGE] [RUNS]: how long a learner waits after an edit.
#
#   bash .ci/loop-bench.sh [STAGE] [RUNS]     (default: 01, 7 runs; README, Benchmarks)
#
# Measures, side by side and alternating, the edit -> `swift test --filter LessonNN`
# loop of this workspace and the same loop in a one-module package (the floor
# that SwiftPM itself sets). Each run changes a string literal inside a function
# body of the lesson, so the module really recompiles. Run it after one full
# build; it restores the lesson file when it ends.
# Prints each run, then the medians and their ratio. Goal: median <= 1.5 s and
# ratio <= 2.0 on the 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
stage=${1:-01}; runs=${2:-7}
root=$(pwd)
lesson=$(ls -d "$root"/Lessons/"$stage"-* | head -1)
file=$(grep -l 'func ' "$lesson"/*.swift | head -1)
floor=$(mktemp -d)
trap 'cp "$floor/lesson.orig" "$file" 2>/dev/null || true; rm -rf "$floor"' EXIT
cp "$file" "$floor/lesson.orig"

mkdir -p "$floor/pkg/Sources/Floor" "$floor/pkg/Tests/FloorTests"
cat >"$floor/pkg/Package.swift" <<'SWIFT'
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
  name: "Floor",
  targets: [.target(name: "Floor"), .testTarget(name: "FloorTests", dependencies: ["Floor"])]
)
SWIFT
cat >"$floor/pkg/Sources/Floor/Floor.swift" <<'SWIFT'
func greeting(name: String = "you") -> String {
  _ = "flip-0"
  return "One for \(name), one for me."
}
SWIFT
cat >"$floor/pkg/Tests/FloorTests/FloorTests.swift" <<'SWIFT'
import Testing
@testable import Floor
@Test func noName() { #expect(greeting() == "One for you, one for me.") }
@Test func aName() { #expect(greeting(name: "Ada") == "One for Ada, one for me.") }
SWIFT
(cd "$floor/pkg" && swift build --build-tests >/dev/null 2>&1)

# A literal inside the first function body of the lesson file.
awk 'BEGIN{done=0} {print} /func .*\{ *$/ && !done {print "    _ = \"flip-0\""; done=1}' "$floor/lesson.orig" >"$file"
swift build --build-tests >/dev/null 2>&1 || { echo "the workspace does not build"; exit 1; }

now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
: >"$floor/course.ms"; : >"$floor/floor.ms"
for i in $(seq 1 "$runs"); do
  sed -i "s/flip-[0-9]*/flip-$RANDOM$RANDOM/" "$file"
  t0=$(now); swift test --filter "Lesson$stage" >/dev/null 2>&1 || true; t1=$(now)
  sed -i "s/flip-[0-9]*/flip-$RANDOM$RANDOM/" "$floor/pkg/Sources/Floor/Floor.swift"
  t2=$(now); (cd "$floor/pkg" && swift test >/dev/null 2>&1) || true; t3=$(now)
  c=$(((t1 - t0) / 1000000)); f=$(((t3 - t2) / 1000000))
  echo "run $i: workspace ${c} ms, one-module package ${f} ms"
  echo "$c" >>"$floor/course.ms"; echo "$f" >>"$floor/floor.ms"
done
cm=$(median <"$floor/course.ms"); fm=$(median <"$floor/floor.ms")
awk -v c="$cm" -v f="$fm" -v s="$stage" 'BEGIN{printf "Lesson%s loop: median %.2f s; one-module package: %.2f s; ratio %.2f\n", s, c/1000, f/1000, c/f}'
