// The team wall screen (docs/teams.md): the teams before the start; then the team
// standings (rank, team, match points, game points, tie-breaks) beside the current
// round's matches (home – away, the match score from the boards and, when the panel has
// room, each board's result). The team ranking comes from the live feed's `teams` delta
// (docs/live.md, team events); the matches are read over REST when a round is paired and
// kept current from the result events, board by board.

import { ChessBoard, resultText } from "./chess.js";
import { el, points } from "./dom.js";
import { LiveTable } from "./feed.js";

/** The team systems: their tournaments get this screen. */
export const TEAM_SYSTEMS = new Set(["team-swiss", "team-round-robin"]);

/** Codes the MP and GP columns already show (the primary scores; PTS is MPTS). */
const PRIMARY = new Set(["PTS", "MPTS", "GPTS"]);

/** A board result as the home team's score: [home, away], or null while open. */
const SCORES = {
  "1-0": [1, 0], "0-1": [0, 1], "1/2-1/2": [0.5, 0.5],
  "+-": [1, 0], "-+": [0, 1], "--": [0, 0],
};

/** A board's cell in the home player's column: the home side's score. */
const HOME_MARKS = {
  "1-0": "1", "0-1": "0", "1/2-1/2": "½", "+-": "+", "-+": "−", "--": "−",
};

/** A board result, White's score first, turned to the home side's: the board's `home`
 * colour (docs/teams.md#rounds; White on the odd boards as Arbiter seats a match). */
function homeResult(board) {
  const homeWhite = board.home ? board.home === "w" : board.board % 2 === 1;
  if (!board.result || homeWhite) return board.result;
  const swapped = { "1-0": "0-1", "0-1": "1-0", "+-": "-+", "-+": "+-" };
  return swapped[board.result] || board.result;
}

/** The match score from its confirmed boards: [home, away, boards still open]. */
export function matchScore(match) {
  let home = 0;
  let away = 0;
  let open = 0;
  for (const board of match.boards) {
    const score = board.status === "confirmed" ? SCORES[homeResult(board)] : null;
    if (!score) {
      open += 1;
      continue;
    }
    home += score[0];
    away += score[1];
  }
  return [home, away, open];
}

export class TeamBoard extends ChessBoard {
  constructor(screen, base) {
    super(screen, base);
    this.teams = new LiveTable("team");
    this.teamHighlight = new Set();
    this.teamList = [];
    this.teamNames = new Map();
    this.showBoards = true;
    // the boards' columns come and go with the room the panel has
    window.addEventListener("resize", () => this.later("fit", () => this.render(), 0));
  }

  async fetchInfo() {
    const teams = await this.screen.api(`${this.base}/teams`);
    this.teamList = teams;
    this.teamNames = new Map(teams.map(t => [t.id, t.name]));
    await super.fetchInfo();
  }

  teamName(number) {
    return this.teamNames.get(number) || `Team ${number}`;
  }

  snapshot(message) {
    this.teams.replace({ rows: (message.standings && message.standings.teams) || [] });
    this.teamHighlight = new Set();
    super.snapshot(message);
  }

  event(message) {
    super.event(message);
    const delta = message.teams;
    if (delta) {
      if (this.teams.apply(delta, delta.positions, delta.ranks)) {
        this.teamHighlight = new Set(delta.changed || []);
      } else {
        this.tableStale = true;  // a delta that does not fit: read the standings again
      }
    } else if (message.standings && !Array.isArray(message.positions)) {
      this.teams.replace({ rows: message.standings.teams || [] });  // sent whole
    }
  }

  async fetchTable() {
    try {
      const standings = await this.screen.api(`${this.base}/standings`);
      this.table.replace(standings);
      this.teams.replace({ rows: standings.teams || [] });
      this.tableStale = false;
      this.render();
    } catch (error) {
      this.screen.problem(error);
    }
  }

  paired(payload) {
    if (this.info) this.info.current_round = payload.round;
    this.screen.say(`Round ${payload.round} · the matches are paired`);
    this.later("sync", () => this.sync(), 0);  // the matches as stored
  }

  result(kind, payload) {
    const round = this.round;
    const found = round && round.round === payload.round && round.matches
      ? this.boardAt(round, payload.table) : null;
    const where = `Round ${payload.round} · `;
    const text = resultText(payload.result);
    if (!found) {
      this.screen.say(`${where}table ${payload.table}: ${text}`);
      return;
    }
    const [match, board] = found;
    const teams = `${this.teamName(match.home)} – ${this.teamName(match.away)}`;
    const on = `${teams}, board ${board.board}`;
    if (kind === "result_confirmed") this.screen.say(`${where}${on}: ${text}`);
    else if (kind === "result_corrected") this.screen.say(`${where}${on} corrected to ${text}`);
    else if (kind === "result_reported") this.screen.say(`${where}${on}: ${text} reported, awaiting confirmation`);
    else this.screen.say(`${where}${on}: the captains disagree, the arbiter decides`);
    board.result = payload.result;
    board.status = payload.status;
    if (round.matches.every(m => m.boards.every(b => b.status === "confirmed"))) {
      this.later("sync", () => this.sync(), 500);  // the next round, or the end
    }
  }

  boardAt(round, table) {
    for (const match of round.matches) {
      const board = match.boards.find(b => b.table === table);
      if (board) return [match, board];
    }
    return null;
  }

