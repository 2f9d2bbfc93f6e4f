// The site's menu on a phone: a button beside the name shows and hides the links (site.css
// folds them only once this script has taken the button, so without it they simply wrap).
(function () {
  "use strict";

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.querySelector(".site-nav .menu-button");
    if (!button) return;
    var nav = button.closest(".site-nav");
    nav.classList.add("folding");
    button.hidden = false;
    button.addEventListener("click", function () {
      var open = button.getAttribute("aria-expanded") !== "true";
      button.setAttribute("aria-expanded", open ? "true" : "false");
      nav.classList.toggle("open", open);
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && nav.classList.contains("open")) {
        button.setAttribute("aria-expanded", "false");
        nav.classList.remove("open");
        button.focus();
      }
    });
  });
})();
