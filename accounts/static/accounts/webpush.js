/* "Enable notifications on this device" on the notification settings page: registers the
   service worker (/sw.js), asks the browser's permission, subscribes with the site's VAPID
   public key and sends the subscription to the server; "Disable" takes it back. */
(function () {
  "use strict";

  const panel = document.querySelector("[data-webpush]");
  if (!panel) return;
  const status = panel.querySelector("[data-webpush-status]");
  const enable = panel.querySelector('[data-webpush-action="enable"]');
  const disable = panel.querySelector('[data-webpush-action="disable"]');
  const say = (text) => {
    status.textContent = text;
  };

  if (!("serviceWorker" in navigator && "PushManager" in window && "Notification" in window)) {
    enable.hidden = true;
    disable.hidden = true;
    panel.dataset.webpushState = "unsupported";
    say("This browser cannot show the site's notifications.");
    return;
  }

  const registered = navigator.serviceWorker.register("/sw.js", { scope: "/" });
  registered
    .then((registration) => {
      panel.dataset.webpushWorker = "registered";
      return registration.pushManager.getSubscription();
    })
    .then((subscription) => {
      // Sent again on every visit: the server keeps its keys, and this player as its owner.
      if (subscription) send(panel.dataset.subscribeUrl, subscription.toJSON());
      show(subscription);
    })
    .catch((error) => {
      panel.dataset.webpushWorker = "failed";
      say(`Notifications cannot work here: ${error.message}`);
    });

  enable.addEventListener("click", async () => {
    enable.disabled = true;
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        say("The browser may not show the site's notifications: allow them in its site settings, then try again.");
        enable.disabled = false;
        return;
      }
      const registration = await registered;
      // One made with another key of the site's is refused by the push service: start anew.
      const old = await registration.pushManager.getSubscription();
      if (old) await old.unsubscribe();
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(panel.dataset.publicKey),
      });
      const answer = await send(panel.dataset.subscribeUrl, subscription.toJSON());
      if (!answer.ok) {
        await subscription.unsubscribe();
        throw new Error(await reasonOf(answer));
      }
      show(subscription);
    } catch (error) {
      say(`Notifications could not be enabled: ${error.message}`);
      enable.disabled = false;
    }
  });

  disable.addEventListener("click", async () => {
    disable.disabled = true;
    try {
      const registration = await registered;
      const subscription = await registration.pushManager.getSubscription();
      if (subscription) {
        const answer = await send(panel.dataset.removeUrl, { endpoint: subscription.endpoint });
        // 404: the server had forgotten it already.
        if (!answer.ok && answer.status !== 404) throw new Error(await reasonOf(answer));
        await subscription.unsubscribe();
      }
      show(null);
    } catch (error) {
      say(`Notifications could not be disabled: ${error.message}`);
      disable.disabled = false;
    }
  });

  function show(subscription) {
    enable.hidden = Boolean(subscription);
    disable.hidden = !subscription;
    enable.disabled = false;
    disable.disabled = false;
    panel.dataset.webpushState = subscription ? "enabled" : "disabled";
    say(
      subscription
        ? "Notifications are on for this device."
        : "Notifications are off for this device.",
    );
  }

  function send(url, body) {
    const token = document.querySelector("input[name=csrfmiddlewaretoken]");
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": token ? token.value : "" },
      body: JSON.stringify(body),
    });
  }

  async function reasonOf(answer) {
    try {
      return (await answer.json()).message;
    } catch (error) {
      return `the server answered ${answer.status}`;
    }
  }

  function keyBytes(base64url) {
    const padded = base64url + "=".repeat((4 - (base64url.length % 4)) % 4);
    const binary = atob(padded.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (character) => character.charCodeAt(0));
  }
})();
