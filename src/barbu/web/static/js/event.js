// A duplicate event's page (templates/event.html), from GET /api/events/<id>: its details, registration, "go to
// your table", the standings (by matchpoints, then by points) and each board's traveller once every table has
// played it, and the director's form.  The page is read again as soon as the server says it changed (the
// WebSocket /ws/events/<id>, which carries nothing but "changed"); while that is down, every 15 or 30 seconds,
// and the socket is opened again.
import { el } from "./dom.js";
import { contract, lang, num, percent, strength, t, tn } from "./i18n.js";
import { computerName, placeName, rulesTitle } from "./tablewords.js";
import { postJSON } from "./net.js";
import { GameChoice, formatName, when } from "./events.js";

const $ = (id) => document.getElementById(id);
const eventId = location.pathname.split("/").filter(Boolean)[1];
let timer = null;
let last = null; // the event as last read
const POLL_RUNNING = 15000; // the slow reading while the push is down
const POLL_WAITING = 30000;

const pct = percent;

// The clock as stored ("25+180": seconds a move, seconds in reserve), in words.
function pace(text) {
  const m = /^([\d.]+)\+([\d.]+)$/.exec(text || "");
  return m ? t("{move} s a move, {bank} s in reserve", { move: num(Number(m[1])), bank: num(Number(m[2])) }) : text;
}

// `changed`: the director changed it after the reader registered (marked).
function detail(dl, term, value, changed = false) {
  const cls = changed ? "changed" : "";
  dl.append(el("dt", { class: cls, textContent: term }), el("dd", { class: cls, textContent: value,
    title: changed ? t("changed by the director since you registered") : undefined }));
}

// What the director changed, by the field's name in the API, as the page's sentence names it.
const CHANGED_WORDS = {
  name: () => t("the name"), rules: () => t("the game"), format: () => t("the format"), rounds: () => t("the rounds"),
  tables: () => t("the tables"), deals: () => t("the deals per round"), strength: () => t("the computer players"),
  clock: () => t("the pace"), start: () => t("the start"),
};

function showHead(d) {
  $("event-title").textContent = d.name;
  document.title = t("barbu — {name}", { name: d.name });
  const status = d.paused ? t("paused") : { registering: t("registration open"), running: t("being played"),
    over: t("over"), cancelled: t("cancelled") }[d.status];
  const facts = $("event-facts");
  facts.replaceChildren(el("span", { class: "tag " + (d.status === "running" ? "public" : "role"), textContent: status }),
    " ", el("span", { class: "tag", textContent: rulesTitle(d.rules) }));
  if (d.club) facts.append(" ", el("a", { href: d.club.url, class: "tag role", textContent: d.club.name }));
  if (liveWord()) facts.append(" ", el("span", { class: "tag live", id: "live-tag", textContent: liveWord() }));
  const changed = new Set((d.changed && d.changed.fields) || []);
  const dl = $("event-details");
  dl.replaceChildren();
  detail(dl, t("Game"), rulesTitle(d.rules), changed.has("rules"));
  detail(dl, t("Format"), formatName(d.format) + " · " + tn("{n} round", "{n} rounds", d.rounds),
    changed.has("format") || changed.has("rounds"));
  detail(dl, t("Start"), when(d.start), changed.has("start"));
  detail(dl, t("Tables"), d.tables ? String(d.tables) : t("open registration"), changed.has("tables"));
  if (d.deals) detail(dl, t("Deals per round"), String(d.deals), changed.has("deals"));
  detail(dl, t("Pace"), pace(d.clock), changed.has("clock"));
  detail(dl, t("Computer players"), strength(d.strength), changed.has("strength"));
  if (d.director) detail(dl, t("Director"), d.director);
  detail(dl, t("Players"), d.room ? tn("{n} of {room} places", "{n} of {room} places", d.registered, { room: d.room }) : String(d.registered));
  if (d.status === "running") detail(dl, t("Round"), t("{round} of {rounds}", { round: d.round, rounds: d.rounds }));
}

