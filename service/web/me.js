// A player's result page (docs/phone.md): report a result of the page's game with the
// token of the page's own address (sent as an Authorization header, never written into
// the page), and re-draw where the result stands from the API's answers.
"use strict";

(() => {
  const game = document.getElementById("game");
  if (!game) return;
  const token = new URLSearchParams(location.search).get("token") || "";
  const round = game.dataset.round;
  const table = Number(game.dataset.table);
  const colour = game.dataset.colour;
  const other = colour === "white" ? "black" : "white";
  const withdrawn = "withdrawn" in game.dataset;
  const statusLine = document.getElementById("status");
  const message = document.getElementById("message");
  const buttons = game.querySelector(".buttons");
  const shown = { "1-0": "1-0", "1/2-1/2": "½-½", "0-1": "0-1" };
  const show = result => (result == null ? "?" : shown[result] || result);
  const pending = new Map(); // result -> Idempotency-Key of a report not yet answered
  const REFRESH_MS = 20000;

  function key() {
    // crypto.randomUUID needs a secure context; a venue's plain http address is not one
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, b => b.toString(16).padStart(2, "0")).join("");
  }

  function headers(extra) {
    return Object.assign({ Authorization: "Bearer " + token }, extra || {});
  }

  // the same words as service/api/me_page.py status_text
  function statusText(g) {
    const mine = g.reports[colour];
    const theirs = g.reports[other];
    if (g.status === "confirmed") return "Confirmed: " + show(g.result);
    if (g.status === "disputed") {
      return "Disputed: you reported " + show(mine) + ", your opponent " + show(theirs) +
        "; the arbiter decides";
    }
    if (mine != null) {
      return "Provisional: you reported " + show(mine) + "; waiting for your opponent to confirm";
    }
    if (theirs != null) {
      return "Your opponent reported " + show(theirs) +
        ": report the same to confirm it, or your result to dispute it";
    }
    return "No result reported yet";
  }

  function draw(g) {
    statusLine.dataset.status = g.status;
    statusLine.textContent = statusText(g);
    // a withdrawn player's token reads but reports nothing
    buttons.hidden = withdrawn || !(g.status === "pending" || g.status === "provisional");
    for (const button of buttons.querySelectorAll("button")) {
      button.setAttribute("aria-pressed", String(button.dataset.result === g.reports[colour]));
    }
  }

  async function problem(response) {
    try {
      const body = await response.json();
      return body.detail || body.title || "the service answered " + response.status;
    } catch (_) {
      return "the service answered " + response.status;
    }
  }

  async function report(result) {
    if (!pending.has(result)) pending.set(result, key());
    message.textContent = "";
    buttons.setAttribute("aria-busy", "true");
    try {
      const response = await fetch("rounds/" + round + "/games/" + table + "/result", {
        method: "PUT",
        headers: headers({ "Content-Type": "application/json", "Idempotency-Key": pending.get(result) }),
        body: JSON.stringify({ result }),
        cache: "no-store",
        referrerPolicy: "no-referrer",
      });
      if (response.ok) {
        pending.delete(result);
        draw(await response.json());
      } else {
        pending.delete(result);
        message.textContent = await problem(response);
        await refresh();
      }
    } catch (_) {
      // no answer: the same tap retries with the same key, so nothing is reported twice
      message.textContent = "No connection: tap again to retry.";
    } finally {
      buttons.removeAttribute("aria-busy");
    }
  }

  async function refresh() {
    try {
      const response = await fetch("rounds/" + round, {
        headers: headers(), cache: "no-store", referrerPolicy: "no-referrer",
      });
      if (!response.ok) {
        message.textContent = await problem(response);
        return;
      }
      const found = (await response.json()).games.find(g => g.table === table);
      if (found) draw(found);
    } catch (_) {
      message.textContent = "No connection: the status may be out of date.";
    }
  }

  for (const button of buttons.querySelectorAll("button")) {
    button.addEventListener("click", () => report(button.dataset.result));
  }
  document.getElementById("refresh").addEventListener("click", () => {
    message.textContent = "";
    refresh();
  });
  setInterval(() => {
    const open = statusLine.dataset.status === "pending" || statusLine.dataset.status === "provisional";
    if (open && document.visibilityState === "visible") refresh();
  }, REFRESH_MS);
})();
