// The screen kept awake while it is the player's turn at a table (static/js/tablebase.js calls keepAwake on
// every drawing): the Screen Wake Lock API, asked for when the turn becomes his and let go otherwise.  The
// browser lets go of the lock by itself when the page is hidden; it is asked for again when the page shows once
// more and the turn is still his.  Where the browser has no such API, or refuses, nothing happens.
let wanted = false;
let lock = null;
let asking = false;

// Whether the screen should stay awake now (true at the player's turn).
export function keepAwake(on) {
  wanted = Boolean(on);
  settle();
}

async function settle() {
  if (!("wakeLock" in navigator)) return;
  if (!wanted) {
    if (lock) {
      const held = lock;
      lock = null;
      held.release().catch(() => {});
    }
    return;
  }
  if (lock || asking || document.visibilityState !== "visible") return;
  asking = true;
  try {
    const got = await navigator.wakeLock.request("screen");
    got.addEventListener("release", () => {
      if (lock === got) lock = null;
    });
    lock = got;
  } catch {
    lock = null; // refused (battery saver, a policy): the screen sleeps as usual
  } finally {
    asking = false;
  }
  if (!wanted || document.visibilityState !== "visible") settle(); // the turn passed while the browser answered
}

document.addEventListener("visibilitychange", settle);