function showActions(d) {
  const open = d.status === "registering";
  $("register").hidden = !(open && d.logged_in && !d.me_registered);
  $("withdraw").hidden = !(open && d.me_registered);
  $("start").hidden = !(open && d.director_is_me);
  $("login").hidden = d.logged_in || !open;
  $("leave").hidden = !(d.status === "running" && d.me_registered && !d.me_left);
  const go = $("go-table");
  go.hidden = !d.my_table || d.me_left;
  if (d.my_table) go.href = d.my_table.url;
  showPause(d);
  let note = "";
  if (d.paused) note = pausedWords(d.paused);
  else if (d.status === "cancelled") note = t("This event was cancelled by its director: it will not be played.");
  else if (d.me_left) note = t("You left this event: the stand-in played your seat from then on, and those deals are marked.");
  else if (d.status === "running" && d.me_registered && !d.my_table) note = t("Your table for the next round is being set: it appears here when every table has finished this one.");
  else if (d.status === "running" && d.my_table) note = t("Your table is ready: table {number}, round {round} of {rounds}.",
    { number: d.my_table.number, round: d.my_table.round, rounds: d.rounds });
  else if (open && d.me_registered) note = d.start
    ? t("You are registered. The event starts {when}: keep this page open, the link to your table appears here by itself.", { when: when(d.start) })
    : t("You are registered. The director starts the event: keep this page open, the link to your table appears here by itself.");
  else if (d.status === "over") note = t("The event is over: the final ranking is below.");
  $("event-status").textContent = note;
  $("event-status").hidden = !note;
  const changed = d.changed ? d.changed.fields.map((f) => (CHANGED_WORDS[f] ? CHANGED_WORDS[f]() : f)) : [];
  $("event-changed").textContent = changed.length
    ? t("The director changed {what} after you registered ({when}): see the marked lines below.",
      { what: new Intl.ListFormat(lang, { type: "conjunction" }).format(changed), when: when(d.changed.at) })
    : "";
  $("event-changed").hidden = !changed.length;
}

// "Paused by the director since 21:40: a phone call. …", as the event's tables say it too.
function pausedWords(paused) {
  const since = when(paused.at);
  return paused.reason
    ? t("Paused by the director since {when}: {reason}. No table takes a move and the clocks stand still until the director resumes the event.", { when: since, reason: paused.reason })
    : t("Paused by the director since {when}. No table takes a move and the clocks stand still until the director resumes the event.", { when: since });
}

// Once the event runs, its director pauses it (saying why, if he likes) and resumes it.
function showPause(d) {
  const mine = d.director_is_me && d.status === "running";
  $("pause-box").hidden = !mine;
  if (!mine) return;
  $("pause").hidden = !!d.paused;
  $("pause-reason-label").hidden = !!d.paused;
  $("resume").hidden = !d.paused;
}

function setUpPause() {
  $("pause-box").addEventListener("submit", async (e) => {
    e.preventDefault();
    $("action-error").textContent = "";
    try {
      await postJSON(`/api/events/${eventId}/pause`, { reason: $("pause-reason").value.trim() || null });
      $("pause-reason").value = "";
    } catch (err) {
      $("action-error").textContent = err.message;
    }
    await load();
  });
  $("resume").addEventListener("click", async () => {
    $("action-error").textContent = "";
    try {
      await postJSON(`/api/events/${eventId}/resume`, {});
    } catch (err) {
      $("action-error").textContent = err.message;
    }
    await load();
  });
}

function removeButton(d, name) {
  if (!(d.director_is_me && d.status === "registering")) return null;
  const b = el("button", { type: "button", class: "small remove-player", textContent: t("Remove"),
    title: t("Remove {name}'s registration", { name }) });
  b.addEventListener("click", async () => {
    if (!confirm(t("Remove {name}'s registration?", { name }))) return;
    $("action-error").textContent = "";
    try {
      await postJSON(`/api/events/${eventId}/remove`, { name });
    } catch (e) {
      $("action-error").textContent = e.message;
    }
    await load();
  });
  return b;
}

// Once the event runs, the director may have a missing player's seat played by a computer from now on.
function replaceButton(d, p) {
  if (!(d.director_is_me && d.status === "running") || p.left) return null;
  const b = el("button", { type: "button", class: "small replace-player", textContent: t("Replace by a computer"),
    title: t("A computer plays {name}'s seat from now on; his results stay his, the deals played for him marked.", { name: p.name }) });
  b.addEventListener("click", async () => {
    if (!confirm(t("Have a computer play {name}'s seat for the rest of the event?", { name: p.name }))) return;
    $("action-error").textContent = "";
    try {
      await postJSON(`/api/events/${eventId}/replace`, { name: p.name });
    } catch (e) {
      $("action-error").textContent = e.message;
    }
    await load();
  });
  return b;
}

