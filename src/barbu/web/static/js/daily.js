// The daily deals' page (templates/daily.html), from GET /api/daily: today's games (play, carry on, or your
// result), the time until the next day's deals, and the past days with their published keys.
import { el } from "./dom.js";
import { t, tn, num } from "./i18n.js";
import { presetName } from "./tablewords.js";
import { percentText } from "./dailywords.js";

const $ = (id) => document.getElementById(id);

// "5 h 12 min" until the next day's deals (UTC midnight).
function until(seconds) {
  const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60);
  return t("New deals in {hours} h {minutes} min (at midnight UTC).", { hours: num(h), minutes: num(m) });
}

function gameCard(g) {
  const link = `/daily/${encodeURIComponent(g.game)}`;
  let status, button;
  if (g.status === "finished") {
    status = t("Played: {percent}", { percent: percentText(g.percent) });
    button = el("a", { class: "button", href: link, textContent: t("See your result") });
  } else if (g.status === "playing") {
    status = t("Started: carry on where you left off.");
    button = el("a", { class: "button primary", href: link, textContent: t("Carry on") });
  } else {
    status = tn("{n} deal, not played yet", "{n} deals, not played yet", g.boards);
    button = el("a", { class: "button primary", href: link, textContent: t("Play") });
  }
  return el("article", { class: "daily-game", "data-game": g.game, "data-status": g.status },
    el("h3", { textContent: presetName(g.game) }), el("p", { class: "muted small", textContent: status }), button);
}

async function load() {
  let data;
  try {
    const r = await fetch("/api/daily", { cache: "no-store" });
    data = await r.json();
    if (!r.ok) throw new Error(data.error || t("request failed ({status})", { status: r.status }));
  } catch (e) {
    $("games").replaceChildren();
    $("daily-error").textContent = e.message;
    return;
  }
  $("today-date").textContent = data.day;
  $("guest-note").hidden = data.signed_in;
  $("games").replaceChildren(...data.games.map(gameCard));
  $("next-day").textContent = until(data.next_in);
  if (data.past.length) {
    $("past-panel").hidden = false;
    $("past").replaceChildren(...data.past.map((d) => el("p", { class: "past-day" },
      el("strong", { textContent: d.day }), " ",
      ...data.games.map((g) => el("a", { class: "button small", href: `/daily/${g.game}?day=${d.day}`, textContent: presetName(g.game) })),
      el("br"), el("span", { class: "muted small", textContent: t("key:") + " " }), el("code", { class: "key", textContent: d.key || "" }))));
  }
  $("daily").dataset.loaded = "1";
}

load();
