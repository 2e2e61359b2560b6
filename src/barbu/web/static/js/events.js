// The duplicate events page (templates/events.html), from GET /api/events: upcoming, running and past events, and
// the form that creates one (an account's; a club's owner or admins may make it the club's).
import { el } from "./dom.js";
import { strength, t, tn, tp } from "./i18n.js";
import { optionName, rulesTitle, valueName } from "./tablewords.js";
import { postJSON } from "./net.js";
import { who } from "./account-link.js";

const $ = (id) => document.getElementById(id);

export function formatName(fmt) {
  return { "one-match": t("one match"), rounds: t("rounds") }[fmt] || fmt;
}

export function when(iso) {
  if (!iso) return t("starts when the director says");
  return new Date(iso).toLocaleString(document.documentElement.lang || undefined,
    { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

// One event in a list: its name (a link), its game, when, how many have registered.
export function eventCard(e) {
  const room = e.room ? tn("{n} of {room} places", "{n} of {room} places", e.registered, { room: e.room })
    : tn("{n} player registered", "{n} players registered", e.registered);
  const facts = el("p", { class: "club-facts" },
    el("span", { class: "tag", textContent: rulesTitle(e.rules) }), " ",
    el("span", { class: "tag public", textContent: formatName(e.format) }), " ",
    el("span", { class: "muted", textContent: room }));
  if (e.club) facts.append(" ", el("a", { href: e.club.url, class: "tag role", textContent: e.club.name }));
  const time = e.status === "running" ? t("round {round} of {rounds}", { round: e.round, rounds: e.rounds })
    : e.status === "over" ? t("over") : e.status === "cancelled" ? t("cancelled") : when(e.start);
  return el("article", { class: "club-card event-card", "data-event": String(e.id) },
    el("h3", {}, el("a", { href: e.url, class: "club-name", textContent: e.name })),
    el("p", { class: "event-when", textContent: time }), facts);
}

function fill(box, list, empty) {
  $(box).replaceChildren(...(list.length ? list.map(eventCard) : [el("p", { class: "empty", textContent: empty })]));
}

// The upcoming events come a page at a time (the soonest first); "More" adds the next page below.
let upcomingPage = 0;

async function moreUpcoming() {
  const button = $("more-upcoming");
  button.disabled = true;
  try {
    const r = await fetch(`/api/events?page=${upcomingPage + 1}`, { cache: "no-store" });
    const data = await r.json();
    if (!r.ok) throw new Error(data.error || t("request failed ({status})", { status: r.status }));
    upcomingPage += 1;
    $("upcoming").append(...data.upcoming.map(eventCard));
    button.hidden = !data.more;
  } catch (e) {
    $("events-loading").hidden = false;
    $("events-loading").textContent = e.message || t("The server cannot be reached; try again in a moment.");
  } finally {
    button.disabled = false;
  }
}

async function loadList() {
  let data;
  try {
    const r = await fetch("/api/events", { cache: "no-store" });
    data = await r.json();
    if (!r.ok) throw new Error(data.error || t("request failed ({status})", { status: r.status }));
  } catch (e) {
    $("events-loading").textContent = e.message || t("The server cannot be reached; try again in a moment.");
    return;
  }
  $("events-loading").hidden = true;
  fill("upcoming", data.upcoming, t("No event is planned: direct the first."));
  upcomingPage = 0;
  $("more-upcoming").hidden = !data.more;
  $("per-director").hidden = !data.per_director;
  fill("running", data.running, t("No event is being played now."));
  fill("past", data.past, t("No event has been played yet."));
  $("events").dataset.loaded = "1";
}

// The game of an event in a form: a preset (Barbu's or Bésigue's), its players a table and its options, and the
// format it allows (a Bésigue game plays rounds only).  The events page's form to create an event and an event's
// page's form to change it share it; `ids` names their elements: {game, players, options, format, rounds}.
export class GameChoice {
  constructor(ids) {
    this.ids = ids;
    this.presets = [];
    $(ids.game).addEventListener("change", () => this.show());
    $(ids.format).addEventListener("change", () => {
      if ($(ids.format).value === "one-match") $(ids.rounds).value = "1";
    });
  }

  fill(presets) {
    this.presets = presets.filter((p) => p.game === "barbu" || p.game === "besigue");
    $(this.ids.game).replaceChildren(...this.presets.map((p) => el("option", { value: p.name,
      textContent: rulesTitle(p.name), title: p.description })));
    this.show();
  }

  preset() {
    return this.presets.find((x) => x.name === $(this.ids.game).value);
  }

  // The chosen preset's players and options, each at its default.
  show() {
    const p = this.preset();
    if (!p) return;
    const besigue = p.game === "besigue";
    const format = $(this.ids.format);
    format.querySelector("option[value='one-match']").disabled = besigue;
    if (besigue && format.value === "one-match") format.value = "rounds";
    $(this.ids.players).replaceChildren(...p.players.map((n) => el("option", { value: String(n), textContent: String(n),
      selected: n === p.default_players })));
    $(this.ids.players).disabled = p.players.length === 1;
    $(this.ids.options).replaceChildren(...p.options.map((opt) => this.optionField(opt)));
  }

  optionField(opt) {
    const id = `${this.ids.options}-${opt.name}`;
    let input;
    if (opt.kind === "bool") {
      input = el("input", { type: "checkbox", id, checked: opt.default });
    } else if (opt.choices) {
      input = el("select", { id }, ...opt.choices.map((c) => el("option", { value: String(c),
        textContent: valueName(opt.name, c), selected: c === opt.default })));
    } else {
      input = el("input", { type: "number", id, value: opt.default, min: opt.minimum ?? "", max: opt.maximum ?? "" });
    }
    const label = el("label", { class: opt.kind === "bool" ? "event-option check" : "event-option", title: opt.help });
    if (opt.kind === "bool") label.append(input, " ", optionName(opt.name));
    else label.append(optionName(opt.name), " ", input);
    return label;
  }

  value(opt) {
    const input = $(`${this.ids.options}-${opt.name}`);
    if (opt.kind === "bool") return input.checked;
    if (opt.kind === "int") return Number(input.value);
    return input.value;
  }

  // The rules as the engine reads them: the preset and the options that differ from it (the players apart).
  rules() {
    const p = this.preset();
    if (!p) return "";
    const diffs = p.options.filter((opt) => String(this.value(opt)) !== String(opt.default))
      .map((opt) => `${opt.name}=${this.value(opt)}`);
    return diffs.length ? `${p.name}(${diffs.join(", ")})` : p.name;
  }

  players() {
    return Number($(this.ids.players).value);
  }

  // Set the form to an event's rules as the server writes them: "salad(players=5, rotation=quick)".
  set(text) {
    const m = /^([\w-]+)(?:\((.*)\))?$/.exec(String(text || "").trim());
    if (!m || !this.presets.some((p) => p.name === m[1])) return;
    $(this.ids.game).value = m[1];
    this.show();
    const p = this.preset();
    for (const pair of (m[2] || "").split(",")) {
      const [k, v] = pair.split("=").map((x) => (x || "").trim());
      if (!k || v === undefined) continue;
      if (k === "players") {
        $(this.ids.players).value = v;
        continue;
      }
      const opt = p.options.find((o) => o.name === k);
      const input = opt && $(`${this.ids.options}-${k}`);
      if (!input) continue;
      if (opt.kind === "bool") input.checked = v === "true";
      else input.value = v;
    }
  }
}

let game = null;

async function loadForm() {
  const user = await who;
  $("event-form").hidden = !user;
  $("create-guest").hidden = !!user;
  if (!user) return;
  const options = await (await fetch("/api/options")).json();
  game.fill(options.presets);
  $("event-strength").replaceChildren(...options.strengths.map((s) => el("option", { value: s, textContent: strength(s),
    selected: s === options.default_strength })));
  const clubs = await (await fetch("/api/clubs", { cache: "no-store" })).json();
  const mine = (clubs.mine || []).filter((c) => c.role === "owner" || c.role === "admin");
  if (mine.length) {
    $("event-club").replaceChildren(el("option", { value: "", textContent: tp("club", "none") }),
      ...mine.map((c) => el("option", { value: c.slug, textContent: c.name })));
    $("event-club-label").hidden = false;
    const wanted = new URLSearchParams(location.search).get("club"); // from the club's page
    if (wanted && mine.some((c) => c.slug === wanted)) $("event-club").value = wanted;
  }
}

function number(id) {
  const v = $(id).value.trim();
  return v === "" ? null : Number(v);
}

function wireForm() {
  game = new GameChoice({ game: "event-game", players: "event-players", options: "event-options",
    format: "event-format", rounds: "event-rounds" });
  $("event-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("event-error").textContent = "";
    $("event-create").disabled = true;
    const start = $("event-start").value;
    const body = { name: $("event-name").value, rules: game.rules(), players: game.players(),
      format: $("event-format").value, rounds: number("event-rounds") || 1, tables: number("event-tables"),
      deals: number("event-deals"), clock: $("event-clock").value, strength: $("event-strength").value,
      start: start ? new Date(start).toISOString() : null };
    if ($("event-club").value) body.club = $("event-club").value;
    try {
      const data = await postJSON("/api/events", body);
      location.href = data.event.url;
    } catch (e) {
      $("event-error").textContent = e.message;
      $("event-create").disabled = false;
    }
  });
}

if ($("events")) {
  wireForm();
  loadForm();
  loadList();
  $("more-upcoming").addEventListener("click", moreUpcoming);
}
