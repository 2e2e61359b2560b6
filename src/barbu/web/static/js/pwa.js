// On every page (templates/base.html): registers the service worker (/sw.js, templates/sw.js) that lets barbu
// be installed on a phone's home screen, shows a plain page when the network is down and receives Web Push.
// Browsers allow service workers only in a secure context (https, or localhost): elsewhere nothing happens.
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // refused (private browsing, a browser setting): the site works as before, only without the app's extras
  });
}
