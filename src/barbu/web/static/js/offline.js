// The offline page (templates/offline.html, shown by the service worker in place of a page the network could not
// bring): it stands at the address the player asked for, so loading that address again, once the browser says
// the network is back or when he presses "Try again", brings the page he wanted.
const retry = document.getElementById("offline-retry");
if (retry) {
  retry.addEventListener("click", (e) => {
    e.preventDefault();
    location.reload();
  });
}
window.addEventListener("online", () => location.reload());
