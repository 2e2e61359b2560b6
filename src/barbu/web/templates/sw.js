// barbu's service worker, served as /sw.js (routes/app_shell.py fills in SETTINGS): its scope is the whole site.
//
// What it keeps: only SETTINGS.keep, fetched when it installs: the offline page in each language and the files
// that page needs, all the same for everyone.  Its cache is named for SETTINGS.version (drawn from those files'
// bytes), so a release that changes them installs a new worker whose cache replaces the old one.
//
// What it answers: a page (a navigation) goes to the network as always and is never kept; only when the network
// cannot be reached does the player get the offline page in his language.  The kept files are fetched from the
// network too, and taken from the cache only when it is down.  Everything else (the API, the WebSocket, the
// player's own pages) never passes through here.
//
// Web Push: a push's JSON ({title, body, url, tag, id}: the words already in the player's language, notices/words.py)
// is shown as a notification; a click on it marks that notice read and brings the page at that address to the
// front (a barbu window already open is taken to it, else a new one is opened).
const SETTINGS = __SETTINGS__;
const CACHE = `barbu-${SETTINGS.version}`;
const KEPT = new Set(SETTINGS.keep);

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(SETTINGS.keep.map((path) => new Request(path, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("barbu-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

// The reader's language, as the pages choose it: ?lang= in the address, the switcher's cookie (where the browser
// lets a worker read it), the browser's languages, then the server's.
async function readerLanguage(url) {
  const known = (code) => {
    const lang = String(code || "").trim().replace("_", "-").split("-")[0].toLowerCase();
    return SETTINGS.languages.includes(lang) ? lang : null;
  };
  let lang = known(url.searchParams.get("lang"));
  if (!lang && self.cookieStore) {
    try {
      const cookie = await self.cookieStore.get("barbu_lang");
      lang = known(cookie && cookie.value);
    } catch {
      // no cookie for us: the browser's languages say it
    }
  }
  for (const code of self.navigator.languages || []) lang = lang || known(code);
  return lang || SETTINGS.fallback;
}

async function offlinePage(url) {
  const cache = await caches.open(CACHE);
  const page = await cache.match(`/offline/${await readerLanguage(url)}`);
  return page || new Response("You are offline.", { status: 503, headers: { "content-type": "text/plain; charset=utf-8" } });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // The network's page, never kept; the offline page only when the network cannot be reached at all.
    event.respondWith(fetch(request).catch(() => offlinePage(url)));
  } else if (KEPT.has(url.pathname)) {
    event.respondWith(fetch(request).catch(() => caches.open(CACHE).then((cache) => cache.match(url.pathname))
      .then((kept) => kept || Response.error())));
  }
});

// An address of this site only: a push never sends the player elsewhere.
function ownAddress(value) {
  try {
    const url = new URL(String(value || "/"), self.location.origin);
    return url.origin === self.location.origin ? url.href : new URL("/", self.location.origin).href;
  } catch {
    return new URL("/", self.location.origin).href;
  }
}

self.addEventListener("push", (event) => {
  let data = {};
  if (event.data) {
    try {
      data = event.data.json() || {};
    } catch {
      data = { body: event.data.text() };
    }
  }
  const url = ownAddress(data.url);
  const options = {
    body: String(data.body || ""),
    icon: "/static/icons/icon-192.png",
    badge: "/static/icons/icon-192.png",
    data: { url, id: Number.isInteger(data.id) ? data.id : null },
  };
  if (data.tag) options.tag = String(data.tag);
  event.waitUntil(self.registration.showNotification(String(data.title || "barbu"), options));
});

// A notification opened is read: the bell of every open page says so (routes/notices.py, POST /api/notices/read).
function markRead(id) {
  if (!Number.isInteger(id)) return Promise.resolve();
  return fetch("/api/notices/read", {
    method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" }, body: JSON.stringify({ id }),
  }).catch(() => {});
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = ownAddress(event.notification.data && event.notification.data.url);
  const read = markRead(event.notification.data && event.notification.data.id);
  event.waitUntil((async () => {
    await read;
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const same = windows.find((w) => w.url === url);
    if (same) return same.focus();
    const other = windows.find((w) => "navigate" in w);
    if (other) {
      const moved = await other.navigate(url).catch(() => null);
      if (moved) return moved.focus().catch(() => moved);
    }
    return self.clients.openWindow(url);
  })());
});
