// The account channel (docs/server.md, "The account channel"): every page of a logged-in account opens one
// WebSocket, /ws/me, that carries what is meant for the account wherever it is (the presence of the players it
// follows, its notifications…).  Each message is handed to the page as a "barbu:live" event on window (detail: the
// message).  The page tells the server when it is away (hidden or idle for `AWAY_AFTER`) and when it is back.  A
// guest opens nothing.  Reconnects with the same back-off as the table's socket (net.js); a server silent for 2.5
// heartbeats is given up and asked again.
import { who } from "./account-link.js";

const AWAY_AFTER = 3 * 60 * 1000; // ms hidden or without a touch before the page says it is away
const SILENCE = 2.5;

let ws = null;
let delay = 500;
let heartbeat = 25;
let watchdog = null;
let away = false;
let lastTouch = Date.now();
let hiddenSince = null;

function say(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function setAway(now) {
  if (now === away) return;
  away = now;
  say({ type: away ? "away" : "here" });
}

function watch() {
  clearTimeout(watchdog);
  watchdog = setTimeout(() => ws && ws.close(), heartbeat * SILENCE * 1000);
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${proto}//${location.host}/ws/me`);
  ws.onmessage = (e) => {
    let msg;
    try {
      msg = JSON.parse(e.data);
    } catch {
      return;
    }
    watch();
    if (msg.type === "welcome") {
      delay = 500;
      if (typeof msg.heartbeat === "number" && msg.heartbeat > 0) heartbeat = msg.heartbeat;
      if (away) say({ type: "away" });
      document.documentElement.dataset.live = "open";
    }
    if (msg.type !== "beat") window.dispatchEvent(new CustomEvent("barbu:live", { detail: msg }));
  };
  ws.onclose = (e) => {
    clearTimeout(watchdog);
    document.documentElement.dataset.live = "closed";
    if (e.code === 4401) return; // logged out meanwhile
    setTimeout(connect, delay + Math.random() * delay);
    delay = Math.min(delay * 2, 15000);
  };
}

function touched() {
  lastTouch = Date.now();
  if (!document.hidden) setAway(false);
}

function look() {
  const now = Date.now();
  const hidden = hiddenSince !== null && now - hiddenSince > AWAY_AFTER;
  setAway(hidden || now - lastTouch > AWAY_AFTER);
}

who.then((user) => {
  if (!user) return;
  const friends = document.getElementById("account-friends");
  if (friends) friends.hidden = false;
  document.addEventListener("visibilitychange", () => {
    hiddenSince = document.hidden ? Date.now() : null;
    if (!document.hidden) touched();
  });
  for (const kind of ["pointerdown", "keydown", "scroll"]) addEventListener(kind, touched, { passive: true });
  setInterval(look, 20000);
  connect();
});
