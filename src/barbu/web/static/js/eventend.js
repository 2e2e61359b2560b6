// An event's table at its end (issue 43): where to go next.  The table plays only its round's deals; once they
// are played the end box says so and links back to the event: its standings while the other tables finish,
// the next table when the next round is made, the player's place when the event is over.  It reads
// GET /api/events/table/<id>, again whenever the event's page would be told of a change (/ws/events/<id>),
// until the event is over.
import { t } from "./i18n.js";
import { when } from "./events.js";

const $ = (id) => document.getElementById(id);
let end = null; // the event's answer, as last read
let asked = false;
let listening = false;
let socket = null;
let redraw = () => {};

async function read(tableId) {
  try {
    const r = await fetch(`/api/events/table/${encodeURIComponent(tableId)}`, { credentials: "same-origin" });
    if (!r.ok) return;
    end = await r.json();
  } catch {
    return; // offline a moment: the next notice reads it again
  }
  redraw();
  if (end.event.status === "over" && socket) socket.close();
}

// The event's notices of change (the same as its page's): read again on each.
function listen(tableId) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  try {
    socket = new WebSocket(`${proto}//${location.host}/ws/events/${encodeURIComponent(end.event.id)}`);
  } catch {
    return;
  }
  socket.onmessage = (m) => {
    if (String(m.data).includes('"changed"')) read(tableId);
  };
  socket.onclose = () => {
    socket = null;
  };
}

function draw() {
  const ev = end.event;
  const over = ev.status === "over";
  $("match-end-title").textContent = over ? t("The event is over") : t("Your round is over");
  const text = $("event-end-text");
  const link = $("event-end-link");
  const next = $("event-end-next");
  next.hidden = !end.next_table;
  if (end.next_table) next.href = end.next_table.url;
  link.href = ev.url;
  link.textContent = over ? t("See the final standings") : t("See the event's standings");
  if (over) {
    text.textContent = end.place ? t("Your place in the final ranking: {rank}.", { rank: end.place })
      : t("The event is over: the final ranking is on its page.");
  } else if (end.next_table) {
    text.textContent = t("Round {round} of {rounds} is ready: your table is waiting.", { round: ev.round, rounds: ev.rounds });
  } else if (end.round >= ev.rounds) {
    text.textContent = t("Your deals are played. The final standings come when every table has finished.");
  } else {
    text.textContent = t("Your deals of round {round} are played. Round {next} starts by itself when every table has finished this one: its table appears here.",
      { round: end.round, next: end.round + 1 });
  }
  $("event-end").hidden = false;
}

// An event's table (its facts say how many deals it plays): its event read once, for the round's words, and
// `render` called again when it is read.
export function followEvent(info, tableId, render) {
  if (!info.deal_limit) return false;
  redraw = render;
  if (!asked) {
    asked = true;
    read(tableId);
  }
  return true;
}

// The table's end box, for an event's table: what comes next, read again on the event's every change until
// the event is over.
export function showEventEnd(tableId) {
  if (!listening && end && end.event.status !== "over") {
    listening = true;
    read(tableId); // what changed since the table opened
    listen(tableId);
  }
  if (end) draw();
}

// The deal counter of an event's table: "deal 2 of 2 · round 1 of 3" once the event is known.
export function roundWords() {
  if (!end || end.event.rounds < 2) return "";
  return t("round {round} of {rounds}", { round: end.round, rounds: end.event.rounds });
}

// An event's table while its director has paused the event: said above the table, for everyone who reads it
// (the table's own facts carry the pause, pushed as it happens; moves are refused meanwhile).
export function showPaused(info) {
  const box = $("event-paused");
  if (!box) return;
  const paused = info.paused;
  box.hidden = !paused;
  // the player's decision and hand wait with the table: dimmed, neither clicked nor reached from the keyboard
  for (const id of ["turn", "decision", "hand"]) {
    const part = $(id);
    if (!part) continue;
    part.style.opacity = paused ? "0.45" : "";
    if (id !== "turn") part.inert = !!paused;
  }
  if (!paused) return;
  box.textContent = paused.reason
    ? t("Paused by the director since {when}: {reason}. The table goes on when the director resumes the event.", { when: when(paused.at), reason: paused.reason })
    : t("Paused by the director since {when}. The table goes on when the director resumes the event.", { when: when(paused.at) });
}
