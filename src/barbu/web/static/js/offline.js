// The offline page (templates/offline.html, shown by the service worker in place of a page the network could not
// bring): it stands at the address the player asked for, so loading that address again brings the page he
// wanted.  "Try again" does it at once; when the browser says the network is back, it is done once the server
// answers (the browser's "online" only means a network, not that the server is reached).
const retry = document.getElementById("offline-retry");
if (retry) {
  retry.addEventListener("click", (e) => {
    e.preventDefault();
    location.reload();
  });
}

async function reloadWhenReached() {
  try {
    const r = await fetch("/health/live", { cache: "no-store" });
    if (r.ok) location.reload();
  } catch {
    // still unreachable: the next "online", or "Try again"
  }
}

window.addEventListener("online", reloadWhenReached);
