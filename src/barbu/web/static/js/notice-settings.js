// The account page's "Notifications" section (templates/account.html): notifications on this device (Web Push:
// the browser's permission is asked only when the player clicks to turn them on), a test notification, and for each
// kind whether it goes to his devices and by e-mail.  The server keeps the choices (/api/notices/settings) and
// this device's subscription (/api/push/subscribe); the service worker (sw.js) shows what is pushed.
import { el } from "./dom.js";
import { t, tn, num } from "./i18n.js";

const $ = (id) => document.getElementById(id);

const KIND_WORDS = {
  "turn": () => t("Your turn at a turn-based table"),
  "challenge": () => t("A challenge"),
  "event-soon": () => t("An event you registered for starts in 15 minutes"),
  "event-table": () => t("Your table at an event is ready"),
  "club-invite": () => t("A club's invitation"),
  "moderator-reply": () => t("A word from a moderator"),
};

async function call(path, method = "GET", body) {
  const init = { method, credentials: "same-origin", cache: "no-store" };
  if (body !== undefined) {
    init.headers = { "content-type": "application/json" };
    init.body = JSON.stringify(body);
  }
  const r = await fetch(path, init);
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.error || String(r.status));
  return data;
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

const pushable = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window && window.isSecureContext;

async function registration() {
  return navigator.serviceWorker.ready;
}

async function thisDevice() {
  if (!pushable) return null;
  try {
    return await (await registration()).pushManager.getSubscription();
  } catch {
    return null;
  }
}

function drawDevice(subscribed, devices) {
  const state = $("push-state");
  $("push-error").textContent = "";
  if (!pushable) {
    state.textContent = t("This browser cannot receive notifications from a site (or only from one served over https).");
    $("push-on").hidden = $("push-off").hidden = true;
  } else if (Notification.permission === "denied") {
    state.textContent = t("This browser blocks notifications from barbu: allow them in its site settings, then come back.");
    $("push-on").hidden = $("push-off").hidden = true;
  } else {
    state.textContent = subscribed ? t("Notifications are on for this device.") : t("Notifications are off for this device.");
    $("push-on").hidden = subscribed;
    $("push-off").hidden = !subscribed;
  }
  $("push-test").hidden = devices === 0;
  if (devices > 0) state.textContent += " " + tn("{n} device receives them.", "{n} devices receive them.", devices, { n: num(devices) });
}

function drawKinds(settings) {
  const body = $("notice-kinds-body");
  const rows = Object.entries(settings.kinds).map(([kind, sw]) => {
    const words = (KIND_WORDS[kind] || (() => kind))();
    const box = (which, disabled) => {
      const input = el("input", { type: "checkbox", "data-kind": kind, "data-which": which,
        "aria-label": `${words}: ${which === "push" ? t("On devices") : t("By e-mail")}` });
      input.checked = !!sw[which];
      input.disabled = !!disabled;
      input.addEventListener("change", () => save(kind));
      return input;
    };
    return el("tr", {}, el("th", { scope: "row", textContent: words }),
      el("td", { class: "switch" }, box("push", false)),
      el("td", { class: "switch" }, box("mail", !settings.mail || (!settings.address && !sw.mail))));
  });
  body.replaceChildren(...rows);
  $("notice-mail-rule").textContent = !settings.mail ? t("This server sends no e-mails.")
    : !settings.address ? t("To choose e-mails, give your e-mail address above.")
      : !settings.confirmed ? t("E-mails go once your address is confirmed.")
        : t("E-mails go to your confirmed address; every one has a link to stop them.");
}

async function save(kind) {
  const read = (which) => document.querySelector(`#notice-kinds-body input[data-kind="${kind}"][data-which="${which}"]`).checked;
  $("notice-kinds-error").textContent = "";
  try {
    drawKinds(await call("/api/notices/settings", "POST", { kind, push: read("push"), mail: read("mail") }));
  } catch (e) {
    $("notice-kinds-error").textContent = e.message;
    refresh();
  }
}

async function refresh() {
  const settings = await call("/api/notices/settings");
  drawKinds(settings);
  drawDevice(!!(await thisDevice()), settings.devices.length);
}

async function turnOn() {
  $("push-error").textContent = "";
  try {
    const allowed = await Notification.requestPermission(); // asked only now, on the player's click
    if (allowed !== "granted") {
      await refresh();
      return;
    }
    const { key } = await call("/api/push/key");
    const reg = await registration();
    const sub = (await reg.pushManager.getSubscription())
      || (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) }));
    await call("/api/push/subscribe", "POST", sub.toJSON());
  } catch (e) {
    $("push-error").textContent = e.message || t("Notifications could not be turned on; try again.");
  }
  await refresh().catch(() => {});
}

async function turnOff() {
  $("push-error").textContent = "";
  try {
    const sub = await thisDevice();
    if (sub) {
      await call("/api/push/subscribe", "DELETE", { endpoint: sub.endpoint });
      await sub.unsubscribe();
    }
  } catch (e) {
    $("push-error").textContent = e.message;
  }
  await refresh().catch(() => {});
}

async function test() {
  $("push-error").textContent = "";
  try {
    const { sent } = await call("/api/push/test", "POST", {});
    $("push-state").textContent = tn("A test notification went to {n} device.", "A test notification went to {n} devices.", sent, { n: num(sent) });
  } catch (e) {
    $("push-error").textContent = e.message;
  }
}

let started = false;
function start() {
  if (started || $("member-view").hidden) return;
  started = true;
  $("push-on").addEventListener("click", turnOn);
  $("push-off").addEventListener("click", turnOff);
  $("push-test").addEventListener("click", test);
  refresh().catch((e) => { $("notice-kinds-error").textContent = e.message; });
}

// The member's view is shown once the page knows who is here (js/account.js), or after he logs in on it.
new MutationObserver(start).observe($("member-view"), { attributes: true, attributeFilter: ["hidden"] });
start();
