// The lobby: create a table (game, players, options, real-time or turn-based), list open tables to join or
// watch; a logged-in player's "Your turn" (the turn-based tables waiting for his move) at the top.

import { keepFocus } from "./a11y.js";
import { el } from "./dom.js";
import { num, strength, t, tn } from "./i18n.js";
import { postJSON, saveCreator, saveSeat } from "./net.js";
import { optionName, presetName, rulesTitle, valueName } from "./tablewords.js";
import { dealProgress, playersLine, seatLine } from "./tablerows.js";
import { loadMine, pointToMine } from "./mytables.js";
import { who } from "./account-link.js";
import { showTurns } from "./yourturn.js";
import { eventCard } from "./events.js";

const $ = (id) => document.getElementById(id);
let catalogue = [];
let member = null; // the logged-in player ({name, profile, since}), null for a guest: only he may play rated
// The clocks a table may have (barbu/web/clock.py CHOICES): seconds per move and in the bank.
const CLOCKS = { relaxed: [60, 600], normal: [25, 180], quick: [10, 60] };

// "25 seconds", "3 minutes", "1 min 30 s": a clock's time as a person reads it.
function duration(seconds) {
  if (seconds < 60) return tn("{n} second", "{n} seconds", seconds);
  if (seconds % 60) return t("{m} min {s} s", { m: num(Math.floor(seconds / 60)), s: num(seconds % 60) });
  return tn("{n} minute", "{n} minutes", seconds / 60);
}

function showClock() {
  // Turn-based: the clock's choices give way to the long ones (barbu/web/clock.py TURN_CHOICES).
  const turns = $("turn-based").checked;
  $("clock-label").hidden = turns;
  $("turn-clock-label").hidden = !turns;
  if (turns) {
    $("clock-description").textContent = member
      ? t("Nobody needs to stay connected: the tables waiting for your move are listed at the top of this page. When your time runs out, the computer plays that move for you.")
      : t("Nobody needs to stay connected: come back to the table when it is your turn. When your time runs out, the computer plays that move for you.");
    return;
  }
  const c = CLOCKS[$("clock").value];
  $("clock-description").textContent = c
    ? t("{move} a move, then a bank of {bank} for the hard decisions; when both are spent, the computer plays for you.", { move: duration(c[0]), bank: duration(c[1]) })
    : t("No time limit: a player who does not move holds up the table.");
}


function currentPreset() {
  return catalogue.find((p) => p.name === $("preset").value);
}

function optionValue(opt) {
  const input = $(`opt-${opt.name}`);
  if (opt.kind === "bool") return input.checked;
  if (opt.kind === "int") return Number(input.value);
  return input.value;
}

// The one-line ruleset text the engine reads: the preset and the options that differ from it.
function rulesText() {
  const p = currentPreset();
  if (!p) return "";
  const diffs = [];
  for (const opt of p.options) {
    const v = optionValue(opt);
    if (v !== opt.default) diffs.push(`${opt.name}=${v}`);
  }
  return diffs.length ? `${p.name}(${diffs.join(", ")})` : p.name;
}

function showPreset() {
  const p = currentPreset();
  $("preset-description").textContent = p.description;
  const players = $("players");
  players.replaceChildren(...p.players.map((n) => el("option", { value: n, textContent: String(n), selected: n === p.default_players })));
  players.disabled = p.players.length === 1;
  const box = $("options");
  box.replaceChildren();
  for (const opt of p.options) {
    let input;
    if (opt.kind === "bool") {
      input = el("input", { type: "checkbox", id: `opt-${opt.name}`, checked: opt.default });
    } else if (opt.choices) {
      input = el("select", { id: `opt-${opt.name}` },
        ...opt.choices.map((c) => el("option", { value: c, textContent: valueName(opt.name, c), selected: c === opt.default })));
      if (opt.kind === "int") input.dataset.int = "1";
    } else {
      input = el("input", { type: "number", id: `opt-${opt.name}`, value: opt.default, min: opt.minimum ?? "", max: opt.maximum ?? "" });
    }
    input.addEventListener("change", () => ($("rules-text").textContent = rulesText()));
    box.append(el("div", { class: "option" },
      el("label", { htmlFor: `opt-${opt.name}`, textContent: optionName(opt.name) }), input,
      el("small", { class: "muted", textContent: opt.help })));
  }
  $("rules-text").textContent = rulesText();
}

async function loadCatalogue() {
  const r = await fetch("/api/options");
  const data = await r.json();
  catalogue = data.presets;
  // "Play against the computer": the strength chosen last time in this browser, else the server's middling one.
  const chosen = localStorage.getItem("barbu:play-strength");
  const first = data.strengths.includes(chosen) ? chosen : data.default_strength;
  $("play-strength").replaceChildren(...data.strengths.map((s) =>
    el("option", { value: s, textContent: strength(s), selected: s === first })));
  if (localStorage.getItem("barbu:play-length") === "short") $("play-length").value = "short";
  $("preset").replaceChildren(...catalogue.map((p) => el("option", { value: p.name, textContent: presetName(p.name) })));
  showPreset();
}

