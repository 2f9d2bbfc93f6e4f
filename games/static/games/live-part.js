// Pushed updates on a page with one live part (the lobby's lists, a tournament's bracket): a
// WebSocket (games/consumers.py) says that something changed, and the page fetches the part
// again through its usual view and swaps it in. The page's poller (data-live-poll) names all
// of it: the socket (data-push-path), the news it waits for (data-push-news), and the fetch
// (hx-get, hx-target, hx-select). While the socket is open the poll is cancelled before it is
// sent; while it is closed the poll goes on, and the socket is tried again with a growing delay.
// Each time the socket opens the part is fetched once, for what changed while nobody listened.
(function () {
  "use strict";

  var socket = null;
  var retryDelay = 1000;

  function poller() {
    return document.querySelector("[data-live-poll]");
  }

  function fetchPart() {
    var source = poller();
    var target = source.getAttribute("hx-target");
    htmx.ajax("GET", source.getAttribute("hx-get"), {
      source: document.querySelector(target),
      target: target,
      select: source.getAttribute("hx-select"),
      swap: "outerHTML",
    });
  }

  function connect(path, news) {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + path);
    socket.addEventListener("open", function () {
      retryDelay = 1000;
      document.documentElement.dataset.push = "open";
      // News sent before the socket was listening (between the page's answer and now, or
      // while it was closed) is not sent again, and the poll stops while it is open: the part
      // is fetched once to catch up.
      fetchPart();
    });
    socket.addEventListener("message", function (event) {
      if (JSON.parse(event.data).type === news) {
        fetchPart();
      }
    });
    socket.addEventListener("close", function () {
      socket = null;
      delete document.documentElement.dataset.push;
      setTimeout(function () {
        connect(path, news);
      }, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 30000);
    });
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var open = socket !== null && socket.readyState === WebSocket.OPEN;
    if (open && event.detail.elt.hasAttribute("data-live-poll")) {
      event.preventDefault();
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var source = poller();
    if (source && "WebSocket" in window) {
      connect(source.dataset.pushPath, source.dataset.pushNews);
    }
  });
})();
