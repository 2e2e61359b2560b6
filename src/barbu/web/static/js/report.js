// The "Report" control of a player's, a club's or an event's page (templates/_report.html): shown to a logged-in
// player (never on his own profile), it sends the page's address, a reason and optional words to the moderators'
// queue (POST /api/reports).  A second report of the same thing replaces the first while it is open.
import { who } from "./account-link.js";
import { t } from "./i18n.js";
import { postJSON } from "./net.js";

const box = document.getElementById("report");

function address() {
  // /u/NAME, /c/SLUG, /e/NUMBER: the last part of the page's own path
  const part = location.pathname.split("/").filter(Boolean)[1] || "";
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

// The page's own script says when it has read what it shows (data-loaded on its <main>): "missing" for a
// player who is not there, where there is nothing to report.
function pageLoaded() {
  const main = document.querySelector("main[data-loaded]");
  if (!main || main.dataset.loaded) return Promise.resolve(main ? main.dataset.loaded : "1");
  return new Promise((resolve) => {
    new MutationObserver((_, observer) => {
      if (!main.dataset.loaded) return;
      observer.disconnect();
      resolve(main.dataset.loaded);
    }).observe(main, { attributes: true, attributeFilter: ["data-loaded"] });
  });
}

async function start() {
  const user = await who;
  if (!box || !user) return;
  const kind = box.dataset.kind;
  const target = address();
  if (kind === "player" && target.toLowerCase() === user.name.toLowerCase()) return;
  if ((await pageLoaded()) === "missing") return;
  box.hidden = false;
  const form = document.getElementById("report-form");
  const send = document.getElementById("report-send");
  const error = document.getElementById("report-error");
  const done = document.getElementById("report-done");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    send.disabled = true;
    try {
      const answer = await postJSON("/api/reports", {
        kind,
        target,
        reason: document.getElementById("report-reason").value,
        text: document.getElementById("report-text").value,
      });
      done.textContent = answer.new
        ? t("Thank you: the moderators will look at it.")
        : t("You had reported this already: your report now says this instead.");
      done.hidden = false;
    } catch (e) {
      error.textContent = e.message;
    } finally {
      send.disabled = false;
    }
  });
}

start();
