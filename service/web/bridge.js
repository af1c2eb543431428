// The bridge wall screen: the live ranking beside the current round's tables (pairs) or
// matches (teams) and how many of their results are in. The event and its results are
// read once; every later result comes from the live feed.

import { el, fixed } from "./dom.js";
import { LiveBoard } from "./feed.js";

const RESULT_EVENTS = new Set(
  ["bridge_result_entered", "bridge_result_corrected", "bridge_result_removed"]);
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣", N: "NT", NT: "NT" };
const SEATS = { N: "North", E: "East", S: "South", W: "West" };

/** "4SX" as people write it: 4♠×. */
export function contractText(contract) {
  if (!contract) return "";
  if (/^pass/i.test(contract)) return "passed out";
  const parts = /^([1-7])(NT|[SHDCN])(X{0,2})$/i.exec(contract);
  if (!parts) return contract;
  return parts[1] + SUITS[parts[2].toUpperCase()] + "×".repeat(parts[3].length);
}

function resultWords(result) {
  if (!result) return "result removed";
  if (result.adjusted) {
    return `adjusted score ${result.adjusted.ns_percent}% – ${result.adjusted.ew_percent}%`;
  }
  if (/^pass/i.test(result.contract || "")) return "passed out";
  const by = SEATS[result.declarer] ? ` by ${SEATS[result.declarer]}` : "";
  const tricks = result.tricks === null || result.tricks === undefined
    ? "" : `, ${result.tricks} tricks`;
  const score = typeof result.ns_score === "number"
    ? ` · NS ${result.ns_score > 0 ? "+" : ""}${result.ns_score}` : "";
  return `${contractText(result.contract)}${by}${tricks}${score}`;
}

/** Boards 1, 2, 3 as "1–3"; others listed. */
function boardsText(boards) {
  const run = boards.every((board, index) => index === 0 || board === boards[index - 1] + 1);
  return run && boards.length > 2 ? `${boards[0]}–${boards[boards.length - 1]}` : boards.join(", ");
}

function rankingColumns(kind, scoring) {
  const base = [
    { label: "#", cls: "num", value: r => r.rank },
    { label: "No", cls: "num dim", value: r => r.number },
    { label: kind === "teams" ? "Team" : "Pair", cls: "name", value: r => r.name },
  ];
  if (kind === "teams") {
    return base.concat([
      { label: "Matches", cls: "num", value: r => r.matches ?? "–" },
      { label: "VP", cls: "num strong", value: r => fixed(r.score, 2) },
      { label: "IMPs", cls: "num dim",
        value: r => `${fixed(r.imps_for, 0)} : ${fixed(r.imps_against, 0)}` },
    ]);
  }
  if (scoring === "matchpoints") {
    return base.concat([
      { label: "Boards", cls: "num", value: r => r.boards },
      { label: "MP", cls: "num", value: r => fixed(r.score, 1) },
      { label: "%", cls: "num strong", value: r => fixed(r.percent, 2) },
    ]);
  }
  return base.concat([
    { label: "Boards", cls: "num", value: r => r.boards },
    { label: "IMPs", cls: "num strong", value: r => fixed(r.score, 2) },
  ]);
}

export class BridgeBoard extends LiveBoard {
  constructor(screen, base) {
    super(screen, base, { idKey: "number", key: "ranking", path: "ranking", moving: RESULT_EVENTS });
    this.entered = new Set();
    this.names = new Map();
  }

  async load() {
    await this.fetchAll();
    this.render();
  }

  async fetchAll() {
    const info = await this.screen.api(this.base);
    const results = await this.screen.api(`${this.base}/results`);
    this.entered = new Set(results.map(r => `${r.table}:${r.board}`));
    this.names = new Map(info.entrants.map(e => [e.number, e.name]));
    this.info = info;  // last: render() draws only once everything is in
  }

  async sync() {
    if (this.syncing) return this.syncing;
    this.syncing = (async () => {
      try {
        await this.fetchAll();
      } catch (error) {
        this.screen.problem(error);
      } finally {
        this.syncing = null;
      }
      for (const message of this.pending.splice(0)) this.apply(message);
      this.render();
    })();
    return this.syncing;
  }

