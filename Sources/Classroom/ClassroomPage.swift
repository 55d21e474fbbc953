/// The instructor's page: plain HTML and one small script, no packages.
///
/// The script reads `/room.json` every second and draws it with `textContent`
/// only, so a nickname such as `<b>Ann</b>` shows as those characters and never
/// as markup; the page's Content-Security-Policy allows no other script. The
/// summary comes first, so it stays above the fold however many rows follow;
/// the rows come in the order `RoomView` gives: who needs help first.
enum ClassroomPage {
  static let html = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Classroom</title>
    <style>
      body { font: 14px/1.35 -apple-system, system-ui, sans-serif; margin: .7rem 1rem; color: #222; }
      header { display: flex; align-items: baseline; gap: 1rem; flex-wrap: wrap; }
      h1 { font-size: 1.2rem; margin: 0; }
      #status { color: #555; }
      #status.lost { color: #b00; font-weight: bold; }
      #legend { color: #444; font-size: .85rem; margin: .25rem 0 .5rem; }
      .badge { display: inline-block; white-space: nowrap; font-size: .75rem; font-weight: 700; padding: 0 .35rem;
        border-radius: 3px; margin-left: .35rem; letter-spacing: .02em; }
      .badge.stuck { background: #b71c1c; color: #fff; }
      .badge.hint { background: #1d4ed8; color: #fff; }
      .badge.worrying { background: #f59e0b; color: #222; }
      .badge.blocked, .badge.quiet { background: #e5e5e5; color: #333; font-weight: 600; }
      #summary { display: flex; gap: 1.5rem; margin-bottom: .6rem; }
      #summary section { border: 1px solid #ddd; border-radius: 4px; padding: .3rem .6rem; }
      #summary section.tasks { flex: 1; }
      h2 { font-size: .9rem; margin: 0 0 .2rem; }
      ul { margin: 0; padding-left: 1.1rem; font-size: .85rem; }
      #tasks { columns: 2; column-gap: 2rem; }
      #tasks li { break-inside: avoid; }
      .empty { color: #888; }
      table { border-collapse: collapse; font-size: 13px; width: 100%; }
      th, td { border: 1px solid #ddd; padding: .15rem .4rem; text-align: left; vertical-align: top; }
      th { background: #f4f4f4; font-weight: 600; font-size: .85rem; }
      th small { display: block; font-weight: normal; color: #777; font-size: .75rem; }
      td.name { font-weight: 600; max-width: 13rem; overflow-wrap: anywhere; }
      td.solved { background: #e6f6e6; color: #256029; white-space: nowrap; }
      td.notStarted { color: #999; white-space: nowrap; }
      td.current { background: #fff8d6; font-weight: 600; min-width: 8rem; max-width: 13rem; }
      td.current b { white-space: nowrap; }
      td.current small { display: block; font-weight: normal; font-size: .75rem; color: #444; }
      td.current.worrying { background: #fde2a8; }
      td.current.stuck { background: #fcd4d4; outline: 2px solid #b71c1c; outline-offset: -2px; }
      tr.stuck td.name { background: #b71c1c; color: #fff; }
      tr.hint td.name { background: #dbe6ff; color: #0b2e86; }
      button.forget { display: none; margin-left: .4rem; font-size: .7rem; padding: 0 .3rem; cursor: pointer; }
      tr:hover button.forget { display: inline; }
    </style>
    </head>
    <body>
    <header><h1>Classroom</h1><div id="status">Loading…</div></header>
    <div id="legend"></div>
    <div id="summary">
    <section class="tasks"><h2>Learners on each task</h2><ul id="tasks"></ul></section>
    <section><h2>Not passed <code>course doctor</code></h2><ul id="doctor"></ul></section>
    </div>
    <table id="room"><thead><tr id="headings"><th>Learner</th></tr></thead><tbody id="rows"></tbody></table>
    <script src="/classroom.js"></script>
    </body>
    </html>

    """

  static let script = """
    "use strict";
    const text = (tag, words, className) => {
      const element = document.createElement(tag);
      element.textContent = words;
      if (className) element.className = className;
      return element;
    };
    const fill = (list, items, empty) => {
      list.replaceChildren(...(items.length ? items.map((item) => text("li", item)) : [text("li", empty, "empty")]));
    };
    const plural = (count, word) => count + " " + word + (count === 1 ? "" : "s");
    async function forget(name) {
      if (!confirm("Remove " + name + " from the room? Their laptop can join again with course join.")) return;
      await fetch("/forget", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: name }) });
      refresh();
    }
    function cell(row, stage) {
      if (stage.state === "solved") return text("td", "✔ solved", "solved");
      if (stage.state !== "current") return text("td", "not started", "notStarted");
      if (!stage.task) return text("td", "your tests" + (row.faults ? " · faults " + row.faults : ""), "current");
      let words = "Task " + stage.task + " · " + stage.minutes + " min";
      let className = "current";
      if (row.stuck) { words += " · stuck"; className += " stuck"; }
      else if (stage.worrying) { words += " · worrying"; className += " worrying"; }
      const element = document.createElement("td");
      element.className = className;
      element.appendChild(text("b", words));
      const about = [];
      if (stage.title) about.push(stage.title);
      if (stage.tasks) about.push(stage.done + "/" + stage.tasks + " done");
      if (about.length) element.appendChild(text("small", about.join(" · ")));
      return element;
    }
    function draw(room) {
      const headings = document.getElementById("headings");
      if (headings.children.length !== room.stages.length + 1) {
        headings.replaceChildren(text("th", "Learner"));
        for (const stage of room.stages) {
          const heading = text("th", stage.number);
          heading.appendChild(text("small", stage.name));
          headings.appendChild(heading);
        }
      }
      const rows = room.rows.map((row) => {
        const line = document.createElement("tr");
        line.className = row.need;
        const name = text("td", row.name, "name");
        if (row.stuck) name.appendChild(text("span", "STUCK " + row.minutesOnTask + " min", "badge stuck"));
        if (row.tookHint) {
          const ago = row.hintMinutesAgo ? row.hintMinutesAgo + " min ago" : "just now";
          name.appendChild(text("span", "HINT " + ago, "badge hint"));
        }
        if (!row.stuck && row.need === "worrying") name.appendChild(text("span", "worrying", "badge worrying"));
        if (row.doctor === "blocked") name.appendChild(text("span", "doctor blocked", "badge blocked"));
        if (row.need === "quiet") name.appendChild(text("span", "quiet " + Math.floor(row.quietSeconds / 60) + " min", "badge quiet"));
        const button = text("button", "forget", "forget");
        button.title = "Remove " + row.name + " from the room";
        button.addEventListener("click", () => forget(row.name));
        name.appendChild(button);
        line.appendChild(name);
        row.cells.forEach((stage) => line.appendChild(cell(row, stage)));
        return line;
      });
      document.getElementById("rows").replaceChildren(...rows);
      fill(document.getElementById("tasks"),
        room.onTask.map((t) => {
          const trouble = [];
          if (t.stuck) trouble.push(t.stuck + " stuck");
          if (t.worrying) trouble.push(t.worrying + " worrying");
          return t.stage + " Task " + t.task + (t.title ? " · " + t.title : "") + ": " + plural(t.learners, "learner") +
            (trouble.length ? " (" + trouble.join(", ") + ")" : "") +
            (t.worryingMinutes ? " · worrying after " + t.worryingMinutes + " min" : "") +
            ", stuck after " + t.stuckMinutes + " min";
        }),
        "nobody on a failing task");
      fill(document.getElementById("doctor"), room.doctorPending, "everyone passed");
      const stuckRule = room.stuckMinutes ? room.stuckMinutes + " min (--stuck)" :
        "twice the course's time for the task";
      document.getElementById("legend").textContent =
        "First the learners who need you: STUCK (red) on one failing task past " + stuckRule +
        ", then HINT (blue) a hint in the last " + room.hintMinutes + " min, then worrying (amber) past the task's" +
        " usual time, then doctor blocked, then quiet 10+ min; everyone else by name.";
      const status = document.getElementById("status");
      status.className = "";
      status.textContent = plural(room.rows.length, "learner") + " · updated " + new Date().toLocaleTimeString();
      // Where the summary ends, for a check that it stays above the fold (.ci/classroom-browser.sh).
      document.documentElement.dataset.summaryBottom =
        Math.round(document.getElementById("summary").getBoundingClientRect().bottom);
    }
    async function refresh() {
      try {
        const answer = await fetch("/room.json", { cache: "no-store", credentials: "same-origin" });
        if (!answer.ok) throw new Error("status " + answer.status);
        draw(await answer.json());
      } catch (error) {
        const status = document.getElementById("status");
        status.className = "lost";
        status.textContent = "Cannot reach the classroom (" + error.message + "); trying again every second.";
      }
    }
    refresh();
    setInterval(refresh, 1000);

    """

  /// What the page says without the right token.
  static let locked = """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><title>Classroom</title></head>
    <body><h1>Classroom</h1>
    <p>This page needs the instructor token: open the address <code>course classroom</code> printed,
    which ends in <code>?token=…</code>. The first visit keeps the token in this browser and takes it
    off the address bar.</p></body></html>

    """
}
