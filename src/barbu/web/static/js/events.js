// The duplicate events page (templates/events.html), from GET /api/events: upcoming, running and past events, and
// the form that creates one (an account's; a club's owner or admins may make it the club's).
import { el } from "./dom.js";
import { strength, t, tn } from "./i18n.js";
import { rulesTitle } from "./tablewords.js";
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
  const room = e.room ? t("{n} of {room} places", { n: e.registered, room: e.room })
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
  fill("running", data.running, t("No event is being played now."));
  fill("past", data.past, t("No event has been played yet."));
  $("events").dataset.loaded = "1";
}

let presets = [];

function showPlayers() {
  const p = presets.find((x) => x.name === $("event-game").value);
  if (!p) return;
  // A Bésigue game lasts until a player reaches the target: its events play rounds (one deal dealt by each player)
  const besigue = p.game === "besigue";
  const one = $("event-format").querySelector("option[value='one-match']");
  one.disabled = besigue;
  if (besigue && $("event-format").value === "one-match") $("event-format").value = "rounds";
  $("event-players").replaceChildren(...p.players.map((n) => el("option", { value: String(n), textContent: String(n),
    selected: n === p.default_players })));
}

async function loadForm() {
  const user = await who;
  $("event-form").hidden = !user;
  $("create-guest").hidden = !!user;
  if (!user) return;
  const options = await (await fetch("/api/options")).json();
  presets = options.presets.filter((p) => p.game === "barbu" || p.game === "besigue");
  $("event-game").replaceChildren(...presets.map((p) => el("option", { value: p.name, textContent: rulesTitle(p.name), title: p.description })));
  showPlayers();
  $("event-strength").replaceChildren(...options.strengths.map((s) => el("option", { value: s, textContent: strength(s),
    selected: s === options.default_strength })));
  const clubs = await (await fetch("/api/clubs", { cache: "no-store" })).json();
  const mine = (clubs.mine || []).filter((c) => c.role === "owner" || c.role === "admin");
  if (mine.length) {
    $("event-club").replaceChildren(el("option", { value: "", textContent: t("none") }),
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
  $("event-game").addEventListener("change", showPlayers);
  $("event-format").addEventListener("change", () => {
    if ($("event-format").value === "one-match") $("event-rounds").value = "1";
  });
  $("event-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("event-error").textContent = "";
    $("event-create").disabled = true;
    const start = $("event-start").value;
    const body = { name: $("event-name").value, rules: $("event-game").value, players: Number($("event-players").value),
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
}
