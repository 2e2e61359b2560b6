// A duplicate event's page (templates/event.html), from GET /api/events/<id>, read again every few seconds while
// the event is played: its details, registration, "go to your table", the standings (by matchpoints, then by
// points) and each board's traveller once every table has played it.
import { el } from "./dom.js";
import { contract, num, percent, strength, t, tn } from "./i18n.js";
import { rulesTitle } from "./tablewords.js";
import { postJSON } from "./net.js";
import { formatName, when } from "./events.js";

const $ = (id) => document.getElementById(id);
const eventId = location.pathname.split("/").filter(Boolean)[1];
let timer = null;

const pct = percent;

// The clock as stored ("25+180": seconds a move, seconds in reserve), in words.
function pace(text) {
  const m = /^([\d.]+)\+([\d.]+)$/.exec(text || "");
  return m ? t("{move} s a move, {bank} s in reserve", { move: num(Number(m[1])), bank: num(Number(m[2])) }) : text;
}

function detail(dl, term, value) {
  dl.append(el("dt", { textContent: term }), el("dd", { textContent: value }));
}

function showHead(d) {
  $("event-title").textContent = d.name;
  document.title = t("barbu — {name}", { name: d.name });
  const status = { registering: t("registration open"), running: t("being played"), over: t("over"),
    cancelled: t("cancelled") }[d.status];
  const facts = $("event-facts");
  facts.replaceChildren(el("span", { class: "tag " + (d.status === "running" ? "public" : "role"), textContent: status }),
    " ", el("span", { class: "tag", textContent: rulesTitle(d.rules) }));
  if (d.club) facts.append(" ", el("a", { href: d.club.url, class: "tag role", textContent: d.club.name }));
  const dl = $("event-details");
  dl.replaceChildren();
  detail(dl, t("Format"), formatName(d.format) + " · " + tn("{n} round", "{n} rounds", d.rounds));
  detail(dl, t("Start"), when(d.start));
  detail(dl, t("Tables"), d.tables ? String(d.tables) : t("open registration"));
  if (d.deals) detail(dl, t("Deals per round"), String(d.deals));
  detail(dl, t("Pace"), pace(d.clock));
  detail(dl, t("Computer players"), strength(d.strength));
  if (d.director) detail(dl, t("Director"), d.director);
  detail(dl, t("Players"), d.room ? t("{n} of {room} places", { n: d.registered, room: d.room }) : String(d.registered));
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
  let note = "";
  if (d.status === "cancelled") note = t("This event was cancelled by its director: it will not be played.");
  else if (d.me_left) note = t("You left this event: the stand-in played your seat from then on, and those deals are marked.");
  else if (d.status === "running" && d.me_registered && !d.my_table) note = t("Your table for the next round is being set: it appears here when every table has finished this one.");
  else if (open && d.me_registered) note = t("You are registered. Come back at the start: your table will be here.");
  else if (d.status === "over") note = t("The event is over: the final ranking is below.");
  $("event-status").textContent = note;
  $("event-status").hidden = !note;
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

function showPlayers(d) {
  $("players-panel").hidden = !d.players.length;
  $("players").replaceChildren(...d.players.map((p) => el("li", { class: p.left ? "left" : "" },
    el("a", { href: p.profile, textContent: p.name }),
    p.left ? el("span", { class: "muted small", textContent: " " + t("(left)") }) : null,
    removeButton(d, p.name))));
}

// The director's form (before the start): filled once from the event, then left to him.
let directFilled = false;
function localInput(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function showDirecting(d) {
  const mine = d.director_is_me && d.status === "registering";
  $("direct-panel").hidden = !mine;
  if (!mine || directFilled) return;
  directFilled = true;
  $("edit-name").value = d.name;
  $("edit-start").value = localInput(d.start);
}

function wireDirecting() {
  $("edit-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("edit-error").textContent = "";
    $("edit-done").hidden = true;
    const start = $("edit-start").value;
    const body = { name: $("edit-name").value, start: start ? new Date(start).toISOString() : null };
    if ($("edit-clock").value) body.clock = $("edit-clock").value;
    $("edit-save").disabled = true;
    try {
      await postJSON(`/api/events/${eventId}/edit`, body);
      $("edit-done").textContent = t("Saved.");
      $("edit-done").hidden = false;
    } catch (e) {
      $("edit-error").textContent = e.message;
    }
    $("edit-save").disabled = false;
    await load();
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
  $("standings-note").textContent = shown
    ? tn("After {n} board played at every table.", "After {n} boards played at every table.", d.boards_shown)
    : t("The standings appear once every table has played the first deal.");
  if (!shown) { $("standings").replaceChildren(); return; }
  if (d.standings.every((s) => s.percent === null)) {
    $("standings-note").textContent += " " + t("Nobody at another table held the same cards yet: the ranking is by points.");
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

function seatCell(s) {
  return el("td", { class: "num" + (s.stand_in ? " stand-in" : "") },
    el("span", { class: "seat-name", textContent: s.name || t("computer") }), " ",
    el("strong", { textContent: num(s.score) }), " ",
    el("span", { class: "muted small", textContent: s.top ? `${num(s.matchpoints)}/${num(s.top)}` : "" }));
}

function showTravellers(d) {
  $("travellers-panel").hidden = !d.travellers.length;
  $("travellers").replaceChildren(...d.travellers.map((b) => {
    const seats = b.tables[0].seats.length;
    const head = el("tr", {}, el("th", { textContent: t("Table") }), el("th", { textContent: t("Contract") }),
      ...Array.from({ length: seats }, (_, i) => el("th", { class: "num", textContent: t("Seat {n}", { n: i + 1 }) })),
      el("th", { textContent: "" }));
    const rows = b.tables.map((r) => el("tr", {},
      el("td", { textContent: String(r.table) }),
      el("td", { textContent: (r.contract ? contract(r.contract) : "–") + (r.doubles ? " · " + tn("{n} double", "{n} doubles", r.doubles) : "") }),
      ...r.seats.map(seatCell),
      el("td", {}, r.replay ? el("a", { href: r.replay, textContent: t("replay and analysis") }) : null)));
    return el("details", { class: "traveller", open: d.travellers.length <= 4, "data-board": b.board },
      el("summary", { textContent: t("Round {round}, deal {deal}", { round: b.round, deal: b.deal }) }),
      el("div", { class: "scroll" }, el("table", { class: "board-table" }, el("thead", {}, head), el("tbody", {}, ...rows))));
  }));
}

async function load() {
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
  $("event-error").textContent = "";
  $("event-loading").hidden = true;
  $("head-panel").hidden = false;
  showHead(d);
  showActions(d);
  showPlayers(d);
  showDirecting(d);
  showStandings(d);
  showTravellers(d);
  $("key-panel").hidden = !d.key;
  $("event-key").textContent = d.key || "";
  $("event").dataset.status = d.status;
  $("event").dataset.loaded = "1";
  if (d.status !== "over" && d.status !== "cancelled") schedule(d.status === "running" ? 3000 : 10000);
}

function schedule(ms) {
  clearTimeout(timer);
  timer = setTimeout(load, ms);
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
load();
