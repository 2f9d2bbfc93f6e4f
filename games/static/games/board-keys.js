// The board by keyboard. Enter on a focused checker or point clicks it, and htmx answers as it
// answers a click. (htmx's own key filters are evaluated as code, which the
// Content-Security-Policy refuses.) The arrow keys move between the board's checkers and points
// in the order of play (from the bar and 24 down to 1 and off); R rolls, U undoes, D (or Enter
// with nothing focused on the board) finishes the turn. After an action the focus stays on the
// board, on what comes next, rather than going back to the top of the page. The listeners sit
// on the document, so they outlive htmx's swaps of the play area.
(function () {
  "use strict";

  var SHORTCUTS = { r: "roll", u: "undo", d: "done" };
  var NEXT_FOCUS = [
    "svg.board [data-destination]",
    "svg.board [data-selected][role=button]",
    "svg.board [data-movable]",
    '[data-action="done"]',
    '[data-action="roll"]',
    '[data-action="take"]',
    "svg.board",
  ];
  var actedOnBoard = false;

  function playArea() {
    return document.getElementById("play-area");
  }

  function typing(target) {
    return target instanceof Element &&
      target.closest("input, textarea, select, [contenteditable]") !== null;
  }

  function press(action) {
    var button = document.querySelector('#play-area [data-action="' + action + '"]');
    if (!button) return false;
    actedOnBoard = true;
    button.click();
    return true;
  }

  // Where a board button stands in the order of play: the checkers waiting to enter
  // (acey-deucey) and the bar first, then 24 down to 1, then off.
  function placeInPlay(element) {
    var holder = element.closest("[data-point]");
    var point = holder ? holder.getAttribute("data-point") : "";
    if (point === "in" || point === "bar") return 25;
    if (point === "off") return 0;
    return parseInt(point, 10) || 0;
  }

  function boardButtons() {
    var buttons = Array.prototype.slice.call(
      document.querySelectorAll('#play-area svg.board [role="button"]'));
    return buttons
      .map(function (element, index) { return { element: element, index: index }; })
      .sort(function (a, b) {
        return (placeInPlay(b.element) - placeInPlay(a.element)) || (a.index - b.index);
      })
      .map(function (entry) { return entry.element; });
  }

  function moveAlongTheBoard(from, step) {
    var buttons = boardButtons();
    if (!buttons.length) return;
    var at = buttons.indexOf(from);
    var next = at === -1 ? (step > 0 ? 0 : buttons.length - 1)
      : (at + step + buttons.length) % buttons.length;
    buttons[next].focus();
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
    var target = event.target;
    var onBoard = target instanceof Element && target.closest("svg.board") !== null;
    var key = event.key;
    if (onBoard && (key === "ArrowRight" || key === "ArrowDown")) {
      event.preventDefault();
      moveAlongTheBoard(target, 1);
    } else if (onBoard && (key === "ArrowLeft" || key === "ArrowUp")) {
      event.preventDefault();
      moveAlongTheBoard(target, -1);
    } else if (key.length === 1 && SHORTCUTS[key.toLowerCase()]) {
      if (press(SHORTCUTS[key.toLowerCase()])) event.preventDefault();
    } else if (key === "Enter" && (target === document.body || target.matches("svg.board"))) {
      if (press("done")) event.preventDefault();
    }
  });

  document.addEventListener("keyup", function (event) {
    var target = event.target;
    if (event.key === "Enter" && target instanceof Element &&
        target.matches('svg [role="button"][hx-get]')) {
      actedOnBoard = true;
      target.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    }
  });

  // An action begun from the play area, or a push while the focus is in it, brings the focus
  // back to it; a push while the player types in the chat leaves the focus where it is.
  document.addEventListener("htmx:beforeRequest", function () {
    var area = playArea();
    if (area && area.contains(document.activeElement)) actedOnBoard = true;
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (!actedOnBoard) return;
    actedOnBoard = false;
    for (var i = 0; i < NEXT_FOCUS.length; i++) {
      var next = document.querySelector("#play-area " + NEXT_FOCUS[i]);
      if (next) {
        next.focus({ preventScroll: true });
        return;
      }
    }
  });
})();