function showPlayers(d) {
  $("players-panel").hidden = !d.players.length;
  $("players").replaceChildren(...d.players.map((p) => el("li", { class: p.left ? "left" : "" },
    el("a", { href: p.profile, textContent: p.name }),
    p.left ? el("span", { class: "muted small", textContent: " " + t("(left)") }) : null,
    removeButton(d, p.name), replaceButton(d, p))));
}

// The director's form (before the start): filled from the event, and filled again when the event changes only
// while he has not touched it; only the fields he changed are sent.
const edit = { game: null, ready: null, base: null };
function localInput(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const PACES = { "60+600": "relaxed", "25+180": "normal", "10+60": "quick" };

// The form's values, as the API names them (what is compared with the event's, and sent).
function editValues() {
  const n = (id) => ($(id).value.trim() === "" ? null : Number($(id).value));
  const start = $("edit-start").value;
  return { name: $("edit-name").value, rules: edit.game.rules(), players: edit.game.players(),
    format: $("edit-format").value, rounds: n("edit-rounds") || 1, tables: n("edit-tables"), deals: n("edit-deals"),
    clock: $("edit-clock").value, strength: $("edit-strength").value,
    start: start ? new Date(start).toISOString() : null, startText: start };
}

function fillEdit(d) {
  $("edit-name").value = d.name;
  edit.game.set(d.rules);
  $("edit-format").value = d.format; // after the game: its one-match choice follows the game
  $("edit-rounds").value = String(d.rounds);
  $("edit-tables").value = d.tables ? String(d.tables) : "";
  $("edit-deals").value = d.deals && d.deals !== d.deals_default ? String(d.deals) : "";
  const clock = $("edit-clock");
  clock.querySelector("option.custom")?.remove();
  const named = PACES[d.clock];
  if (!named) clock.append(el("option", { class: "custom", value: d.clock, textContent: pace(d.clock) }));
  clock.value = named || d.clock;
  $("edit-strength").value = d.strength;
  $("edit-start").value = localInput(d.start);
  edit.base = editValues();
}

function touched() {
  if (!edit.base) return false;
  const now = editValues();
  return Object.keys(now).some((k) => now[k] !== edit.base[k]);
}

async function showDirecting(d) {
  const mine = d.director_is_me && d.status === "registering";
  $("direct-panel").hidden = !mine;
  if (!mine) return;
  if (!edit.ready) edit.ready = loadEditChoices();
  await edit.ready;
  if (!touched()) fillEdit(d);
}

async function loadEditChoices() {
  edit.game = new GameChoice({ game: "edit-game", players: "edit-players", options: "edit-options",
    format: "edit-format", rounds: "edit-rounds" });
  const options = await (await fetch("/api/options")).json();
  edit.game.fill(options.presets);
  $("edit-strength").replaceChildren(...options.strengths.map((s) => el("option", { value: s, textContent: strength(s) })));
}

function wireDirecting() {
  $("edit-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("edit-error").textContent = "";
    $("edit-done").hidden = true;
    const now = editValues();
    const body = {};
    for (const k of ["name", "format", "rounds", "tables", "deals", "clock", "strength"]) {
      if (now[k] !== edit.base[k]) body[k] = now[k];
    }
    if (now.rules !== edit.base.rules || now.players !== edit.base.players) {
      body.rules = now.rules;
      body.players = now.players;
    }
    if (now.startText !== edit.base.startText) body.start = now.start;
    if (!Object.keys(body).length) {
      $("edit-error").textContent = t("Nothing to save: change something in the form first.");
      return;
    }
    $("edit-save").disabled = true;
    try {
      const done = await postJSON(`/api/events/${eventId}/edit`, body);
      edit.base = null; // filled again from the event as saved
      $("edit-done").textContent = done.changed && done.changed.length ? t("Saved.") : t("Nothing was changed.");
      $("edit-done").hidden = false;
    } catch (e) {
      $("edit-error").textContent = e.message;
    }
    $("edit-save").disabled = false;
    await load();
  });
  $("edit-reset").addEventListener("click", () => {
    $("edit-error").textContent = "";
    $("edit-done").hidden = true;
    if (last) fillEdit(last);
  });
  $("cancel-event").addEventListener("click", async () => {
    if (!confirm(t("Cancel this event? Its players will see it cancelled, and it cannot be undone."))) return;
    $("edit-error").textContent = "";
    try {
      await postJSON(`/api/events/${eventId}/cancel`, {});
    } catch (e) {
      $("edit-error").textContent = e.message;
    }
    await load();
  });
}

