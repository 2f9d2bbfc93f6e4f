// Pushed updates on the match page: a WebSocket (games/consumers.py) tells the page each new
// seq of its match, and the page then fetches its play area as htmx does after an action; when
// the players' conversation changed, a player's page fetches its chat messages the same way
// (a spectator's page has no chat, and the chat's view would give it nothing); when the
// rematch of a finished match was offered or answered, a player's page fetches its end panel. While
// the socket is open the 4 s poll of the play area (data-poll) is cancelled before it is sent;
// while it is closed the poll goes on (and the socket is tried again every few seconds), and
// the change it finds is fetched the same way instead of loading the whole page again; the chat
// is then fetched every 10 s. Each time the socket opens it says the match's seq first, so news
// sent while the page was loading or its socket was closed is fetched then.
(function () {
  "use strict";

  var socket = null;
  var retryDelay = 1000;
  var CHAT_POLL_MS = 10000;
  // The newest seq a push told of. Answers may arrive out of order (a pushed fetch and the
  // player's own action race): an older play area never replaces a newer one, and a page left
  // behind the news fetches it again.
  var heardSeq = 0;
  var SEQ_OF_PLAY_AREA = /id="play-area"[^>]*data-match-seq="(\d+)"/;

  function playArea() {
    return document.getElementById("play-area");
  }

  function shownSeq() {
    var area = playArea();
    return area ? Number(area.dataset.matchSeq) : NaN;
  }

  function refresh(seq) {
    heardSeq = Math.max(heardSeq, seq);
    if (seq > shownSeq()) {
      fetchPlayArea();
    }
  }

  function fetchPlayArea() {
    var pushed = document.querySelector("#play-area [data-push-path]");
    if (!pushed) {
      return;
    }
    var side = new URLSearchParams(location.search).get("side");
    htmx.ajax("GET", pushed.dataset.pageUrl + (side ? "?side=" + side : ""), {
      source: playArea(),
      target: "#play-area",
      select: "#play-area",
      swap: "outerHTML",
    });
  }

  function fetchChat() {
    var chat = document.getElementById("chat");
    if (!chat) {
      return;
    }
    htmx.ajax("GET", chat.dataset.chatUrl, {
      source: chat,
      target: "#chat-messages",
      select: "#chat-messages",
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
      var news = JSON.parse(event.data);
      if (news.type === "chat") {
        fetchChat();
      } else if (news.type === "rematch") {
        fetchPlayArea();
      } else {
        refresh(news.seq);
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

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "play-area" || !event.detail.shouldSwap) {
      return;
    }
    var found = SEQ_OF_PLAY_AREA.exec(event.detail.xhr.responseText);
    if (found && Number(found[1]) < shownSeq()) {
      event.detail.shouldSwap = false;
    }
  });

  // htmx takes over a swap's new content only when it settles, a moment later: a click or key
  // in between would post a bare form and load the whole page again. A message the page was
  // loaded with ("The match has started.") is old news once the play area has changed.
  document.addEventListener("htmx:afterSwap", function (event) {
    var area = playArea();
    if (area) {
      htmx.process(area);
    }
    var messages = document.querySelector("ul.messages");
    if (messages && event.detail.target && event.detail.target.id === "play-area") {
      messages.remove();
    }
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    if (heardSeq > shownSeq()) {
      fetchPlayArea();
    }
    var messages = document.getElementById("chat-messages");
    var url = event.detail.xhr ? event.detail.xhr.responseURL : "";
    if (messages && url.indexOf("/chat/messages/") !== -1) {
      messages.scrollTop = messages.scrollHeight;
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var pushed = document.querySelector("#play-area [data-push-path]");
    if (pushed && "WebSocket" in window) {
      connect(pushed.dataset.pushPath);
    }
    setInterval(function () {
      if (socket === null || socket.readyState !== WebSocket.OPEN) {
        fetchChat();
      }
    }, CHAT_POLL_MS);
  });
})();
