// The table's WebSocket: hello with the seat's credential (never in the URL), reconnection with
// what was missed, and commands that carry the version they were made for and an id, so a
// command sent twice is applied once.

import { lang, t } from "./i18n.js";

export function tokenKey(tableId) {
  return `barbu:seat:${tableId}`;
}

export function loadSeat(tableId) {
  try {
    return JSON.parse(localStorage.getItem(tokenKey(tableId)) || "null");
  } catch {
    return null;
  }
}

export function saveSeat(tableId, seat) {
  localStorage.setItem(tokenKey(tableId), JSON.stringify(seat));
}

// The credential of a table's creator: who may seat computer players there.
export function saveCreator(tableId, token) {
  if (token) localStorage.setItem(`barbu:creator:${tableId}`, token);
}

export function loadCreator(tableId) {
  return localStorage.getItem(`barbu:creator:${tableId}`);
}

export function forgetSeat(tableId) {
  localStorage.removeItem(tokenKey(tableId));
}

function newId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Math.random().toString(36).slice(2) + Date.now().toString(36);
}

// The connection watches itself: a server that does not answer the hello within `HANDSHAKE` ms, or says nothing
// for 2.5 heartbeats (it sends a "beat" on an idle table every `heartbeat` seconds, told in its welcome), is given
// up and another connection is made, with the same back-off as after a close.  Commands not answered yet are
// kept and sent again (same id: the server applies one at most once) after every welcome.
const HANDSHAKE = 6000;
const SILENCE = 2.5; // heartbeats of silence before the connection is given up

export class TableSocket {
  constructor(tableId, onMessage, onStatus) {
    this.tableId = tableId;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.version = null;
    this.unsent = []; // messages with an id asked while no socket was open (see send)
    this.pending = new Map(); // id → { msg, ws }: commands not answered yet, and the connection that last carried each
    this.heartbeat = 15; // seconds, until the server's welcome says
    this.delay = 500;
    this.closedByUs = false;
    this.welcomed = false; // ever: a later connection is a reconnection, and says so
    this.watchdog = null;
    this.route = null; // the process that plays the table, for nginx (docs/server.md, "The site's limits")
    this.locate();
  }

  // Ask which process plays the table, then connect through its route (nginx sends the socket there, not to a
  // process that would relay it); with no answer in 3 s, any process takes the socket and relays it.
  locate() {
    const signal = AbortSignal.timeout ? AbortSignal.timeout(3000) : undefined;
    fetch(`/api/tables/${encodeURIComponent(this.tableId)}/route`, { signal })
      .then((r) => (r.ok ? r.json() : {}))
      .catch(() => ({}))
      .then((found) => {
        this.route = typeof found.route === "string" ? found.route : null;
        if (!this.closedByUs) this.connect();
      });
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const route = this.route ? `?route=${encodeURIComponent(this.route)}` : "";
    const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(this.tableId)}${route}`);
    this.ws = ws;
    this.onStatus(this.welcomed ? "reconnecting" : "connecting");
    this.watch(HANDSHAKE + this.delay);
    ws.onopen = () => {
      const seat = loadSeat(this.tableId);
      const hello = { type: "hello", since: this.version, lang }; // the server words its messages in it
      if (seat && seat.token) hello.token = seat.token;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "welcome") {
        this.welcomed = true;
        this.delay = 500;
        if (typeof msg.heartbeat === "number" && msg.heartbeat > 0) this.heartbeat = msg.heartbeat;
        this.onStatus("connected");
      }
      if (this.welcomed) this.watch(this.heartbeat * SILENCE * 1000);
      if (msg.type === "beat") return;
      if (msg.state && typeof msg.state.version === "number") this.version = msg.state.version;
      this.answered(msg);
      if (msg.type === "welcome") {
        this.resendPending(false);
        this.sendUnsent();
      }
      if (msg.type === "in_sync" || msg.type === "sync" || msg.type === "catch_up") {
        this.resendPending(true);
        this.sendUnsent();
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (ws === this.ws) this.lost();
    };
  }

  // A command's answer: an acknowledgement or a refusal ends it; a move the server could not store yet
  // ("storage") stays, sent again in a moment and after the next welcome.
  answered(msg) {
    if (typeof msg.id !== "string" || !this.pending.has(msg.id)) return;
    if (msg.type === "ack") this.pending.delete(msg.id);
    else if (msg.type === "error" && msg.code === "storage") {
      const entry = this.pending.get(msg.id);
      setTimeout(() => {
        if (this.pending.get(msg.id) === entry && this.raw(entry.msg)) entry.ws = this.ws;
      }, 3000);
    } else if (msg.type === "error") this.pending.delete(msg.id);
  }

  // No answer in time: this connection is given up (its close may never come on a dead network) and another made.
  watch(ms) {
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      const ws = this.ws;
      if (!ws) return;
      ws.onclose = null;
      try {
        ws.close();
      } catch {
        // closing a socket still connecting may throw in old browsers: it is dropped all the same
      }
      this.lost();
    }, ms);
  }

  lost() {
    clearTimeout(this.watchdog);
    this.ws = null;
    if (this.closedByUs) {
      this.onStatus("disconnected");
      return;
    }
    this.onStatus(this.welcomed ? "reconnecting" : "connecting");
    setTimeout(() => this.locate(), this.delay); // the table may have moved: its route is asked again
    this.delay = Math.min(this.delay * 2, 8000);
  }

  // After a (re)connection, the commands that got no answer are sent again with their own ids: the server applies
  // each at most once, answers one it already applied with an acknowledgement, and refuses one the table has
  // moved past as stale.  `unsentOnly`: only those this connection has not carried yet.
  resendPending(unsentOnly) {
    for (const entry of this.pending.values()) {
      if (unsentOnly && entry.ws === this.ws) continue;
      if (this.raw(entry.msg)) entry.ws = this.ws;
    }
  }

  raw(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  // `typed`: the player typed the text in his own language ("dk", "passe"), for the server to read so.
  act(action, typed = false) {
    const msg = { type: "act", action, version: this.version, id: newId() };
    if (typed) msg.typed = true;
    const entry = { msg, ws: null };
    this.pending.set(msg.id, entry);
    if (this.raw(msg)) entry.ws = this.ws;
  }

  // A message with an id (a chat line) asked while the socket is down is kept and sent once the next welcome
  // (or catch-up) comes, never lost to a tap made a moment too early; one that went out is not sent twice.
  send(type, extra = {}) {
    const msg = { type, ...extra };
    if (!this.raw(msg) && typeof msg.id === "string") this.unsent.push(msg);
  }

  sendUnsent() {
    const waiting = this.unsent;
    this.unsent = [];
    for (const msg of waiting) this.send(msg.type, msg);
  }

  reconnect() {
    // Say hello again (after taking a seat): close and let onclose reconnect at once.  The seat's
    // view differs from the spectator's, so ask for a full resync, not just what was missed.
    this.version = null;
    this.delay = 50;
    if (this.ws) this.ws.close();
  }
}

export async function postJSON(url, body) {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    const e = new Error(data.error || t("request failed ({status})", { status: r.status }));
    e.code = data.code; // what the refusal is about ("my_tables": a per-address limit on tables)
    throw e;
  }
  return data;
}