function showStandings(d) {
  const shown = d.standings.length > 0;
  $("standings-panel").hidden = !shown && (d.status === "registering" || d.status === "cancelled");
  const full = d.boards_shown - (d.adjusted ? d.adjusted.length : 0); // the boards short of a table are told below
  $("standings-note").textContent = shown
    ? tn("After {n} board played at every table.", "After {n} boards played at every table.", full)
    : t("The standings appear once every table has played the first deal.");
  if (!shown) { $("standings").replaceChildren(); return; }
  if (d.standings.every((s) => s.percent === null)) {
    $("standings-note").textContent += " " + t("Nobody at another table held the same cards yet: the ranking is by points.");
  }
  if (d.adjusted && d.adjusted.length) {
    $("standings-note").textContent += " " + tn(
      "{n} board was not played at every table: its matchpoints are raised to a full board's by Neuberg's formula, so it counts as much as the others.",
      "{n} boards were not played at every table: their matchpoints are raised to a full board's by Neuberg's formula, so they count as much as the others.",
      d.adjusted.length);
  }
  const head = el("tr", {}, el("th", { class: "rank", textContent: "#" }), el("th", { class: "who", textContent: t("Player") }),
    el("th", { class: "num", textContent: t("Matchpoints") }), el("th", { class: "num", textContent: t("Points") }),
    el("th", { class: "num", textContent: t("Boards") }));
  const rows = d.standings.map((s) => el("tr", { "data-player": s.name },
    el("td", { class: "rank", textContent: s.rank }),
    el("td", { class: "who" }, el("a", { href: `/u/${s.name}`, textContent: s.name }),
      s.stand_in ? el("span", { class: "stand-in", title: t("boards played by the stand-in"),
        textContent: " " + tn("({n} by the stand-in)", "({n} by the stand-in)", s.stand_in) }) : null),
    el("td", { class: "num", textContent: pct(s.percent) }),
    el("td", { class: "num", textContent: `${num(s.points)} (${s.rank_points})` }),
    el("td", { class: "num", textContent: String(s.boards) })));
  $("standings").replaceChildren(el("table", { class: "board-table event-standings" }, el("thead", {}, head),
    el("tbody", {}, ...rows)));
}

// A traveller's seats are headed by their places at the table, from the first seat's chair (South); a computer
// player is named as the table names it ("West, good player").
function seatCell(s, seats, kind) {
  return el("td", { class: "num" + (s.stand_in ? " stand-in" : "") },
    el("span", { class: "seat-name", textContent: s.name || computerName(s.seat, 0, seats, kind) }), " ",
    el("strong", { textContent: num(s.score) }), " ",
    el("span", { class: "muted small", textContent: s.top ? `${num(s.matchpoints)}/${num(s.top)}` : "" }));
}

function showTravellers(d) {
  $("travellers-panel").hidden = !d.travellers.length;
  $("travellers").replaceChildren(...d.travellers.map((b) => {
    const seats = b.tables[0].seats.length;
    const head = el("tr", {}, el("th", { textContent: t("Table") }), el("th", { textContent: t("Contract") }),
      ...Array.from({ length: seats }, (_, i) => el("th", { class: "num", textContent: i === 0 ? t("South") : placeName(i, 0, seats) || t("North") })),
      el("th", { textContent: "" }));
    const rows = b.tables.map((r) => el("tr", {},
      el("td", { textContent: String(r.table) }),
      el("td", { textContent: (r.contract ? contract(r.contract) : "–") + (r.doubles ? " · " + tn("{n} double", "{n} doubles", r.doubles) : "") }),
      ...r.seats.map((s) => seatCell(s, seats, d.strength)),
      el("td", {}, r.replay ? el("a", { href: r.replay, textContent: t("replay and analysis") }) : null)));
    return el("details", { class: "traveller", open: d.travellers.length <= 4, "data-board": b.board },
      el("summary", { textContent: t("Round {round}, deal {deal}", { round: b.round, deal: b.deal }) +
        (b.adjusted ? " · " + t("not played at every table: Neuberg's formula") : "") }),
      el("div", { class: "scroll" }, el("table", { class: "board-table" }, el("thead", {}, head), el("tbody", {}, ...rows))));
  }));
}

