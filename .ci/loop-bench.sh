#!/usr/bin/env bash
# loop-bench.sh: how long a learner waits after a one-line edit to a lesson.
#
#   bash .ci/loop-bench.sh [--build-system native|swiftbuild|both] [--measure LIST] [STAGE] [RUNS]
#
#   --build-system  the build system of every command on both sides (default: both,
#                   side by side in one run); BUILD_SYSTEM=... does the same.
#   --measure       a comma-separated list of what to time in the workspace (default: test):
#                     test   `swift test --build-system B --filter LessonNN`
#                     check  `swift run --build-system B course check NN --build-system B`
#                     launch `./course check NN --build-system B`, the launcher at the
#                            package root, with B's course recorded for it
#                     watch  a rerun of `course watch NN --build-system B` (started once;
#                            each run is timed from the edit to the end of the rerun's
#                            output; watch looks for changes every half second)
#   STAGE RUNS      default 01 and 7.
#
# Each measured command is paired with the same loop in a one-module package
# (the floor that SwiftPM itself sets, `swift test --build-system B` there),
# alternating. Each run first changes a string literal inside a function body of
# the lesson, so the module really recompiles. Run it from anywhere after one
# full build; it builds what it needs under each build system first, and
# restores the lesson file when it ends.
# Prints each run, then per build system and command the median, the floor's
# median and their ratio. Targets (issue 29): under Swift Build, `course check`
# and a `course watch` rerun within 2.0x its floor; the native loop is reported.
set -euo pipefail
cd "$(dirname "$0")/.."
systems=${BUILD_SYSTEM:-both}; measure=test
while [ $# -gt 0 ]; do
  case "$1" in
  --build-system) systems=$2; shift 2 ;;
  --build-system=*) systems=${1#*=}; shift ;;
  --measure) measure=$2; shift 2 ;;
  --measure=*) measure=${1#*=}; shift ;;
  *) break ;;
  esac
done
[ "$systems" = both ] && systems="native swiftbuild"
stage=${1:-01}; runs=${2:-7}
root=$(pwd)
lesson=$(ls -d "$root"/Lessons/"$stage"-* | head -1)
file=$(grep -l 'func ' "$lesson"/*.swift | head -1)
floor=$(mktemp -d)
watcher=""
cleanup() {
  [ -n "$watcher" ] && kill "$watcher" 2>/dev/null && wait "$watcher" 2>/dev/null
  cp "$floor/lesson.orig" "$file" 2>/dev/null || true
  # The launcher's record as it was: the runs leave one for the last build system.
  if [ -f "$floor/launcher.tool" ]; then cp -p "$floor/launcher.tool" "$launcher"; else rm -f "$launcher"; fi
  rm -rf "$floor"
}
trap cleanup EXIT
cp "$file" "$floor/lesson.orig"
launcher=$root/.build/course/launcher.tool
[ -f "$launcher" ] && cp -p "$launcher" "$floor/launcher.tool"

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

# A literal inside a function of the lesson file's own: a line inside an existing
# body would break a single-expression body's implicit return.
{ cat "$floor/lesson.orig"; printf '\nprivate func loopBenchFlip() -> String { "flip-0" }\n'; } >"$file"

now() { date +%s%N; }
ms() { echo $((($2 - $1) / 1000000)); }
median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
flip() { sed -i "s/flip-[0-9]*/flip-$RANDOM$RANDOM/" "$1"; }
floor_run() { # $1 build system; prints ms
  flip "$floor/pkg/Sources/Floor/Floor.swift"
  local t0; t0=$(now)
  (cd "$floor/pkg" && swift test --build-system "$1" >/dev/null 2>&1) || true
  ms "$t0" "$(now)"
}
record() { echo "$3" >>"$floor/$1.$2.ms"; }

for bs in $systems; do
  (cd "$floor/pkg" && swift build --build-system "$bs" --build-tests >/dev/null 2>&1)
  swift build --build-system "$bs" --build-tests >/dev/null 2>&1 || { echo "the workspace does not build ($bs)"; exit 1; }
  case ",$measure," in *,check,* | *,watch,* | *,launch,*)
    # The first check builds course and, for a stage with test tasks, the fault check's scratch package.
    swift run --build-system "$bs" course check "$stage" --build-system "$bs" >/dev/null 2>&1 || true ;;
  esac
