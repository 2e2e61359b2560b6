// How the cards and the page are drawn, as the player chooses (templates/_display.html, in every page's header):
// a four-colour deck (spades black, hearts red, diamonds blue, clubs green, as on four-colour bridge and poker
// decks) and a high-contrast theme.  Kept in this browser's localStorage; until he chooses, the high contrast
// follows the system's "more contrast" preference.  A classic script, run in <head> before the page is drawn, so
// that no page shows in the other colours first; it marks <html data-deck data-contrast>, which the CSS reads.
(function () {
  var root = document.documentElement;
  var KEYS = { deck: "barbu:deck", contrast: "barbu:contrast" };

  function read(key) {
    try {
      return localStorage.getItem(key);
    } catch (e) {
      return null; // private windows may refuse storage: the defaults hold
    }
  }

  function write(key, value) {
    try {
      localStorage.setItem(key, value);
    } catch (e) { /* not remembered: this page still shows it */ }
  }

  function apply() {
    var deck = read(KEYS.deck) === "four";
    var chosen = read(KEYS.contrast);
    var high = chosen === null ? !!(window.matchMedia && matchMedia("(prefers-contrast: more)").matches) : chosen === "high";
    if (deck) root.dataset.deck = "four";
    else delete root.dataset.deck;
    if (high) root.dataset.contrast = "high";
    else delete root.dataset.contrast;
    return { deck: deck, high: high };
  }

  apply();
  // Another tab's choice shows here too.
  window.addEventListener("storage", function (e) {
    if (e.key === KEYS.deck || e.key === KEYS.contrast) wire();
  });

  function wire() {
    var now = apply();
    var deck = document.getElementById("display-deck");
    var contrast = document.getElementById("display-contrast");
    if (!deck || !contrast) return;
    deck.checked = now.deck;
    contrast.checked = now.high;
  }

  document.addEventListener("DOMContentLoaded", function () {
    wire();
    var deck = document.getElementById("display-deck");
    var contrast = document.getElementById("display-contrast");
    var menu = document.getElementById("display-menu");
    if (!deck || !contrast || !menu) return;
    deck.addEventListener("change", function () {
      write(KEYS.deck, deck.checked ? "four" : "two");
      apply();
    });
    contrast.addEventListener("change", function () {
      write(KEYS.contrast, contrast.checked ? "high" : "normal");
      apply();
    });
    // Escape closes the little menu and gives the focus back to its button; so does a click elsewhere.
    menu.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && menu.open) {
        e.stopPropagation();
        menu.open = false;
        menu.querySelector("summary").focus();
      }
    });
    document.addEventListener("click", function (e) {
      if (menu.open && !menu.contains(e.target)) menu.open = false;
    });
  });
})();
