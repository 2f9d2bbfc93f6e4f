// Shake to roll: on a phone, once the player has switched it on (iOS asks for permission on
// that tap), a shake of the device presses the Roll button. The server still rolls the dice.
// Works across htmx swaps: the button and the Roll button are looked up on every event.
(function () {
  "use strict";

  var ARMED = "backgammon.shakeToRoll";
  var THRESHOLD = 15; // m/s², the acceleration of a deliberate shake, gravity left out
  var QUIET_MS = 1500; // one shake, one roll
  var lastShake = 0;
  var listening = false;

  function supported() {
    if (typeof window.DeviceMotionEvent === "undefined") {
      return false;
    }
    var asks = typeof window.DeviceMotionEvent.requestPermission === "function";
    return asks || window.matchMedia("(pointer: coarse)").matches;
  }

  function strength(event) {
    var a = event.acceleration;
    var gravity = 0;
    if (!a || a.x === null) {
      a = event.accelerationIncludingGravity;
      gravity = 9.81;
    }
    if (!a || a.x === null) {
      return 0;
    }
    return Math.abs(Math.sqrt(a.x * a.x + a.y * a.y + a.z * a.z) - gravity);
  }

  function onMotion(event) {
    var now = Date.now();
    if (strength(event) < THRESHOLD || now - lastShake < QUIET_MS) {
      return;
    }
    var roll = document.querySelector('button[data-action="roll"]');
    if (roll && !roll.disabled) {
      lastShake = now;
      roll.click();
    }
  }

  function listen() {
    if (!listening) {
      window.addEventListener("devicemotion", onMotion);
      listening = true;
    }
    try {
      window.sessionStorage.setItem(ARMED, "1");
    } catch (error) {
      // Private browsing: shaking works until the page is reloaded.
    }
    showOffer();
  }

  function armed() {
    try {
      return window.sessionStorage.getItem(ARMED) === "1";
    } catch (error) {
      return false;
    }
  }

  function showOffer() {
    document.querySelectorAll("[data-shake]").forEach(function (offer) {
      offer.hidden = listening;
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-shake-to-roll]");
    if (!button) {
      return;
    }
    var ask = window.DeviceMotionEvent.requestPermission;
    if (typeof ask !== "function") {
      listen();
      return;
    }
    ask.call(window.DeviceMotionEvent).then(function (answer) {
      if (answer === "granted") {
        listen();
      } else {
        button.disabled = true;
        button.textContent = button.dataset.refused;
      }
    });
  });

  function start() {
    if (!supported()) {
      return;
    }
    if (armed()) {
      listen();
    }
    showOffer();
    document.body.addEventListener("htmx:afterSwap", showOffer);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
