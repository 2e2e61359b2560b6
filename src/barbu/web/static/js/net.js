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

export class TableSocket {
  constructor(tableId, onMessage, onStatus) {
    this.tableId = tableId;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.version = null;
    this.pending = null; // the last command sent and not yet answered
    this.delay = 500;
    this.closedByUs = false;
    this.connect();
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(this.tableId)}`);
    this.ws = ws;
    this.onStatus("connecting");
    ws.onopen = () => {
      this.delay = 500;
      const seat = loadSeat(this.tableId);
      const hello = { type: "hello", since: this.version, lang }; // the server words its messages in it
      if (seat && seat.token) hello.token = seat.token;
      ws.send(JSON.stringify(hello));
      this.onStatus("connected");
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.state && typeof msg.state.version === "number") this.version = msg.state.version;
      if (msg.type === "ack" || (msg.type === "error" && this.pending && msg.id === this.pending.id)) {
        this.pending = null;
      }
      if (msg.type === "in_sync" || msg.type === "sync" || msg.type === "catch_up") this.resendPending();
      this.onMessage(msg);
    };
    ws.onclose = () => {
      this.onStatus("disconnected");
      if (this.closedByUs) return;
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
  }

  // After a reconnection, a command that got no answer is sent again with the same id: the server
  // applies it at most once, and refuses it as stale if the table has moved on.
  resendPending() {
    if (this.pending && this.pending.version === this.version) this.raw(this.pending);
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
    this.pending = msg;
    this.raw(msg);
  }

  send(type, extra = {}) {
    this.raw({ type, ...extra });
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
