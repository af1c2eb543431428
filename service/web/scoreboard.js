// The wall screen's entry point (README: Scoreboard). The page's address says what it
// shows: /v1/tournaments/{id}/scoreboard (chess; a team tournament gets the team screen)
// or /v1/bridge/events/{id}/scoreboard.
// Query options: `page` = seconds each page of a long table stays up (default 10),
// `token` = a viewer token for a private tournament (sent as a bearer token to the REST
// resources and as `token` to the live feed).

import { BridgeBoard } from "./bridge.js";
import { ChessBoard } from "./chess.js";
import { clock, setText } from "./dom.js";
import { LiveFeed } from "./feed.js";
import { share } from "./fit.js";
import { Panel } from "./pager.js";
import { TEAM_SYSTEMS, TeamBoard } from "./team.js";

const where = /^(.*)\/(tournaments|bridge\/events)\/([^/]+)\/scoreboard\/?$/.exec(location.pathname);
const options = new URLSearchParams(location.search);
const seconds = Math.min(120, Math.max(2, Number(options.get("page")) || 10));
const token = options.get("token");
const LEAST_SHARE = 0.34;  // the narrower of two panels keeps at least this share of the width

const $ = id => document.getElementById(id);

class HttpProblem extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

const screen = {
  left: new Panel($("left"), seconds),
  right: new Panel($("right"), seconds),

  async api(path) {
    const headers = { Accept: "application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await fetch(path, { headers, cache: "no-store" });
    if (!response.ok) {
      let detail = response.statusText;
      try { detail = (await response.json()).detail || detail; } catch { /* not JSON */ }
      throw new HttpProblem(response.status, detail);
    }
    return response.json();
  },

  title(text) {
    setText($("title"), text);
    if (document.title !== text) document.title = text;
  },

  subtitle(text) {
    setText($("subtitle"), text);
  },

  say(text) {
    setText($("ticker"), `${clock(new Date())} · ${text}`);
  },

  /** One panel across the screen (`on`), or two side by side. */
  wide(on) {
    document.body.classList.toggle("wide", on);
    this.balance();
  },

  /** Share the screen's width between two panels by what their tables need: the smaller
   * need is met first and the room left is split evenly, but neither panel gets less
   * than a third of the width (the standings beside a long pairing list stay usable). */
  balance() {
    const panels = [this.left, this.right];
    for (const panel of panels) panel.section.style.flex = "";
    if (panels.some(panel => panel.section.hidden)) return;
    const total = panels.reduce((sum, panel) => sum + panel.section.offsetWidth, 0);
    const least = total * LEAST_SHARE;
    const [left] = share(panels.map(panel => panel.need()), total);
    const width = Math.min(total - least, Math.max(least, left));
    this.left.section.style.flex = `${width} 1 0`;
    this.right.section.style.flex = `${total - width} 1 0`;
    for (const panel of panels) panel.layout();
  },

  problem(error) {
    if (error instanceof HttpProblem && error.status === 404) {
      setText($("subtitle"), "This tournament does not exist (any more).");
    }
    // other failures (the server restarting) show as the connection state
    console.warn("scoreboard:", error.message);
  },

  connection(state, detail) {
    const line = $("connection");
    line.dataset.state = state;
    document.body.dataset.connection = state;
    if (state === "live") setText(line, "Live");
    else if (state === "connecting") setText(line, "Connecting…");
    else if (state === "missing") setText(line, "Not found");
    else setText(line, detail && detail.seconds > 0
      ? `Connection lost · reconnecting in ${detail.seconds} s`
      : "Connection lost · reconnecting…");
  },
};

/** The screen a tournament gets: the team screen for a team system. Read before the feed
 * starts (nothing is missed: its snapshot comes after); retried while the server cannot
 * answer, and the chess screen when the tournament is not found (it says so). */
async function chessScreen(base) {
  for (let delay = 1; ; delay = Math.min(30, delay * 2)) {
    try {
      const info = await screen.api(base);
      return TEAM_SYSTEMS.has(info.system) ? TeamBoard : ChessBoard;
    } catch (error) {
      if (error instanceof HttpProblem && error.status < 500) return ChessBoard;
      await new Promise(resolve => setTimeout(resolve, delay * 1000));
    }
  }
}

async function main() {
  if (!where) {
    setText($("subtitle"), "Open this page as /v1/tournaments/{id}/scoreboard.");
    return;
  }
  const [, prefix, kind, id] = where;
  const base = `${prefix}/${kind}/${encodeURIComponent(decodeURIComponent(id))}`;
  const Board = kind === "tournaments" ? await chessScreen(base) : BridgeBoard;
  const board = new Board(screen, base);
  // The compact delta: a result that moves most ranks costs a list of ranks, not a patch
  // per row (README: Live).
  const query = new URLSearchParams({ delta: "compact" });
  if (token) query.set("token", token);
  const live = `${base}/live?${query}`;
  const feed = new LiveFeed(live, {
    snapshot: message => board.snapshot(message),
    event: message => board.event(message),
    settled: () => board.settled(),
    state: (state, detail) => screen.connection(state, detail),
  });
  // The feed starts first: the REST reads follow its snapshot, so nothing that happens
  // in between is missed.
  feed.start();
  for (let delay = 1; ; delay = Math.min(30, delay * 2)) {
    try {
      await board.load();
      return;
    } catch (error) {
      screen.problem(error);
      if (error instanceof HttpProblem && error.status === 404) return;
      await new Promise(resolve => setTimeout(resolve, delay * 1000));
    }
  }
}

main();
