// Every page registers the service worker (/sw.js): it shows web push notifications, and it
// keeps the lobby and the matches opened here for when the phone is offline.
(function () {
  "use strict";

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
      /* a browser that refuses workers still has every page online */
    });
  }
})();
