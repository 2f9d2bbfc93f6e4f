/* The dice of a finished match checked in this browser (docs/dice.md), with no server's word
   taken for it: the page fetches the match's published log (data-record-url), checks with
   WebCrypto that the revealed server seed's SHA-256 is the commitment of the first event, and
   recomputes every roll with HMAC-SHA256 from the seeds, then ticks each roll of the table (or
   says how it differs). The sentences are the page's, in its language (<template
   data-dice-says>). */
(function () {
  "use strict";

  const panel = document.querySelector("[data-browser-check]");
  if (!panel) return;
  const status = panel.querySelector("[data-browser-status]");
  const sentences = panel.querySelector("template[data-dice-says]").content;
  const ROLL_KINDS = ["opening_roll", "roll"];

  function sentence(key, values) {
    const found = sentences.querySelector(`[data-say="${key}"]`);
    let text = found ? found.textContent.trim().replace(/\s+/g, " ") : key;
    for (const [name, value] of Object.entries(values || {})) {
      text = text.split(`{${name}}`).join(String(value));
    }
    return text;
  }

  function say(key, values) {
    panel.dataset.browserVerified = key;
    status.textContent = sentence(key, values);
  }

  if (!(window.crypto && crypto.subtle && window.TextEncoder)) {
    say("unsupported");
    return;
  }

  // Python's json.dumps with its defaults: ", " between items, every character outside
  // printable ASCII written as \uXXXX (JSON.stringify already escapes the control ones).
  function pythonJson(items) {
    const written = items.map((item) =>
      JSON.stringify(item).replace(
        /[^\x20-\x7e]/g,
        (character) => "\\u" + character.charCodeAt(0).toString(16).padStart(4, "0"),
      ),
    );
    return `[${written.join(", ")}]`;
  }

  function hexBytes(hex) {
    if (!/^([0-9a-f]{2})*$/i.test(hex)) return null;
    return Uint8Array.from(hex.match(/../g) || [], (pair) => parseInt(pair, 16));
  }

  function hexOf(buffer) {
    return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
  }

  async function rollFromSeeds(key, seeds, index) {
    const dice = [];
    for (let block = 0; dice.length < 2; block += 1) {
      const message = new TextEncoder().encode(pythonJson([seeds[0], seeds[1], index, block]));
      const digest = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
      for (const byte of digest) if (byte < 252) dice.push((byte % 6) + 1);
    }
    return dice.slice(0, 2);
  }

  function mark(index, agrees, rolled, expected) {
    const cell = document.querySelector(`tr[data-roll="${index}"] [data-browser-verdict]`);
    if (!cell) return;
    cell.dataset.agrees = agrees ? "yes" : "no";
    cell.textContent = agrees
      ? sentence("roll-verified")
      : sentence("roll-differs", { rolled: rolled.join("-"), expected: expected.join("-") });
  }

  async function check(events) {
    const started = events[0] && events[0].payload && events[0].payload.dice;
    const revealed = events.find((event) => event.kind === "dice_revealed");
    if (!started) return say("no-record");
    if (!revealed) return say("not-yet");
    const seed = hexBytes(String(revealed.payload.server_seed));
    const seeds = started.player_seeds.map(String);
    const committed = seed && hexOf(await crypto.subtle.digest("SHA-256", seed));
    if (!seed || committed !== String(started.server_seed_commitment)) {
      return say("commitment-differs");
    }
    const key = await crypto.subtle.importKey(
      "raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"],
    );
    const differing = [];
    let index = 0;
    for (const event of events) {
      if (!ROLL_KINDS.includes(event.kind)) continue;
      const rolled = event.payload.dice.map(Number);
      const expected = await rollFromSeeds(key, seeds, index);
      const agrees = rolled[0] === expected[0] && rolled[1] === expected[1];
      mark(index, agrees, rolled, expected);
      if (!agrees) differing.push(index);
      index += 1;
    }
    if (differing.length) {
      say("rolls-differ", { rolls: differing.join(", "), count: index });
    } else {
      say("verified", { count: index });
    }
  }

  say("checking");
  fetch(panel.dataset.recordUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then((answer) => {
      if (!answer.ok) throw new Error(String(answer.status));
      return answer.json();
    })
    .then(check)
    .catch(() => say("no-record"));
})();