  renderEntries() {
    const boards = (this.info.team && this.info.team.boards) || 0;
    const byId = new Map(this.players.map(p => [p.id, p]));
    const rows = this.teamList.map(team => {
      const fielded = team.players.slice(0, boards).map(id => byId.get(id)).filter(Boolean);
      const rated = fielded.map(p => p.rating).filter(r => r > 0);
      const average = rated.length ? Math.round(rated.reduce((a, b) => a + b, 0) / rated.length) : null;
      return { ...team, count: team.players.length, average };
    });
    const count = rows.length;
    this.screen.subtitle(`Registration open · ${count} ${count === 1 ? "team" : "teams"} registered`);
    this.screen.left.show("Registered teams", [
      { label: "No", cls: "num dim", value: t => t.id },
      { label: "Team", cls: "name", value: t => t.name },
      { label: "Players", cls: "num", value: t => t.count },
      { label: `Avg (${boards} boards)`, cls: "num", value: t => t.average ?? "–" },
    ], rows, { key: t => t.id, empty: "No teams registered yet" });
    this.screen.right.hide();
    this.screen.wide(true);
  }

  renderStandings() {
    const info = this.info;
    const standings = this.table.document || {};
    const codes = (standings.tiebreaks || []).filter(code => !PRIMARY.has(code.toUpperCase()));
    const after = standings.round ? ` after round ${standings.round}` : "";
    const columns = [
      { label: "#", cls: "num", value: t => t.rank },
      { label: "Team", cls: "name", value: t => t.name || this.teamName(t.team) },
      { label: "MP", cls: "num strong", value: t => points(t.match_points) },
      { label: "GP", cls: "num", value: t => points(t.game_points) },
      ...codes.map(code => ({ label: code, cls: "num", value: t => points(t.tiebreaks?.[code]) })),
    ];
    this.screen.left.show(info.status === "finished" ? "Final standings" : `Team standings${after}`,
      columns, this.teams.list(),
      { key: t => t.team, highlight: this.teamHighlight, empty: "No standings yet" });
  }

  renderRound() {
    const info = this.info;
    const round = this.round;
    if (!round || !round.matches) {
      this.screen.subtitle(info.status === "finished" ? "Final standings" : "Waiting for the pairings");
      this.screen.right.hide();
      this.screen.wide(true);
      return;
    }
    const total = info.rounds ? ` of ${info.rounds}` : "";
    const done = round.matches.filter(m => matchScore(m)[2] === 0).length;
    const count = round.matches.length;
    this.screen.subtitle(info.status === "finished"
      ? `Final standings · ${info.rounds || round.round} rounds played`
      : `Round ${round.round}${total} · ${done} of ${count} ${count === 1 ? "match" : "matches"} complete`);
    const rows = round.matches.map(m => ({ ...m, key: `m${m.match}` }))
      .concat((round.byes || []).map(b => ({ key: `b${b.team}`, match: null, home: b.team,
        away: null, boards: [], bye: b.type })));
    this.showMatches(round, rows, this.showBoards);
    this.screen.wide(false);
    // each board's result only when it leaves the names whole at full type size
    if (this.showBoards && this.crowded()) {
      this.showMatches(round, rows, false);
      this.screen.balance();
    }
  }

  /** The matches panel: its type had to shrink or a team name is cut. */
  crowded() {
    const table = this.screen.right.table;
    if (Number(table.dataset.scale || "1") < 1) return true;
    return Array.from(table.querySelectorAll("td.name"))
      .some(cell => cell.scrollWidth > cell.clientWidth);
  }

  showMatches(round, rows, withBoards) {
    const columns = [
      { label: "#", cls: "num dim", value: m => m.match ?? "" },
      { label: "Home", cls: "name", value: m => this.teamName(m.home) },
      { label: "Score", cls: "result", value: m => this.scoreCell(m) },
      { label: "Away", cls: "name", value: m => (m.away === null ? "" : this.teamName(m.away)) },
    ];
    if (withBoards) {
      columns.push({ label: "Boards", cls: "result boards", value: m => this.boardsCell(m) });
    }
    this.screen.right.show(`Round ${round.round} matches`, columns, rows,
      { key: m => m.key, empty: "No matches this round" });
    this.screen.right.section.dataset.boards = withBoards ? "shown" : "hidden";
  }

  scoreCell(match) {
    if (match.bye) return el("span", "dim", match.bye === "free" ? "free" : "bye");
    const [home, away, open] = matchScore(match);
    const score = `${points(home)} – ${points(away)}`;
    if (match.forfeit) return el("span", null, score, el("small", "dim", " forfeit"));
    if (open === 0) return score;
    if (open === match.boards.length) return el("span", "dim", "playing");
    return el("span", "dim", score, el("small", null, ` · ${open} left`));
  }

  /** Each board's result as the home side's score, board 1 first ("1 ½ 0 1"): open
   * boards as a dot, reported ones dimmed, disputed ones as a question mark. */
  boardsCell(match) {
    if (match.bye) return "";
    const marks = match.boards.map(board => {
      if (board.status === "disputed") return el("span", "warn", "?");
      if (!board.result) return el("span", "dim", "·");
      const mark = HOME_MARKS[homeResult(board)] || board.result;
      return board.status === "confirmed" ? mark : el("span", "dim", mark);
    });
    const cell = el("span", null);
    marks.forEach((mark, at) => {
      if (at > 0) cell.append(" ");
      cell.append(mark instanceof Node ? mark : document.createTextNode(mark));
    });
    return cell;
  }
}
