/// The instructor's page: plain HTML and one small script, no packages.
///
/// The script reads `/room.json` every second and draws the table with
/// `textContent` only, so a nickname such as `<b>Ann</b>` shows as those
/// characters and never as markup; the page's Content-Security-Policy allows
/// no other script.
enum ClassroomPage {
  static let html = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Classroom</title>
    <style>
      body { font: 15px/1.4 -apple-system, system-ui, sans-serif; margin: 1.5rem; color: #222; }
      h1 { font-size: 1.3rem; margin: 0 0 .3rem; }
      #status { color: #666; margin-bottom: 1rem; }
      #status.lost { color: #b00; font-weight: bold; }
      table { border-collapse: collapse; margin-bottom: 1.5rem; }
      th, td { border: 1px solid #ddd; padding: .3rem .6rem; text-align: left; vertical-align: top; }
      th { background: #f4f4f4; font-weight: 600; }
      th small { display: block; font-weight: normal; color: #777; }
      td.solved { background: #e6f6e6; color: #256029; }
      td.current { background: #fff8d6; font-weight: 600; }
      td.notStarted { color: #aaa; }
      tr.sticky td { background: #ff5a5a; color: #fff; border-color: #d33; }
      tr.sticky td.solved { background: #ff8080; }
      tr.sticky td.name::after { content: " ▲"; }
      td.name { font-weight: 600; white-space: pre; }
      .why { font-size: .8rem; font-weight: normal; display: block; }
      section { display: inline-block; vertical-align: top; margin-right: 3rem; }
      h2 { font-size: 1rem; margin: 0 0 .4rem; }
      ul { margin: 0; padding-left: 1.2rem; }
      .empty { color: #888; }
    </style>
    </head>
    <body>
    <h1>Classroom</h1>
    <div id="status">Loading…</div>
    <table id="room"><thead><tr id="headings"><th>Learner</th></tr></thead><tbody id="rows"></tbody></table>
    <section><h2>Learners on each task</h2><ul id="tasks"></ul></section>
    <section><h2>Not passed <code>course doctor</code></h2><ul id="doctor"></ul></section>
    <script src="/classroom.js"></script>
    </body>
    </html>

    """

  static let script = """
    "use strict";
    const token = new URLSearchParams(location.search).get("token") || "";
    const text = (tag, words, className) => {
      const element = document.createElement(tag);
      element.textContent = words;
      if (className) element.className = className;
      return element;
    };
    const fill = (list, items, empty) => {
      list.replaceChildren(...(items.length ? items.map((item) => text("li", item)) : [text("li", empty, "empty")]));
    };
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
        line.className = row.stuck || row.tookHint ? "sticky" : "";
        const name = text("td", row.name, "name");
        const why = [];
        if (row.stuck) why.push("stuck " + room.stuckMinutes + "+ min");
        if (row.tookHint) why.push("took a hint");
        if (row.doctor === "blocked") why.push("doctor: blocked");
        if (row.quietSeconds > 600) why.push("quiet " + Math.floor(row.quietSeconds / 60) + " min");
        if (why.length) name.appendChild(text("span", why.join(" · "), "why"));
        line.appendChild(name);
        for (const cell of row.cells) {
          let words = "not started";
          if (cell.state === "solved") words = "✔ solved";
          if (cell.state === "current") {
            words = cell.task ? "Task " + cell.task + " · " + cell.minutes + " min" : "your tests";
          }
          line.appendChild(text("td", words, cell.state));
        }
        return line;
      });
      document.getElementById("rows").replaceChildren(...rows);
      fill(document.getElementById("tasks"),
        room.onTask.map((t) => t.stage + " Task " + t.task + ": " + t.learners +
          (t.learners === 1 ? " learner" : " learners") + (t.stuck ? " (" + t.stuck + " stuck)" : "")),
        "nobody on a failing task");
      fill(document.getElementById("doctor"), room.doctorPending, "everyone passed");
      const status = document.getElementById("status");
      status.className = "";
      status.textContent = room.rows.length + (room.rows.length === 1 ? " learner" : " learners") +
        " · red: stuck " + room.stuckMinutes + "+ min on one task, or a hint in the last " + room.hintMinutes +
        " min · updated " + new Date().toLocaleTimeString();
    }
    async function refresh() {
      try {
        const answer = await fetch("/room.json?token=" + encodeURIComponent(token), { cache: "no-store" });
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
    which ends in <code>?token=…</code>.</p></body></html>

    """
}
