#!/usr/bin/env bash
# The classroom page in a real browser, with a room of 30: starts `course
# classroom` on a free port, joins 29 learners and posts their snapshots over
# loopback with curl, and one real learner: `course join` and `course check 01`
# in this clone, whose lesson 01 as shipped fails Task 1 and skips the tests of
# later tasks. Then it loads the instructor's page in headless Chromium at
# 1280x900 and checks what it shows:
#   - the rows in the order of who needs help: stuck (longest first), then the
#     hint, then worrying, then the blocked doctor, then everyone else by name;
#   - stuck and hinted told apart by class (colour) and by words;
#   - each learner's cell and the per-task summary name the task's title, as
#     the stage doc's `### Task N:` heading gives it;
#   - the real learner's skipped tests pass nothing: "0/5 done";
#   - the summary ends above the fold (900 px);
#   - a nickname holding markup is shown as text;
#   - the token leaves the address bar (a 303 to / with an HttpOnly cookie),
#     and the bare page without it is 401;
#   - the same laptop joining again gets its row back; another is refused.
# Saves a screenshot.
#
#   .ci/classroom-browser.sh [SCREENSHOT]     (default .build/course/classroom.png)
#
# COURSE_BIN=PATH uses that `course` instead of building one. The real learner
# needs the tests built (as .ci/run has them) and lesson 01 unchanged; with
# COURSE_BROWSER_LEARNER=0, or a changed lesson, a curl learner sends the
# snapshot `course check 01` sends instead. KEEP_WORK=1 keeps the scratch folder
# (the classroom's log, the DOM, the learner's output) and prints where it is.
#
# Installs Debian's `chromium` (and curl) with apt-get when it is missing; on a
# Mac it uses Google Chrome. Run by .ci/run after the tests (COURSE_SKIP_BROWSER=1
# skips it there: Ubuntu's chromium is a snap, which containers cannot run).
set -euo pipefail
cd "$(dirname "$0")/.."

screenshot="${1:-.build/course/classroom.png}"
work="$(mktemp -d)"
classroom_pid=""
membership=".build/course/classroom.json"
cleanup() {
  if [ -n "$classroom_pid" ]; then kill "$classroom_pid" 2>/dev/null || true; fi
  # The real learner's membership is this run's, not the clone's: put back what was there.
  if [ -f "$work/membership.json" ]; then cp "$work/membership.json" "$membership"; else rm -f "$membership"; fi
  if [ -n "${KEEP_WORK:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
if [ -f "$membership" ]; then cp "$membership" "$work/membership.json"; fi
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

if [ -n "${COURSE_BIN:-}" ]; then
  bin="$COURSE_BIN"
else
  swift build --product course >/dev/null
  bin="$(swift build --show-bin-path)/course"
fi

# The classroom, on a free port, with a room file of its own.
"$bin" classroom --port 0 --room "$work/room.sqlite" >"$work/classroom.log" 2>&1 &
classroom_pid=$!
for _ in $(seq 1 100); do
  grep -q "Join code:" "$work/classroom.log" 2>/dev/null && break
  sleep 0.1
done
grep -q "Join code:" "$work/classroom.log" || { cat "$work/classroom.log"; fail "the classroom did not start"; }
page="$(grep -o 'http://127.0.0.1:[0-9]*/?token=[0-9a-f]*' "$work/classroom.log" | head -1)"
code="$(awk '/Join code:/ { print $3 }' "$work/classroom.log")"
base="${page%%/?token=*}"
token="${page##*token=}"
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
# learner NAME EVENT STAGE TASK SECONDS HINTS DOCTOR SOLVED PASSING
learner() {
  local key
  key="$(join "$1")"
  [ -n "$key" ] || fail "$1 could not join"
  local failing="[$4]"
  if [ "$4" = null ]; then failing="[]"; fi
  post "$key" "$(printf '{"event":"%s","stage":%s,"task":%s,"secondsOnTask":%s,"passing":%s,"failing":%s,"solved":%s,"hints":%s,"doctor":"%s"}' \
    "$2" "$3" "$4" "$5" "$9" "$failing" "$8" "$6" "$7")"
}

# Who needs help, in the order the page must show them (the course's figures: stage 04
# has 7 tasks in 105 min, so stuck past 30 min; stage 02 has 8 in 100, worrying past 13).
learner ann check '"04"' 3 2700 0 passed '["01","02","03"]' '[1,2]'      # 45 min: stuck
learner kai check '"04"' 3 1920 1 passed '["01","02","03"]' '[1,2]'      # 32 min: stuck
learner bo hint '"04"' 3 120 1 warnings '["01","02","03"]' '[1,2]'       # a hint now
learner lena check '"02"' 5 1200 0 passed '["01"]' '[1,2,3,4]'           # 20 min: worrying
learner '<img src=x onerror=1>' watch '"02"' 5 60 0 blocked '["01"]' '[1,2,3,4]'
# Everyone else, on their way.
i=0
for name in Aiko Ben Carla Dmitri Eve Farid Gus Hana Ivan Jo Kemal Lucia Mateo Nadia Omar Priya Quinn Rosa \
  Sam Tariq Uma Vic Wen Yara; do
  case $((i % 6)) in
  0) learner "$name" check '"01"' 2 180 0 passed '[]' '[1]' ;;
  1) learner "$name" check '"02"' 3 300 0 passed '["01"]' '[1,2]' ;;
  2) learner "$name" check '"03"' 4 240 0 warnings '["01","02"]' '[1,2,3]' ;;
  3) learner "$name" status '"05"' 1 60 0 passed '["01","02","03","04"]' '[]' ;;
  4) learner "$name" check '"04"' 2 420 0 unknown '["01","02","03"]' '[1]' ;;
  5) learner "$name" check '"03"' null 0 0 passed '["01","02"]' '[1,2,3,4,5,6,7,8,9]' ;;
  esac
  i=$((i + 1))