async function loadTables() {
  try {
    const r = await fetch("/api/tables");
    const { tables } = await r.json();
    const box = $("tables");
    if (!tables.length) {
      keepFocus(() => box.replaceChildren(el("p", { class: "muted", textContent: t("No open table yet: create one.") })), () => null);
      return;
    }
    // Refreshed every few seconds: a player tabbing through the list keeps his place in it.
    keepFocus(() => box.replaceChildren(...tables.map((tb) => {
      const seats = el("div", { class: "seat-list" });
      tb.seats.forEach((s) => seats.append(seatLine(s)));
      const status = tb.status === "open" ? tn("{n} free seat", "{n} free seats", tb.open_seats) : dealProgress(tb);
      return el("div", { class: "table-row", "data-table": tb.id, "data-rated": tb.rated ? "1" : "0", "data-turn-based": tb.turn_based ? "1" : "0" },
        el("div", {}, el("strong", { textContent: rulesTitle(tb.rules), title: tb.rules }),
          tb.rated ? el("span", { class: "rated-mark", textContent: t("Rated"), title: t("A rated match: only players with an account sit here, and the result changes their ratings.") }) : null,
          tb.turn_based ? el("span", { class: "turn-mark", textContent: t("Turn-based"), title: t("Played over days: nobody needs to stay connected, and each move may take hours.") }) : null,
          tb.club ? el("a", { class: "club-tag", href: `/c/${encodeURIComponent(tb.club.slug)}`, textContent: tb.club.name, title: t("A table of the club {name}", { name: tb.club.name }) }) : null,
          " ", el("span", { class: "muted", textContent: playersLine(tb, status) })),
        seats,
        el("div", { class: "row-actions" },
          el("a", { href: `/t/${tb.id}`, class: "button" + (tb.open_seats ? " primary" : ""), textContent: tb.open_seats ? t("Join") : t("Watch") })));
    })), () => null);
  } catch {
    /* the next refresh tries again */
  }
}

$("preset").addEventListener("change", showPreset);
$("clock").addEventListener("change", showClock);
$("turn-based").addEventListener("change", showClock);
showClock();
$("create-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("create-error").textContent = "";
  $("create-button").disabled = true;
  try {
    const body = { rules: rulesText(), players: Number($("players").value), clock: $("clock").value };
    if ($("turn-based").checked) Object.assign(body, { turn_based: true, clock: $("turn-clock").value });
    if ($("private").checked) body.private = true;
    if (member && $("create-rated").checked) body.rated = true;
    if ($("create-length").value === "short") body.short = true;
    const data = await postJSON("/api/tables", body);
    saveCreator(data.id, data.creator); // lets this browser seat computer players there, and remove players
    // A private table's page opens at its invitation link: the secret after "#" never reaches the server.
    location.href = data.invite_url || data.url;
  } catch (e) {
    $("create-error").textContent = e.message;
    $("create-button").disabled = false;
    if (e.code === "my_tables") pointToMine($("create-error"));
  }
});

$("play-computer").addEventListener("click", async () => {
  $("play-error").textContent = "";
  $("play-computer").disabled = true;
  try {
    // Logged in, the seat is the account's and bears its name (the server ignores the name sent).
    const name = member ? member.name : localStorage.getItem("barbu:name") || t("Player");
    const game = $("play-game").value; // a two-player game from the selector, else the form's game
    const body = { rules: game || rulesText() || "classic", name };
    if (member && $("play-rated").checked) body.rated = true;
    if ($("play-length").value === "short") body.short = true;
    localStorage.setItem("barbu:play-length", $("play-length").value);
    if ($("play-strength").value) {
      body.strength = $("play-strength").value;
      localStorage.setItem("barbu:play-strength", body.strength);
    }
    if (!game && currentPreset() && currentPreset().players.length > 1) body.players = Number($("players").value);
    const data = await postJSON("/api/play", body);
    saveCreator(data.id, data.creator);
    saveSeat(data.id, { token: data.token, seat: data.seat, name });
    location.href = data.url;
  } catch (e) {
    $("play-error").textContent = e.message;
    $("play-computer").disabled = false;
    if (e.code === "my_tables") pointToMine($("play-error"));
  }
});

// Logged in: the Rated boxes, unticked (a rated match turns the hints and the take-back off: a choice, never a
// default); a guest is told where rated matches are.
who.then((user) => {
  member = user;
  $("play-rated-box").hidden = !user;
  $("create-rated-box").hidden = !user;
  $("rated-guest").hidden = !!user;
  showClock();
  loadTurns();
});

// "Your turn": a logged-in player's turn-based tables waiting for his move, at the top while there are some.
function loadTurns() {
  if (member) showTurns($("turns-panel"), $("turns"));
}

// The open tables every 5 seconds; "Your turn" every sixth time (half a minute).
let polls = 0;
function poll() {
  loadTables();
  if (++polls % 6 === 0) loadTurns();
}

loadCatalogue();
loadTables();
loadMine();
setInterval(poll, 5000);
setInterval(loadMine, 10000);

// Duplicate events (static/js/events.js): the upcoming and running ones, while there are some.
async function loadEvents() {
  try {
    const r = await fetch("/api/events", { cache: "no-store" });
    if (!r.ok) return;
    const data = await r.json();
    const list = [...data.running, ...data.upcoming].slice(0, 6);
    $("events-panel").hidden = false;
    keepFocus(() => $("lobby-events").replaceChildren(...(list.length ? list.map(eventCard)
      : [el("p", { class: "empty", textContent: t("No event is planned: direct the first.") })])), () => null);
  } catch {
    // the lobby works without its events
  }
}
loadEvents();
setInterval(loadEvents, 30000);
