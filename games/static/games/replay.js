// Replay: bring the current step into view inside the log's own scroll box, when the page
// loads and after each step htmx swaps in.
(function () {
  "use strict";

  function showCurrentStep() {
    var current = document.querySelector('#replay .log [aria-current="step"]');
    if (current) {
      current.parentNode.scrollTop = current.offsetTop - current.parentNode.clientHeight / 2;
    }
  }

  showCurrentStep();
  document.addEventListener("htmx:afterSettle", showCurrentStep);
})();
