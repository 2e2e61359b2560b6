// The live tables (templates/live.html, GET /api/live): the matches being played, the highest rated first, then my
// friends' and my clubs' tables, each with its players, its average rating and a "Watch" link.  Read again every 20 s.
import { tableRow } from "./livetables-rows.js";

const $ = (id) => document.getElementById(id);

async function load() {
  const r = await fetch("/api/live", { cache: "no-store" });
  if (!r.ok) return;
  const data = await r.json();
  $("live-top").replaceChildren(...data.top.map(tableRow));
  $("live-none").hidden = data.top.length > 0;
  $("live-friends").replaceChildren(...data.friends.map(tableRow));
  $("live-friends-panel").hidden = data.friends.length === 0;
  $("live-clubs").replaceChildren(...data.clubs.map(tableRow));
  $("live-clubs-panel").hidden = data.clubs.length === 0;
  $("live").dataset.loaded = "1";
}

load();
setInterval(load, 20000);
