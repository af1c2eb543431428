// The chess wall screen: the start list before the start; then the standings beside the
// current round's pairings and results, all in plain words ("Round 3 · result on table
// 5: 1–0"). It reads the REST resources when it starts, after a snapshot and when a
// round is complete; everything else comes from the live feed.

import { el, fixed, points } from "./dom.js";
import { LiveBoard } from "./feed.js";

/** Events after which the standings may differ (the feed sends the table with the
 * newest of them; when it does not, the table is fetched). */
const MOVING = new Set(["tournament_started", "result_confirmed", "result_corrected",
  "round_paired", "imported"]);

const RESULTS = {
  "1-0": "1 – 0", "0-1": "0 – 1", "1/2-1/2": "½ – ½",
  "+-": "1 – 0 forfeit", "-+": "0 – 1 forfeit", "--": "no game",
};

const BYES = {
  "half-point": "half-point bye", "zero-point": "bye (no points)",
  "full-point": "full-point bye", "pairing-allocated": "bye",
};

export function resultText(result) {
  return RESULTS[result] || result;
}

function standingsColumns(standings) {
  const base = [
    { label: "#", cls: "num", value: r => r.rank },
    { label: "No", cls: "num dim", value: r => r.start_number },
    { label: "Name", cls: "name", value: r => r.name },
    { label: "Rtg", cls: "num dim", value: r => r.rating || "" },
  ];
  if (standings.order === "PF") {  // FLAMPARK (seed 000): ordered by PF
    return base.concat([
      { label: "PF", cls: "num strong", value: r => fixed(r.flampark?.PF, 2) },
      { label: "Ru", cls: "num", value: r => fixed(r.flampark?.Ru, 0) },
      { label: "G", cls: "num", value: r => r.flampark?.games_counted ?? "–" },
      { label: "Pts", cls: "num", value: r => points(r.points) },
      { label: "PP", cls: "num", value: r => fixed(r.flampark?.PP, 2) },
    ]);
  }
  return base.concat([{ label: "Pts", cls: "num strong", value: r => points(r.points) }],
    (standings.tiebreaks || []).map(code => (
      { label: code, cls: "num", value: r => fixed(r.tiebreaks?.[code], 2) })));
}

export class ChessBoard extends LiveBoard {
  constructor(screen, base) {
    super(screen, base, { idKey: "start_number", key: "standings", path: "standings", moving: MOVING });
    this.players = [];
    this.byNumber = new Map();
    this.round = null;
    this.resyncWanted = false;
  }

  async load() {
    await this.fetchInfo();
    this.render();
  }

  async fetchInfo() {
    const info = await this.screen.api(this.base);
    const players = await this.screen.api(`${this.base}/players`);
    this.players = players;
    this.byNumber = new Map(players.filter(p => p.start_number !== null)
      .map(p => [p.start_number, p]));
    this.info = info;  // last: render() draws only once everything is in
  }

  /** Read the tournament, its players and the current round again, then apply the
   * events that came meanwhile. */
  async sync() {
    if (this.syncing) {
      this.resyncWanted = true;
      return this.syncing;
    }
    this.syncing = (async () => {
      try {
        await this.fetchInfo();
        const number = this.info.current_round;
        this.round = this.info.status !== "registration" && number >= 1
          ? await this.screen.api(`${this.base}/rounds/${number}`) : null;
      } catch (error) {
        this.screen.problem(error);
      } finally {
        this.syncing = null;
      }
      const pending = this.pending.splice(0);
      for (const message of pending) this.apply(message);
      if (this.resyncWanted) {
        this.resyncWanted = false;
        await this.sync();
      }
      this.render();
    })();
    return this.syncing;
  }

  snapshot(message) {
    if (message.standings) this.table.replace(message.standings);
    this.highlight = new Set();
    this.tableStale = false;
    if (this.info) this.info.status = message.status ?? this.info.status;
    this.sync();
  }

  name(number) {
    const player = this.byNumber.get(number);
    return player ? player.name : `No ${number}`;
  }

  apply(message) {
    const payload = message.payload || {};
    switch (message.event) {
      case "player_added":
        this.screen.say(`New entry: ${payload.name ?? "a player"}`);
        this.later("players", () => this.sync(), 300);
        break;
      case "player_updated":
        if (payload.withdrawn === true) {
          const player = this.players.find(p => p.id === payload.id);
          this.screen.say(`${player ? player.name : "A player"} has withdrawn`);
        }
        this.later("players", () => this.sync(), 300);
        break;
      case "player_removed":
        this.later("players", () => this.sync(), 300);
        break;
      case "tournament_started":
        this.screen.say("The tournament has started");
        this.later("sync", () => this.sync(), 0);
        break;
      case "imported":
        this.later("sync", () => this.sync(), 0);
        break;
      case "round_paired":
        this.paired(payload);
        break;
      case "result_reported":
      case "result_confirmed":
      case "result_disputed":
      case "result_corrected":
        this.result(message.event, payload);
        break;
      default:
        break;
    }
  }

