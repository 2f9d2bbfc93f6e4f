// The last play glides into place: each checker it moved (marked data-glide="dx,dy" by
// games/views/board.py, the offset back to where it started) slides from its start to where it
// stands, once per play shown in this tab (a reload or the viewer's roll does not repeat it).
// The checkers stay where they are for clicks throughout; nothing moves under reduced motion.
(function () {
  "use strict";

  var DURATION_MS = 400;
  var SEEN = "backgammon.lastPlay:";

  function seenBefore(key) {
    try {
      var seen = window.sessionStorage.getItem(SEEN + location.pathname) === key;
      window.sessionStorage.setItem(SEEN + location.pathname, key);
      return seen;
    } catch (error) {
      return false; // Storage refused: gliding again is harmless.
    }
  }

  function glide() {
    var board = document.querySelector("svg.board[data-last-play]");
    if (!board || typeof board.animate !== "function" || seenBefore(board.dataset.lastPlay)) {
      return;
    }
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) {
      return;
    }
    board.querySelectorAll("[data-glide]").forEach(function (checker) {
      var offset = checker.dataset.glide.split(",");
      var start = "translate(" + offset[0] + "px, " + offset[1] + "px)";
      checker.animate([{ transform: start }, { transform: "none" }], {
        duration: DURATION_MS,
        easing: "ease-out",
      });
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", glide);
  } else {
    glide();
  }
  document.addEventListener("htmx:afterSwap", glide);
})();
