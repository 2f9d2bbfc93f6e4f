/* The service worker of web push notifications, served at /sw.js (accounts/views.py): it shows
   each push the site sends (games/notifications/webpush.py) and opens its page on a click. */
"use strict";

const ICON = "{{ icon|escapejs }}";
const SITE_NAME = "{{ site_name|escapejs }}";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

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
