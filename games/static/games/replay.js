// Replay: the arrow keys step through it (Left and Right a step back or on, Home and End the
// first and last step, Up and Down a game's start) by following the page's own links, which
// htmx swaps in as it does a click; keys pressed while a step is on its way wait their turn,
// so three presses are three steps. After each swap the current step is brought into view
// inside the move list's and the log's own boxes, without scrolling the page.
(function () {
  "use strict";

  var KEYS = {
    ArrowLeft: 'a[rel="prev"]',
    ArrowRight: 'a[rel="next"]',
    Home: 'a[rel="first"]',
    End: 'a[rel="last"]',
    ArrowUp: 'a[data-game-step="earlier"]',
    ArrowDown: 'a[data-game-step="later"]',
  };
  var WIDE = window.matchMedia("(min-width: 56rem)");
  var waiting = [];
  var stepping = false;
  var logOpen = null;

  // The log is open beside the board on a wide screen and folded on a phone, until the
  // reader opens or folds it: then it stays so from step to step.
  function keepTheLogAsChosen() {
    var log = document.querySelector("#replay [data-replay-log]");
    if (!log) return;
    log.open = logOpen === null ? WIDE.matches : logOpen;
    log.addEventListener("toggle", function () {
      logOpen = log.open;
      if (log.open) showCurrentStep();
    });
  }

  function showCurrentStep() {
    var boxes = document.querySelectorAll("#replay .move-list-scroll, #replay .log");
    Array.prototype.forEach.call(boxes, function (box) {
      var current = box.querySelector('[aria-current="step"]');
      if (!current) return;
      var offset = current.getBoundingClientRect().top - box.getBoundingClientRect().top;
      box.scrollTop += offset - box.clientHeight / 2;
    });
  }

  // Keys that a focused control, or a focused box that scrolls, needs for itself are left to it.
  function keptByTarget(target, key) {
    if (!(target instanceof Element)) return false;
    if (target.closest("input, textarea, select, [contenteditable]")) return true;
    return target.matches('[role="region"]') && key.indexOf("Arrow") === 0;
  }

  function step(key) {
    var link = document.querySelector("#replay " + KEYS[key]);
    if (!link) return;
    stepping = true;
    link.click();
  }

  document.addEventListener("keydown", function (event) {
    if (!KEYS[event.key] || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (!document.getElementById("replay") || keptByTarget(event.target, event.key)) return;
    event.preventDefault();
    if (stepping) waiting.push(event.key);
    else step(event.key);
  });

  // Before the new step is painted, so that the log does not flicker open or shut.
  document.addEventListener("htmx:afterSwap", keepTheLogAsChosen);
  document.addEventListener("htmx:afterSettle", function () {
    showCurrentStep();
    stepping = false;
    if (waiting.length) step(waiting.shift());
  });
  document.addEventListener("htmx:responseError", function () {
    stepping = false;
    waiting = [];
  });
  document.addEventListener("htmx:sendError", function () {
    stepping = false;
    waiting = [];
  });

  keepTheLogAsChosen();
  showCurrentStep();
})();
