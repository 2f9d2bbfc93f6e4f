/* The site's service worker, served at /sw.js (games/views/install.py). It shows each push the
   site sends (games/notifications/webpush.py) and opens its page on a click; and it keeps the
   app shell, the lobby and each match page opened here, so that the installed app shows them
   offline, as last seen and saying so, and an offline page for anything else. */
"use strict";

const ICON = "{{ icon|escapejs }}";
const SITE_NAME = "{{ site_name|escapejs }}";
const SHELL = "shell-{{ version|escapejs }}";
const PAGES = "pages";
const APP_SHELL = {{ app_shell|safe }};
const OFFLINE_PAGE = "{{ offline_page|escapejs }}";
const STATIC_URL = "{{ static_url|escapejs }}";
// The pages kept for offline use (the lobby, a match page: games/urls.py), and those never
// answered by the worker (the API, signing in and out, the admin).
const KEPT = [/^\/$/, /^\/matches\/[0-9]{1,18}\/$/];
const NEVER = ["/api/", "/accounts/", "/admin/"];
const SEEN_AT = "X-Seen-At";

self.addEventListener("install", (event) => {
  // Each file on its own: one missing file must not stop the worker (and web push) installing.
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => Promise.all(APP_SHELL.map((url) => cache.add(url).catch(() => null))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((name) => name !== SHELL && name !== PAGES).map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    // Signing in or out: the pages kept were another player's.
    if (url.pathname.startsWith("/accounts/")) event.waitUntil(caches.delete(PAGES));
    return;
  }
  if (NEVER.some((prefix) => url.pathname.startsWith(prefix))) {
    if (request.mode === "navigate") event.respondWith(fetch(request).catch(offlinePage));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(navigate(request, url));
  } else if (url.pathname.startsWith(STATIC_URL)) {
    event.respondWith(staticFile(request));
  }
});

/* Network first; a kept page is kept anew on each visit, and shown as last seen offline. */
async function navigate(request, url) {
  const kept = KEPT.some((pattern) => pattern.test(url.pathname));
  const key = url.origin + url.pathname;
  try {
    const response = await fetch(request);
    if (kept && response.status === 200 && !response.redirected) {
      const body = await response.clone().text();
      const headers = new Headers(response.headers);
      headers.set(SEEN_AT, new Date().toISOString());
      const copy = new Response(body, { status: 200, headers });
      await caches.open(PAGES).then((cache) => cache.put(key, copy));
    }
    return response;
  } catch (error) {
    const seen = kept ? await caches.open(PAGES).then((cache) => cache.match(key)) : undefined;
    return seen ? lastSeen(seen) : offlinePage();
  }
}

/* A kept page with its note "You are offline: this is the page as last seen at ..." shown. */
async function lastSeen(response) {
  const seenAt = response.headers.get(SEEN_AT) || "";
  const html = await response.text();
  const language = (html.match(/<html lang="([^"]+)"/) || [])[1];
  let when = seenAt;
  try {
    when = new Date(seenAt).toLocaleString(language, { dateStyle: "medium", timeStyle: "short" });
  } catch (error) {
    /* an unknown language: the ISO time */
  }
  const shown = html
    .replace("data-offline-note hidden>", "data-offline-note>")
    .replace(
      "<time data-offline-seen></time>",
      `<time data-offline-seen datetime="${seenAt}">${when}</time>`,
    );
  const headers = new Headers(response.headers);
  headers.delete(SEEN_AT);
  return new Response(shown, { status: 200, headers });
}

async function offlinePage() {
  return (await caches.match(OFFLINE_PAGE)) || Response.error();
}

/* The site's own files: the network first (the newest), the copy kept when offline. */
async function staticFile(request) {
  try {
    const response = await fetch(request);
    if (response.status === 200) {
      const copy = response.clone();
      await caches.open(SHELL).then((cache) => cache.put(request, copy));
    }
    return response;
  } catch (error) {
    return (await caches.match(request)) || Response.error();
  }
}

self.addEventListener("push", (event) => {
  let news = {};
  try {
    news = event.data ? event.data.json() : {};
  } catch (error) {
    news = { body: event.data.text() };
  }
  const url = pageOf(news.url);
  event.waitUntil(
    self.registration.showNotification(news.title || SITE_NAME, {
      body: news.body || "",
      icon: ICON,
      // A newer push about the same page replaces the older one.
      tag: url,
      data: { url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = pageOf(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url && "focus" in client);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});

/* The page a push links to: an http(s) address, else the lobby. */
function pageOf(link) {
  try {
    const url = new URL(link || "/", self.location.origin);
    if (url.protocol === "https:" || url.protocol === "http:") return url.href;
  } catch (error) {
    /* not an address: the lobby */
  }
  return new URL("/", self.location.origin).href;
}
