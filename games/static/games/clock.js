// Clocks on the match page: the running clock counts down from the seconds the server gave
// when it drew the page (the browser's own clock is never trusted), and deadlines are shown in
// the viewer's timezone. Works across htmx swaps (a push, the player's own action): one timer
// for the page, and each tick looks the clocks up again, so a swapped-in clock counts down from
// the figure the server just gave. Times are said in the page's language (<html lang>).
(function () {
  "use strict";

  function pad(number) {
    return String(number).padStart(2, "0");
  }

  function clockText(seconds, live) {
    var whole = Math.max(0, Math.floor(seconds));
    var days = Math.floor(whole / 86400);
    var hours = Math.floor((whole % 86400) / 3600);
    var minutes = Math.floor((whole % 3600) / 60);
    var secs = whole % 60;
    if (live || days === 0) {
      hours += days * 24;
      return hours ? hours + ":" + pad(minutes) + ":" + pad(secs) : minutes + ":" + pad(secs);
    }
    var text = amount(days, "day");
    return hours ? text + " " + amount(hours, "hour") : text;
  }

  // "8 days", "8 ημέρες", "8 дней": a number of days or hours in the page's language.
  function amount(number, unit) {
    return new Intl.NumberFormat(language(), { style: "unit", unit: unit, unitDisplay: "long" })
      .format(number);
  }

  function language() {
    return document.documentElement.lang || undefined;
  }

  function tick() {
    var now = performance.now();
    document.querySelectorAll("[data-countdown]").forEach(function (clock) {
      if (!clock.dataset.shownAt) {
        clock.dataset.shownAt = String(now);
      }
      var left = Number(clock.dataset.countdown) - (now - Number(clock.dataset.shownAt)) / 1000;
      clock.textContent = clockText(left, clock.dataset.clockKind === "live");
      clock.classList.toggle("flagged", left <= 0);
    });
    document.querySelectorAll("time[data-local]").forEach(function (time) {
      if (time.dataset.localised) {
        return;
      }
      time.dataset.localised = "1";
      time.textContent = new Date(time.getAttribute("datetime")).toLocaleString(language(), {
        weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
      });
    });
  }

  tick();
  setInterval(tick, 250);
  document.addEventListener("htmx:afterSettle", tick);
})();
