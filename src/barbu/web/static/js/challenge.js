// A challenge's page (templates/challenge.html).  "new": the form, its game, players, clock and rated choices as
// the lobby's new-table form offers them (GET /api/options); sent to POST /api/challenges, then its own page.
// "view": /challenges/<id> read from GET /api/challenges/<id>, in the page's words; redrawn when the account
// channel says it changed (a "barbu:live" event {type: "challenge"}), else asked again every few seconds while
// it is open; once everyone accepted, each player is sent to the table.
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { postJSON } from "./net.js";
import { presetName, rulesTitle } from "./tablewords.js";
import { clockWords } from "./clock.js";
import { who } from "./account-link.js";

const $ = (id) => document.getElementById(id);
const main = $("challenge-main");
const POLL_MS = 4000;
let catalogue = [];

// -- the form
function preset() {
  return catalogue.find((p) => p.name === $("challenge-preset").value);
}

function fillSeats() {
  const p = preset();
  const seats = p ? p.players : [4];
  $("challenge-seats").replaceChildren(...seats.map((n) => el("option", { value: String(n), textContent: String(n), selected: p && n === p.default_players })));
}

function showClock() {
  const turns = $("challenge-turn-based").checked;
  $("challenge-clock-label").hidden = turns;
  $("challenge-turn-clock-label").hidden = !turns;
}

async function startForm() {
  $("challenge-form-panel").hidden = false;
  const to = new URLSearchParams(location.search).get("to");
  if (to) $("challenge-to-0").value = to.slice(0, 64);
  const r = await fetch("/api/options", { credentials: "same-origin" });
  catalogue = (await r.json()).presets || [];
  $("challenge-preset").replaceChildren(...catalogue.map((p) => el("option", { value: p.name, textContent: presetName(p.name) })));
  fillSeats();
  $("challenge-preset").addEventListener("change", fillSeats);
  $("challenge-turn-based").addEventListener("change", showClock);
  $("challenge-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    $("challenge-form-error").textContent = "";
    const players = [0, 1, 2].map((i) => $(`challenge-to-${i}`).value.trim()).filter(Boolean);
    const turns = $("challenge-turn-based").checked;
    const body = {
      players,
      rules: $("challenge-preset").value,
      seats: Number($("challenge-seats").value),
      short: $("challenge-length").value === "short",
      turn_based: turns,
      clock: turns ? $("challenge-turn-clock").value : $("challenge-clock").value,
      rated: $("challenge-rated").checked,
      bots: $("challenge-bots").checked,
    };
    $("challenge-send").disabled = true;
    try {
      const c = await postJSON("/api/challenges", body);
      location.assign(`/challenges/${c.id}`);
    } catch (err) {
      $("challenge-form-error").textContent = err.message;
      $("challenge-send").disabled = false;
    }
  });
  main.dataset.loaded = "form";
}

// -- the page of one
const cid = location.pathname.split("/").pop();
let timer = null;

function answerWord(answer) {
  return { accepted: t("accepted"), declined: t("declined") }[answer] || t("no answer yet");
}

function stateLine(c) {
  switch (c.state) {
    case "accepted": return t("Everyone accepted: the table is ready.");
    case "declined": return t("{name} declined the challenge.", { name: c.ended_by || "" });
    case "cancelled": return t("{name} cancelled the challenge.", { name: c.ended_by || "" });
    case "expired": return t("The challenge expired: not everyone answered within ten minutes.");
    default: {
      const until = new Date(c.expires).toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
      return t("Waiting for every answer, until {time}.", { time: until });
    }
  }
}

function draw(c) {
  $("challenge-panel").hidden = false;
  $("challenge-panel").dataset.state = c.state;
  $("challenge-title").textContent = t("{name}'s challenge", { name: c.from.name });
  $("challenge-state").textContent = stateLine(c);
  const person = (p, what) => el("li", { class: "challenge-person", "data-answer": what },
    el("a", { href: p.profile, textContent: p.name }), " ", el("span", { class: "muted", textContent: answerWord(what) }));
  $("challenge-who").replaceChildren(
    el("li", { class: "challenge-person", "data-answer": "from" }, el("a", { href: c.from.profile, textContent: c.from.name }), " ",
      el("span", { class: "muted", textContent: t("challenges") })),
    ...c.invited.map((p) => person(p, p.answer)));
  const row = (term, value) => [el("dt", { textContent: term }), el("dd", { textContent: value })];
  const clock = c.clock ? clockWords(c.clock) || t("with a clock") : t("No clock");
  $("challenge-settings").replaceChildren(
    ...row(t("Game"), rulesTitle(c.rules)),
    ...row(t("Clock"), c.turn_based ? t("Turn-based: {clock}", { clock }) : clock),
    ...row(t("Rated"), c.rated ? t("yes") : t("no")),
    ...(c.bots ? row(t("Seats left"), t("computer players")) : []));
  const open = c.state === "open";
  $("challenge-accept").hidden = $("challenge-decline").hidden = !(open && c.me.answer === "waiting");
  $("challenge-cancel").hidden = !(open && c.me.challenger);
  $("challenge-table").hidden = !c.table;
  if (c.table) $("challenge-table").href = c.table;
  main.dataset.loaded = c.state;
}

async function load(goToTable) {
  const r = await fetch(`/api/challenges/${encodeURIComponent(cid)}`, { credentials: "same-origin", cache: "no-store" });
  const c = await r.json().catch(() => ({}));
  if (!r.ok) {
    $("challenge-error").textContent = c.error || t("request failed ({status})", { status: r.status });
    $("challenge-panel").hidden = false;
    return;
  }
  draw(c);
  if (c.state !== "open") clearInterval(timer);
  if (c.table && goToTable) location.assign(c.table);
}

function act(path) {
  return async () => {
    $("challenge-error").textContent = "";
    try {
      const c = await postJSON(`/api/challenges/${encodeURIComponent(cid)}/${path}`, {});
      draw(c);
      if (c.table) location.assign(c.table);
    } catch (err) {
      $("challenge-error").textContent = err.message;
    }
  };
}

function startView() {
  $("challenge-accept").addEventListener("click", act("accept"));
  $("challenge-decline").addEventListener("click", act("decline"));
  $("challenge-cancel").addEventListener("click", act("cancel"));
  window.addEventListener("barbu:live", (e) => {
    if (e.detail && e.detail.type === "challenge" && String(e.detail.id) === cid) load(true);
  });
  timer = setInterval(() => load(true), POLL_MS);
  load(false);
}

who.then((user) => {
  $("challenge-loading").hidden = true;
  if (!user) {
    $("challenge-guest").hidden = false;
    main.dataset.loaded = "guest";
    return;
  }
  if (main.dataset.mode === "new") startForm();
  else startView();
});