done

# The 30th learner is real: this clone's `course`, on lesson 01 as shipped, where
# Task 1 fails and the tests of later tasks are skipped. A skipped test passes nothing.
real_learner=0
if [ "${COURSE_BROWSER_LEARNER:-1}" != 0 ] && git diff --quiet -- Lessons/01-ViewCallsURLSession 2>/dev/null; then
  real_learner=1
  export XDG_CONFIG_HOME="$work/laptop" # this laptop's machine key, kept for this run only
  "$bin" join "$base" "$code" --name learner01 >"$work/join.log" 2>&1 || { cat "$work/join.log"; fail "course join failed"; }
  "$bin" check 01 >"$work/check.log" 2>&1 || true
  grep -q 'Task 1' "$work/check.log" || { tail -20 "$work/check.log"; fail "course check 01 did not name Task 1"; }
  # The same laptop joins again from this clone: it gets its row back.
  "$bin" join "$base" "$code" --name learner01 >"$work/rejoin.log" 2>&1 || { cat "$work/rejoin.log"; fail "a rejoin failed"; }
  grep -q 'as learner01 again' "$work/rejoin.log" || { cat "$work/rejoin.log"; fail "a rejoin did not take the row back"; }
  # Another laptop under that name is refused, and says why.
  if XDG_CONFIG_HOME="$work/other-laptop" "$bin" join "$base" "$code" --name learner01 >"$work/other.log" 2>&1; then
    fail "another laptop joined under a taken name"
  fi
  grep -q 'from another laptop' "$work/other.log" || { cat "$work/other.log"; fail "the refusal does not say why"; }
  grep -q 'POST /join 409 learner01: name taken by another machine' "$work/classroom.log" \
    || { cat "$work/classroom.log"; fail "the classroom's log does not say who was refused and why"; }
else
  echo "(no real learner: COURSE_BROWSER_LEARNER=0 or Lessons/01 changed; a curl learner sends what course check 01 sends)"
  learner learner01 check '"01"' 1 0 0 unknown '[]' '[]'
fi

# A refused post changes nothing and says why.
refused="$(curl -sS -o /dev/null -w '%{http_code}' -X POST "$base/snapshot" -H "X-Learner: x" --data-binary '{}')"
[ "$refused" = 401 ] || fail "a post without the join code got $refused, not 401"

# The token leaves the address bar: the first visit is sent on to / with an HttpOnly cookie.
curl -sS -o /dev/null -D - "$page" | tr -d '\r' >"$work/first.head"
grep -qi '^HTTP/1.1 303' "$work/first.head" || { cat "$work/first.head"; fail "the first visit is not a 303"; }
grep -qi '^location: /$' "$work/first.head" || { cat "$work/first.head"; fail "the first visit does not go to /"; }
grep -qi "^set-cookie: classroom_token=$token; Path=/; HttpOnly; SameSite=Strict" "$work/first.head" \
  || { cat "$work/first.head"; fail "the token is not moved into an HttpOnly cookie"; }
bare="$(curl -sS -o /dev/null -w '%{http_code}' "$base/")"
[ "$bare" = 401 ] || fail "the page without token or cookie got $bare, not 401"
if grep -E '^(GET|POST|HEAD|-) ' "$work/classroom.log" | grep -q "$token"; then
  fail "the token is in a line of the classroom's log (only the banner may show it)"
fi

flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=4000 --window-size=1280,900)
"$browser" "${flags[@]}" --dump-dom "$page" >"$work/dom.html" 2>"$work/chromium.log" \
  || { cat "$work/chromium.log"; fail "chromium could not load the page"; }

