/* "Enable notifications on this device" on the notification settings page: registers the
   service worker (/sw.js), asks the browser's permission, subscribes with the site's VAPID
   public key and sends the subscription to the server; "Disable" takes it back. One button
   shows at a time, and each refusal is said in the page's language (the sentences are in
   the page's <template data-webpush-says>). */
(function () {
  "use strict";

  const panel = document.querySelector("[data-webpush]");
  if (!panel) return;
  const status = panel.querySelector("[data-webpush-status]");
  const enable = panel.querySelector('[data-webpush-action="enable"]');
  const disable = panel.querySelector('[data-webpush-action="disable"]');
  const sentences = panel.querySelector("template[data-webpush-says]").content;

  function sentence(key) {
    const found = sentences.querySelector(`[data-say="${key}"]`);
    return found ? found.textContent.trim().replace(/\s+/g, " ") : key;
  }

  function say(key, detail) {
    status.dataset.webpushSaid = key;
    status.textContent = detail ? `${sentence(key)} ${detail}` : sentence(key);
  }

  function only(button) {
    enable.hidden = button !== enable;
    disable.hidden = button !== disable;
    enable.disabled = false;
    disable.disabled = false;
  }

  if (!("serviceWorker" in navigator && "PushManager" in window && "Notification" in window)) {
    only(null);
    panel.dataset.webpushState = "unsupported";
    say("unsupported");
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
    .catch(() => {
      panel.dataset.webpushWorker = "failed";
      only(null);
      say("no-worker");
    });

  enable.addEventListener("click", async () => {
    enable.disabled = true;
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        refused(permission === "denied" ? "blocked" : "dismissed");
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
        only(enable);
        say("not-enabled", await reasonOf(answer));
        return;
      }
      show(subscription);
    } catch (error) {
      refused(
        error.name === "NotAllowedError" && Notification.permission === "denied"
          ? "blocked"
          : "no-push-service",
      );
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
        if (!answer.ok && answer.status !== 404) {
          only(disable);
          say("not-disabled", await reasonOf(answer));
          return;
        }
        await subscription.unsubscribe();
      }
      show(null);
    } catch (error) {
      only(disable);
      say("not-disabled", error.message);
    }
  });

  function refused(key) {
    panel.dataset.webpushState = key;
    only(key === "blocked" ? null : enable);
    say(key);
  }

  function show(subscription) {
    if (!subscription && Notification.permission === "denied") {
      refused("blocked");
      return;
    }
    only(subscription ? disable : enable);
    panel.dataset.webpushState = subscription ? "enabled" : "disabled";
    say(subscription ? "on" : "off");
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
      return `(${answer.status})`;
    }
  }

  function keyBytes(base64url) {
    const padded = base64url + "=".repeat((4 - (base64url.length % 4)) % 4);
    const binary = atob(padded.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (character) => character.charCodeAt(0));
  }
})();
