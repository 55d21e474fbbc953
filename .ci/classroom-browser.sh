#!/usr/bin/env bash
# The classroom page in a real browser: starts `course classroom` on a free
# port, joins four learners and posts their snapshots over loopback with curl,
# loads the instructor's page in headless Chromium, and checks what it shows:
# one row per learner, the stuck learner and the one who took a hint in red,
# a nickname holding markup shown as text (no element made from it), and the
# summary of learners per task. Saves a screenshot.
#
#   .ci/classroom-browser.sh [SCREENSHOT]     (default .build/course/classroom.png)
#
# Installs Debian's `chromium` (and curl) with apt-get when it is missing; on a
# Mac it uses Google Chrome. Run by .ci/run after the tests (COURSE_SKIP_BROWSER=1
# skips it there: Ubuntu's chromium is a snap, which containers cannot run).
set -euo pipefail
cd "$(dirname "$0")/.."

screenshot="${1:-.build/course/classroom.png}"
work="$(mktemp -d)"
classroom_pid=""
cleanup() {
  if [ -n "$classroom_pid" ]; then kill "$classroom_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "classroom-browser: FAIL: $*" >&2; exit 1; }

browser="$(command -v chromium || command -v chromium-browser || true)"
mac_chrome="/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"
if [ -z "$browser" ] && [ -x "$mac_chrome" ]; then browser="$mac_chrome"; fi
if [ -z "$browser" ] || ! command -v curl >/dev/null 2>&1; then
  command -v apt-get >/dev/null 2>&1 || fail "no chromium (or Google Chrome) or curl, and no apt-get to install them"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium curl
  browser="$(command -v chromium)"
fi
"$browser" --version 2>/dev/null || fail "$browser does not run (Ubuntu's chromium package is a snap,
  which containers lack): use Debian, or Google Chrome, or set COURSE_SKIP_BROWSER=1 for .ci/run"

swift build --product course >/dev/null
bin="$(swift build --show-bin-path)/course"

# The classroom, on a free port, with a room file of its own.
"$bin" classroom --port 0 --room "$work/room.sqlite" --stuck 15 >"$work/classroom.log" 2>&1 &
classroom_pid=$!
for _ in $(seq 1 100); do
  grep -q "Join code:" "$work/classroom.log" 2>/dev/null && break
  sleep 0.1
done
grep -q "Join code:" "$work/classroom.log" || { cat "$work/classroom.log"; fail "the classroom did not start"; }
page="$(grep -o 'http://127.0.0.1:[0-9]*/?token=[0-9a-f]*' "$work/classroom.log" | head -1)"
code="$(awk '/Join code:/ { print $3 }' "$work/classroom.log")"
base="${page%%/?token=*}"
echo "classroom at $base, code $code"

join() { # NAME, with no quote or backslash in it
  curl -sS -X POST "$base/join" -H "X-Join-Code: $code" -H 'Content-Type: application/json' \
    --data-binary "{\"name\":\"$1\"}" | sed -n 's/.*"learner":"\([0-9a-f]*\)".*/\1/p'
}
post() {
  local status
  status="$(curl -sS -o /dev/null -w '%{http_code}' -X POST "$base/snapshot" -H "X-Join-Code: $code" \
    -H "X-Learner: $1" -H 'Content-Type: application/json' --data-binary "$2")"
  [ "$status" = 204 ] || fail "a snapshot got $status"
}
snapshot() { # EVENT STAGE TASK SECONDS HINTS DOCTOR SOLVED-JSON
  printf '{"event":"%s","stage":%s,"task":%s,"secondsOnTask":%s,"passing":[1,2],"failing":[%s],"solved":%s,"hints":%s,"doctor":"%s"}' \
    "$1" "$2" "$3" "$4" "$3" "$7" "$5" "$6"
}

ann="$(join ann)"
bo="$(join bo)"
evil="$(join '<img src=x onerror=1>')"
dee="$(join dee)"
[ -n "$ann" ] && [ -n "$bo" ] && [ -n "$evil" ] && [ -n "$dee" ] || fail "a join failed"
post "$ann" "$(snapshot check '"04"' 3 1500 0 passed '["01","02","03"]')"   # 25 min on Task 3: stuck
post "$bo" "$(snapshot hint '"04"' 3 120 1 warnings '["01","02","03"]')"    # just took a hint
post "$evil" "$(snapshot watch '"02"' 5 60 0 blocked '["01"]')"
post "$dee" "$(snapshot check '"03"' 2 300 0 passed '["01","02"]')"

# A refused post changes nothing and says why.
refused="$(curl -sS -o /dev/null -w '%{http_code}' -X POST "$base/snapshot" -H "X-Learner: $ann" --data-binary '{}')"
[ "$refused" = 401 ] || fail "a post without the join code got $refused, not 401"

flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=4000)
"$browser" "${flags[@]}" --dump-dom "$page" >"$work/dom.html" 2>"$work/chromium.log" \
  || { cat "$work/chromium.log"; fail "chromium could not load the page"; }

rows="$(grep -o '<tr class="[a-z]*"><td class="name">' "$work/dom.html" | wc -l | tr -d ' ')"
sticky="$(grep -o '<tr class="sticky"><td class="name">[^<]*' "$work/dom.html" | sed 's/.*"name">//' | sort | tr '\n' ' ')"
[ "$rows" = 4 ] || { cat "$work/dom.html"; fail "expected 4 learner rows, found $rows"; }
[ "$sticky" = "ann bo " ] || fail "expected ann (stuck) and bo (hint) in red, found: $sticky"
grep -q 'stuck 15+ min' "$work/dom.html" || fail "the stuck learner's row does not say why"
grep -q '&lt;img src=x onerror=1&gt;' "$work/dom.html" || fail "the nickname with markup is not shown as text"
if grep -q '<img' "$work/dom.html"; then fail "the nickname with markup became an element"; fi
grep -q '04 Task 3: 2 learners (1 stuck)' "$work/dom.html" || fail "the summary of learners per task is missing"
grep -q '<li>&lt;img src=x onerror=1&gt;</li>' "$work/dom.html" || fail "the doctor list misses the blocked learner"

mkdir -p "$(dirname "$screenshot")"
"$browser" "${flags[@]}" --window-size=1280,560 --screenshot="$screenshot" "$page" >/dev/null 2>>"$work/chromium.log" \
  || fail "no screenshot"
[ -s "$screenshot" ] || fail "the screenshot is empty"

echo "classroom-browser: ok: 4 rows; in red: ${sticky% }; markup shown as text; per-task summary; screenshot $screenshot"