# The order: who needs help first, then everyone else by name.
grep -o '<td class="name">[^<]*' "$work/dom.html" | sed 's/.*"name">//' >"$work/order.txt"
rows="$(wc -l <"$work/order.txt" | tr -d ' ')"
[ "$rows" = 30 ] || { cat "$work/dom.html"; fail "expected 30 learner rows, found $rows"; }
{
  printf '%s\n' ann kai bo lena '&lt;img src=x onerror=1&gt;'
  printf '%s\n' Aiko Ben Carla Dmitri Eve Farid Gus Hana Ivan Jo Kemal Lucia Mateo Nadia Omar Priya Quinn Rosa \
    Sam Tariq Uma Vic Wen Yara learner01 | LC_ALL=C sort -f
} >"$work/expected.txt"
diff "$work/expected.txt" "$work/order.txt" >/dev/null \
  || { diff "$work/expected.txt" "$work/order.txt" || true; fail "the rows are not in the order of who needs help"; }

# Stuck and hinted: a class (its colour) and words each, not the same.
for row in 'stuck:ann:STUCK 45 min' 'stuck:kai:STUCK 32 min' 'hint:bo:HINT just now' 'worrying:lena:worrying' \
  'blocked:&lt;img src=x onerror=1&gt;:doctor blocked'; do
  class="${row%%:*}"
  rest="${row#*:}"
  name="${rest%%:*}"
  words="${rest#*:}"
  grep -q "<tr class=\"$class\"><td class=\"name\">$name<span class=\"badge $class\">$words</span>" "$work/dom.html" \
    || fail "$name's row is not marked $class with the words \"$words\""
done
if grep -q '▲' "$work/dom.html"; then fail "a stray ▲ is back"; fi

# Titles, from the stage docs' task headings.
title() { sed -n "s/^### Task $2: //p" "$(ls Docs/"$1"-*.md | grep -v Designs | head -1)"; }
t043="$(title 04 3)"
t025="$(title 02 5)"
t011="$(title 01 1)"
[ -n "$t043" ] && [ -n "$t025" ] && [ -n "$t011" ] || fail "no task titles in the stage docs"
grep -q "<td class=\"current stuck\"><b>Task 3 · 45 min · stuck</b><small>$t043 · 2/7 done</small></td>" "$work/dom.html" \
  || fail "ann's cell does not name Task 3 of stage 04, \"$t043\""
grep -q "<li>04 Task 3 · $t043: 3 learners (2 stuck) · worrying after 15 min, stuck after 30 min</li>" "$work/dom.html" \
  || fail "the per-task summary does not name Task 3 of stage 04 with its figures"
grep -q "<li>02 Task 5 · $t025: 2 learners (1 worrying)" "$work/dom.html" \
  || fail "the per-task summary does not name Task 5 of stage 02"

# Skipped is not passing: the real learner's Task 1 fails and nothing else passes.
grep -q "<td class=\"current\"><b>Task 1 · [0-9]* min</b><small>$t011 · 0/5 done</small></td>" "$work/dom.html" \
  || { grep -o '<tr class="[a-z]*"><td class="name">learner01.*</tr>' "$work/dom.html" | head -1;
       fail "learner01's skipped tests count as passing (expected 0/5 done on Task 1)"; }

# The summary ends above the fold at 1280x900.
bottom="$(sed -n 's/.*data-summary-bottom="\([0-9]*\)".*/\1/p' "$work/dom.html" | head -1)"
[ -n "$bottom" ] && [ "$bottom" -le 900 ] || fail "the summary ends at ${bottom:-?} px, below the fold of 900"

grep -q '&lt;img src=x onerror=1&gt;' "$work/dom.html" || fail "the nickname with markup is not shown as text"
if grep -q '<img' "$work/dom.html"; then fail "the nickname with markup became an element"; fi
grep -q '<li>&lt;img src=x onerror=1&gt;</li>' "$work/dom.html" || fail "the doctor list misses the blocked learner"

mkdir -p "$(dirname "$screenshot")"
"$browser" "${flags[@]}" --screenshot="$screenshot" "$page" >/dev/null 2>>"$work/chromium.log" \
  || fail "no screenshot"
[ -s "$screenshot" ] || fail "the screenshot is empty"

learner_note="a curl learner"
if [ "$real_learner" = 1 ]; then learner_note="a real learner (join, check 01, rejoin, another laptop refused)"; fi
echo "classroom-browser: ok: 30 rows in the order of who needs help; stuck and hinted apart; titles in cells and" \
  "summary; skipped is not passing ($learner_note); summary ends at $bottom px; token in a cookie;" \
  "markup shown as text; screenshot $screenshot"
