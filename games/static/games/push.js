// Pushed updates on the match page: a WebSocket (games/consumers.py) tells the page each new
// seq of its match, and the page then fetches its play area as htmx does after an action. While
// the socket is open the 4 s poll of the play area (data-poll) is cancelled before it is sent;
// while it is closed the poll goes on (and the socket is tried again every few seconds), and
// the change it finds is fetched the same way instead of loading the whole page again.
(function () {
  "use strict";

  var socket = null;
  var retryDelay = 1000;

  function playArea() {
    return document.getElementById("play-area");
  }

  function shownSeq() {
    var area = playArea();
    return area ? Number(area.dataset.matchSeq) : NaN;
  }

  function refresh(seq) {
    if (seq > shownSeq()) {
      fetchPlayArea();
    }
  }

  function fetchPlayArea() {
    var poller = document.querySelector("[data-poll]");
    if (!poller) {
      return;
    }
    var side = new URLSearchParams(location.search).get("side");
    htmx.ajax("GET", poller.dataset.pageUrl + (side ? "?side=" + side : ""), {
      source: playArea(),
      target: "#play-area",
      select: "#play-area",
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
      refresh(JSON.parse(event.data).seq);
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
    if (open && event.detail.elt.hasAttribute("data-poll")) {
      event.preventDefault();
    }
  });

  document.addEventListener("htmx:beforeOnLoad", function (event) {
    var changed = event.detail.xhr.getResponseHeader("HX-Redirect");
    if (changed && event.detail.elt.hasAttribute("data-poll")) {
      event.preventDefault();
      fetchPlayArea();
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var poller = document.querySelector("[data-poll][data-push-path]");
    if (poller && "WebSocket" in window) {
      connect(poller.dataset.pushPath);
    }
  });
})();
