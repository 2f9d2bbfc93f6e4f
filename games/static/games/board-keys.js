// The board's checkers and points are buttons to the keyboard too: Enter on the focused one
// clicks it, and htmx answers as it answers a click. (htmx's own key filters are evaluated as
// code, which the Content-Security-Policy refuses.) The listener sits on the document, so it
// outlives htmx's swaps of the board.
(function () {
  "use strict";

  document.addEventListener("keyup", function (event) {
    var target = event.target;
    if (event.key === "Enter" && target instanceof Element &&
        target.matches('svg [role="button"][hx-get]')) {
      target.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    }
  });
})();