  paired(payload) {
    this.round = {
      round: payload.round,
      games: (payload.games || []).map(([table, white, black]) => (
        { table, white, black, result: null, status: "pending" })),
      byes: (payload.byes || []).map(([player, type]) => ({ player, type })),
    };
    if (this.info) this.info.current_round = payload.round;
    this.screen.say(`Round ${payload.round} · pairings are out`);
  }

  result(kind, payload) {
    const where = `Round ${payload.round} · `;
    const players = `${this.name(payload.white)} – ${this.name(payload.black)}`;
    const text = resultText(payload.result);
    if (kind === "result_confirmed") {
      this.screen.say(`${where}result on table ${payload.table}: ${text} (${players})`);
    } else if (kind === "result_corrected") {
      this.screen.say(`${where}table ${payload.table} corrected to ${text} (${players})`);
    } else if (kind === "result_reported") {
      this.screen.say(`${where}table ${payload.table}: ${text} reported, awaiting confirmation`);
    } else {
      this.screen.say(`${where}table ${payload.table}: the players disagree, the arbiter decides`);
    }
    const round = this.round;
    if (!round || round.round !== payload.round) return;
    const game = round.games.find(g => g.table === payload.table);
    if (!game) return;
    game.result = payload.result;
    game.status = payload.status;
    if (round.games.every(g => g.status === "confirmed")) {
      this.later("sync", () => this.sync(), 500);  // the next round, or the end
    }
  }

  render() {
    const info = this.info;
    if (!info) return;
    this.screen.title(info.name);
    if (info.status === "registration") {
      this.renderEntries();
      return;
    }
    this.renderStandings();
    this.renderRound();
  }

  renderEntries() {
    const entries = this.players.filter(p => !p.withdrawn)
      .sort((a, b) => (b.rating - a.rating) || a.name.localeCompare(b.name))
      .map((p, index) => ({ ...p, order: index + 1 }));
    const count = entries.length;
    this.screen.subtitle(`Registration open · ${count} ${count === 1 ? "player" : "players"} registered`);
    const federation = entries.some(p => p.federation);
    const columns = [
      { label: "#", cls: "num dim", value: p => p.order },
      { label: "Name", cls: "name", value: p => p.name },
      { label: "Rating", cls: "num", value: p => p.rating || "" },
    ];
    if (federation) columns.push({ label: "Fed", cls: "num dim", value: p => p.federation || "" });
    this.screen.left.show("Registered players", columns, entries,
      { key: p => p.id, empty: "No players registered yet" });
    this.screen.right.hide();
    this.screen.wide(true);
  }

  renderStandings() {
    const info = this.info;
    const standings = this.table.document;
    const rows = this.table.list();
    const after = standings && standings.round ? ` after round ${standings.round}` : "";
    const final = info.status === "finished";
    this.screen.left.show(final ? "Final standings" : `Standings${after}`,
      standingsColumns(standings || {}), rows,
      { key: r => r.start_number, highlight: this.highlight, empty: "No standings yet" });
  }

  renderRound() {
    const info = this.info;
    const round = this.round;
    const total = info.rounds ? ` of ${info.rounds}` : "";
    if (!round) {
      this.screen.subtitle(info.status === "finished" ? "Final standings" : "Waiting for the pairings");
      this.screen.right.hide();
      this.screen.wide(true);
      return;
    }
    const done = round.games.filter(g => g.status === "confirmed").length;
    const count = round.games.length;
    this.screen.subtitle(info.status === "finished"
      ? `Final standings · ${info.rounds || round.round} rounds played`
      : `Round ${round.round}${total} · ${done} of ${count} ${count === 1 ? "result" : "results"} in`);
    const rows = round.games.map(g => ({ ...g, key: `t${g.table}` }))
      .concat(round.byes.map(b => ({ key: `b${b.player}`, table: null, white: b.player,
        black: null, result: null, status: "bye", bye: b.type })));
    const columns = [
      { label: "Table", cls: "num", value: g => g.table ?? "" },
      { label: "White", cls: "name", value: g => this.name(g.white) },
      { label: "Result", cls: "result", value: g => this.resultCell(g) },
      { label: "Black", cls: "name", value: g => (g.black === null ? "" : this.name(g.black)) },
    ];
    this.screen.right.show(`Round ${round.round} pairings`, columns, rows,
      { key: g => g.key, empty: "No games this round" });
    this.screen.wide(false);
  }

  resultCell(game) {
    if (game.status === "bye") return el("span", "dim", BYES[game.bye] || "bye");
    if (game.status === "disputed") return el("span", "warn", "disputed");
    if (!game.result) return el("span", "dim", "playing");
    if (game.status === "provisional") {
      return el("span", "dim", resultText(game.result), el("small", null, " reported"));
    }
    return resultText(game.result);
  }
}