done

for i in $(seq 1 "$runs"); do
  for bs in $systems; do
    line="run $i, $bs:"
    case ",$measure," in *,test,*)
      flip "$file"; t0=$(now)
      swift test --build-system "$bs" --filter "Lesson$stage" >/dev/null 2>&1 || true
      c=$(ms "$t0" "$(now)"); f=$(floor_run "$bs")
      record "$bs" test "$c"; record "$bs" test-floor "$f"; line="$line test ${c} ms (floor ${f} ms)" ;;
    esac
    case ",$measure," in *,check,*)
      flip "$file"; t0=$(now)
      swift run --build-system "$bs" course check "$stage" --build-system "$bs" >/dev/null 2>&1 || true
      c=$(ms "$t0" "$(now)"); f=$(floor_run "$bs")
      record "$bs" check "$c"; record "$bs" check-floor "$f"; line="$line; check ${c} ms (floor ${f} ms)" ;;
    esac
    case ",$measure," in *,launch,*)
      # What `./course` runs when it has built course itself under this build system.
      mkdir -p .build/course && touch .build/course/launcher.start
      COURSE_LAUNCHER=1 COURSE_LAUNCHER_TOOLCHAIN="swift=$(command -v swift) DEVELOPER_DIR=${DEVELOPER_DIR-} TOOLCHAINS=${TOOLCHAINS-}" \
        swift run --build-system "$bs" course help >/dev/null 2>&1
      flip "$file"; t0=$(now)
      ./course check "$stage" --build-system "$bs" >/dev/null 2>&1 || true
      c=$(ms "$t0" "$(now)"); f=$(floor_run "$bs")
      record "$bs" launch "$c"; record "$bs" launch-floor "$f"; line="$line; ./course check ${c} ms (floor ${f} ms)" ;;
    esac
    echo "$line"
  done
done

# A watch cannot share the lesson with another watch, so each build system's runs come one after the other.
case ",$measure," in *,watch,*)
  for bs in $systems; do
    out="$floor/watch.$bs.log"
    swift build --build-system "$bs" --product course >/dev/null 2>&1
    bin=$(swift build --build-system "$bs" --show-bin-path)
    "$bin/course" watch "$stage" --build-system "$bs" >"$out" 2>&1 &
    watcher=$!
    ends() { grep -c "^Watching Lessons/" "$out" || true; }
    until [ "$(ends)" -ge 1 ]; do sleep 0.05; done
    for i in $(seq 1 "$runs"); do
      before=$(ends); flip "$file"; t0=$(now)
      until [ "$(ends)" -gt "$before" ]; do sleep 0.02; done
      c=$(ms "$t0" "$(now)"); f=$(floor_run "$bs")
      record "$bs" watch "$c"; record "$bs" watch-floor "$f"
      echo "run $i, $bs: watch rerun ${c} ms (floor ${f} ms)"
    done
    kill "$watcher"; wait "$watcher" 2>/dev/null || true; watcher=""
  done ;;
esac

echo "Lesson$stage after a one-line edit, medians of $runs runs:"
for bs in $systems; do
  for what in test check launch watch; do
    [ -s "$floor/$bs.$what.ms" ] || continue
    c=$(median <"$floor/$bs.$what.ms"); f=$(median <"$floor/$bs.$what-floor.ms")
    awk -v c="$c" -v f="$f" -v b="$bs" -v w="$what" \
      'BEGIN{printf "  %-10s %-6s %6.2f s; one-module package %5.2f s; ratio %.2f\n", b, w, c/1000, f/1000, c/f}'
  done
done
