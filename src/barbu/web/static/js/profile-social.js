// A profile's social side (templates/profile.html, GET /api/players/<name>/social): his followers counted, Follow
// or Unfollow and Block or Unblock for a logged-in visitor, and the live tables he sits at, each to watch.
import { tn } from "./i18n.js";
import { postJSON } from "./net.js";
import { tableRow } from "./livetables-rows.js";

const $ = (id) => document.getElementById(id);
const name = decodeURIComponent(location.pathname.replace(/^\/u\//, ""));

function toggle(button, on) {
  button.dataset.state = on ? "on" : "off";
  button.textContent = on ? button.dataset.on : button.dataset.off;
}

async function act(url) {
  $("social-error").textContent = "";
  try {
    await postJSON(url, { name });
  } catch (e) {
    $("social-error").textContent = e.message;
  }
  await load();
}

async function load() {
  const r = await fetch(`/api/players/${encodeURIComponent(name)}/social`, { cache: "no-store" });
  if (!r.ok) return;
  const data = await r.json();
  $("followers-count").textContent = tn("{n} follower", "{n} followers", data.followers, { n: data.followers });
  if ("following" in data) {
    toggle($("follow-button"), data.following);
    toggle($("block-button"), data.blocking);
    $("follow-button").hidden = data.blocking;
    $("social-actions").hidden = false;
  }
  $("his-tables-list").replaceChildren(...data.tables.map(tableRow));
  $("his-tables").hidden = data.tables.length === 0;
  $("profile").dataset.social = "1";
}

$("follow-button").addEventListener("click", () =>
  act($("follow-button").dataset.state === "on" ? "/api/friends/unfollow" : "/api/friends/follow"));
$("block-button").addEventListener("click", () =>
  act($("block-button").dataset.state === "on" ? "/api/blocks/unblock" : "/api/blocks/block"));
load();
