// Pushed updates on the lobby: a WebSocket (games/consumers.py) says that one of the player's
// matches or challenges changed, and the page fetches its lists again through the lobby's view
// (?part=lobby) and swaps them in. While the socket is open the poll (data-lobby-poll, every
// 15 s) is cancelled before it is sent; while it is closed the poll goes on, and the socket is
// tried again with a growing delay.
(function () {
  "use strict";

  var socket = null;
  var retryDelay = 1000;

  function poller() {
    return document.querySelector("[data-lobby-poll]");
  }

  function fetchLobby() {
    htmx.ajax("GET", poller().getAttribute("hx-get"), {
      source: document.getElementById("lobby-live"),
      target: "#lobby-live",
      select: "#lobby-live",
      swap: "outerHTML",
    });
  }

  function connect(path) {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + path);
    socket.addEventListener("open", function () {
      retryDelay = 1000;
      document.documentElement.dataset.push = "open";
    });
    socket.addEventListener("message", function (event) {
      if (JSON.parse(event.data).type === "lobby") {
        fetchLobby();
      }
    });
    socket.addEventListener("close", function () {
      socket = null;
      delete document.documentElement.dataset.push;
      setTimeout(function () {
        connect(path);
      }, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 30000);
    });
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var open = socket !== null && socket.readyState === WebSocket.OPEN;
    if (open && event.detail.elt.hasAttribute("data-lobby-poll")) {
      event.preventDefault();
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var source = poller();
    if (source && "WebSocket" in window) {
      connect(source.dataset.pushPath);
    }
  });
})();