// One reading at a time: a "changed" that comes during a reading makes one more after it.
let loading = null;
let again = false;
async function load() {
  if (loading) {
    again = true;
    return loading;
  }
  loading = (async () => {
    do {
      again = false;
      await read();
    } while (again);
  })();
  try {
    await loading;
  } finally {
    loading = null;
  }
}

async function read() {
  let d;
  try {
    const r = await fetch(`/api/events/${eventId}`, { cache: "no-store" });
    d = await r.json();
    if (!r.ok) throw new Error(d.error || t("request failed ({status})", { status: r.status }));
  } catch (e) {
    $("event-error").textContent = e.message || t("The server cannot be reached; try again in a moment.");
    schedule(10000);
    return;
  }
  last = d;
  $("event-error").textContent = "";
  $("event-loading").hidden = true;
  $("head-panel").hidden = false;
  showHead(d);
  showActions(d);
  showPlayers(d);
  showStandings(d);
  showTravellers(d);
  $("key-panel").hidden = !d.key;
  $("event-key").textContent = d.key || "";
  $("event").dataset.status = d.status;
  await showDirecting(d);
  $("event").dataset.loaded = "1";
  keepUp(d);
}

function schedule(ms) {
  clearTimeout(timer);
  timer = setTimeout(load, ms);
}

// The push: the server says "changed" and the page reads itself again.  While it is down, a slow reading, and
// the socket opened again (after 1, 2, 4… up to 30 seconds).
const push = { ws: null, up: false, retry: 1000, timer: null, over: false };

function finished(d) {
  return d.status === "over" || d.status === "cancelled";
}

function keepUp(d) {
  clearTimeout(timer);
  if (finished(d)) {
    push.over = true;
    clearTimeout(push.timer);
    if (push.ws) push.ws.close();
    showLive();
    return;
  }
  if (!push.ws && !push.timer) connect();
  if (!push.up) schedule(d.status === "running" ? POLL_RUNNING : POLL_WAITING);
  showLive();
}

function connect() {
  push.timer = null;
  if (push.over) return;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  let ws;
  try {
    ws = new WebSocket(`${proto}//${location.host}/ws/events/${encodeURIComponent(eventId)}`);
  } catch {
    push.timer = setTimeout(connect, push.retry);
    return;
  }
  push.ws = ws;
  ws.onmessage = (m) => {
    let msg;
    try {
      msg = JSON.parse(m.data);
    } catch {
      return;
    }
    if (msg.type === "watching") {
      push.up = true;
      push.retry = 1000;
      clearTimeout(timer);
      load(); // what changed while it was down
    } else if (msg.type === "changed") {
      load();
    }
  };
  ws.onclose = () => {
    const wasUp = push.up;
    push.ws = null;
    push.up = false;
    showLive();
    if (push.over) return;
    push.timer = setTimeout(connect, push.retry);
    push.retry = Math.min(push.retry * 2, 30000);
    if (wasUp && last) schedule(last.status === "running" ? POLL_RUNNING : POLL_WAITING);
  };
}

// What the page says of its own freshness, beside the event's status.
function liveWord() {
  if (!last || finished(last)) return "";
  return push.up ? t("live") : t("reconnecting…");
}

function showLive() {
  const tag = $("live-tag");
  const word = liveWord();
  if (tag) {
    tag.textContent = word;
    tag.hidden = !word;
    tag.classList.toggle("down", !push.up);
    tag.title = push.up ? t("This page updates itself as soon as a deal is scored.")
      : t("Until it is connected again, the page reads the event every 15 to 30 seconds.");
  }
}

function act(button, path) {
  $(button).addEventListener("click", async () => {
    $("action-error").textContent = "";
    $(button).disabled = true;
    try {
      await postJSON(`/api/events/${eventId}/${path}`, {});
    } catch (e) {
      $("action-error").textContent = e.message;
    }
    $(button).disabled = false;
    await load();
  });
}

act("register", "register");
act("withdraw", "leave");
act("leave", "leave");
act("start", "start");
wireDirecting();
setUpPause();
load();