  snapshot(message) {
    if (message.ranking) this.table.replace(message.ranking);
    this.highlight = new Set();
    this.tableStale = false;
    this.sync();
  }

  apply(message) {
    if (!RESULT_EVENTS.has(message.event)) return;
    const p = message.payload || {};
    const key = `${p.table}:${p.board}`;
    if (message.event === "bridge_result_removed") this.entered.delete(key);
    else this.entered.add(key);
    const corrected = message.event === "bridge_result_corrected" ? "corrected to " : "";
    this.screen.say(
      `Round ${p.round} · table ${p.table}, board ${p.board}: ${corrected}${resultWords(p.result)}`);
  }

  /** The rounds as lists of sittings: {label, tables, boards, home, away, ns, ew}. */
  rounds() {
    const info = this.info;
    if (info.kind === "teams") {
      return (info.matches || []).map(r => ({ round: r.round, sittings: r.matches.map(m => (
        { home: m.home, away: m.away, tables: [m.open_table, m.closed_table], boards: m.boards })) }));
    }
    return (info.movement || []).map(r => ({ round: r.round, sittings: r.tables.map(t => (
      { ns: t.ns, ew: t.ew, tables: [t.table], boards: t.boards })) }));
  }

  entries(sitting) {
    let count = 0;
    for (const table of sitting.tables) {
      for (const board of sitting.boards) if (this.entered.has(`${table}:${board}`)) count += 1;
    }
    return count;
  }

  render() {
    const info = this.info;
    if (!info) return;
    this.screen.title(info.name);
    const rounds = this.rounds();
    const open = rounds.find(r => r.sittings.some(s => this.entries(s) < s.tables.length * s.boards.length));
    const current = open || rounds[rounds.length - 1];
    const total = rounds.reduce((sum, r) => sum + r.sittings.reduce(
      (s, x) => s + x.tables.length * x.boards.length, 0), 0);
    const method = info.kind === "teams" ? "Teams" : `Pairs · ${info.scoring}`;
    this.screen.subtitle(open
      ? `${method} · Round ${current.round} of ${rounds.length} · ${this.entered.size} of ${total} results in`
      : `${method} · final ranking`);
    const ranking = this.table.document;
    this.screen.left.show(open ? "Ranking" : "Final ranking",
      rankingColumns(info.kind, ranking?.scoring || info.scoring), this.table.list(),
      { key: r => r.number, highlight: this.highlight, empty: "No ranking yet" });
    if (current) this.renderRound(current);
    else this.screen.right.hide();
    this.screen.wide(!current);
  }

  renderRound(round) {
    const name = number => this.names.get(number) || `No ${number}`;
    const progress = s => {
      const done = this.entries(s);
      const all = s.tables.length * s.boards.length;
      return done === all ? el("span", "ok", "complete") : `${done} of ${all}`;
    };
    let columns;
    if (this.info.kind === "teams") {
      const matches = this.table.document?.matches || [];
      const line = s => matches.find(m => m.round === round.round && m.home === s.home && m.away === s.away);
      columns = [
        { label: "Match", cls: "name", value: s => `${name(s.home)} – ${name(s.away)}` },
        { label: "IMPs", cls: "num", value: s => (line(s) ? line(s).imps.join(" – ") : "") },
        { label: "VP", cls: "num strong",
          value: s => (line(s) ? line(s).vp.map(v => fixed(v, 2)).join(" – ") : "") },
        { label: "Boards in", cls: "num", value: progress },
      ];
    } else {
      columns = [
        { label: "Table", cls: "num", value: s => s.tables[0] },
        { label: "NS", cls: "name", value: s => name(s.ns) },
        { label: "EW", cls: "name", value: s => name(s.ew) },
        { label: "Boards", cls: "num dim", value: s => boardsText(s.boards) },
        { label: "Results in", cls: "num", value: progress },
      ];
    }
    this.screen.right.show(`Round ${round.round}`, columns, round.sittings,
      { key: s => s.tables.join("-"), empty: "No tables this round" });
  }
}
