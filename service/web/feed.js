// The live feed as the scoreboard follows it (README: Live). A `snapshot` gives the
// whole table; then one `event` per event in seq order (or several in a `batch`), the
// newest table-moving one carrying the table (`standings` or `ranking`) either whole or as
// a delta (changed rows as patches plus `positions`, every row id in order, and with
// `?delta=compact` `ranks`, every row's rank in that order); `ping` is a heartbeat. When
// the socket closes the feed reconnects with exponential backoff and `?since=<seq>` so
// the server replays what was missed (after a restart too).

const FIRST_DELAY = 1;       // seconds before the first retry, doubled per failure
const LONGEST_DELAY = 30;    // seconds: the backoff's ceiling
const MISSING_DELAY = 60;    // seconds between tries when the tournament is unknown
const SILENCE = 50_000;      // ms without any message, once pings were seen: reconnect

/** One table kept from snapshots and deltas: rows by id in table order. */
export class LiveTable {
  constructor(idKey) {
    this.idKey = idKey;
    this.document = null;
    this.rows = new Map();
  }

  /** A whole table (a snapshot, a REST answer, or a feed that sends tables whole). */
  replace(document) {
    const { rows, ...rest } = document;
    this.document = rest;
    this.rows = new Map(rows.map(row => [row[this.idKey], row]));
  }

  /** The table of a message: whole, or a delta against the rows held (`ranks`, in
   * `positions` order, when the feed sends the compact form). False when a delta cannot
   * be applied (a row or the base is missing): then refetch the table. */
  apply(document, positions, ranks) {
    if (!Array.isArray(positions)) {
      this.replace(document);
      return true;
    }
    if (this.document === null) return false;
    const next = new Map(this.rows);
    for (const patch of document.rows) {
      const id = patch[this.idKey];
      const before = next.get(id);
      if (before !== undefined) next.set(id, { ...before, ...patch });
      else if ("name" in patch && "rank" in patch) next.set(id, patch);
      else return false;
    }
    if (!positions.every(id => next.has(id))) return false;
    if (Array.isArray(ranks)) {
      if (ranks.length !== positions.length) return false;
      positions.forEach((id, at) => next.set(id, { ...next.get(id), rank: ranks[at] }));
    }
    const { rows, ...rest } = document;
    this.document = { ...this.document, ...rest };
    this.rows = new Map(positions.map(id => [id, next.get(id)]));
    return true;
  }

  list() {
    return Array.from(this.rows.values());
  }
}

/** The socket, its reconnection and the order of what it delivers. `handlers` has
 * snapshot(message), event(message), settled() after each socket message, and
 * state(name, detail) with name "connecting", "live", "reconnecting" or "missing". */
export class LiveFeed {
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    this.seq = null;
    this.socket = null;
    this.failures = 0;
    this.delivered = false;
    this.pinged = false;
    this.lastMessage = Date.now();
    this.retryTimer = null;
    this.countdown = null;
    setInterval(() => this.watch(), 5000);
    window.addEventListener("online", () => this.retryNow());
  }

  start() {
    this.connect();
  }

  connect() {
    this.retryTimer = null;
    const address = new URL(this.url, location.href);
    address.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    if (this.seq !== null) address.searchParams.set("since", String(this.seq));
    this.delivered = false;
    if (this.failures === 0) this.handlers.state("connecting");
    const socket = new WebSocket(address.href);
    this.socket = socket;
    socket.addEventListener("message", message => {
      if (socket !== this.socket) return;
      this.lastMessage = Date.now();
      if (!this.delivered) {
        this.delivered = true;
        this.failures = 0;
        this.handlers.state("live");
      }
      this.receive(JSON.parse(message.data));
      this.handlers.settled();
    });
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      this.lastMessage = Date.now();
      if (this.seq !== null) {  // a resumed feed may have nothing to replay: it is live
        this.delivered = true;
        this.failures = 0;
        this.handlers.state("live");
      }
    });
    socket.addEventListener("close", event => {
      if (socket === this.socket) this.closed(event);
    });
  }

  receive(message) {
    switch (message.type) {
      case "snapshot":
        this.seq = message.seq;
        this.handlers.snapshot(message);
        break;
      case "event":
        this.event(message);
        break;
      case "batch":
        for (const frame of message.frames || []) this.event(frame);
        break;
      case "ping":
        this.pinged = true;
        if (typeof message.seq === "number" && this.seq !== null && message.seq > this.seq) {
          this.resync();  // something was missed: resume from the last seq seen
        }
        break;
      case "error":
        this.error = message;
        if (message.field === "since") this.seq = null;
        break;
      default:
        break;  // a message this page does not know: newer servers may add some
    }
  }

  event(message) {
    if (typeof message.seq !== "number") return;
    if (this.seq !== null && message.seq <= this.seq) return;  // already seen
    if (this.seq !== null && message.seq > this.seq + 1) {
      this.resync();  // a gap: ask for the events after the last one seen
      return;
    }
    this.seq = message.seq;
    this.handlers.event(message);
  }

  resync() {
    if (this.socket) this.socket.close(4000, "resync");
  }

  closed(event) {
    this.socket = null;
    if (event.code === 4404) {
      this.handlers.state("missing");
      this.retryTimer = setTimeout(() => this.connect(), MISSING_DELAY * 1000);
      return;
    }
    if (event.code === 4400) this.seq = null;
    const resync = event.code === 4000 && this.delivered;
    this.failures = resync ? 0 : this.failures + 1;
    const base = resync ? 0 : Math.min(LONGEST_DELAY, FIRST_DELAY * 2 ** (this.failures - 1));
    const delay = base * (0.8 + Math.random() * 0.4);
    this.wait(delay);
  }

  /** Show a countdown while waiting to reconnect. */
  wait(seconds) {
    const until = Date.now() + seconds * 1000;
    const tick = () => {
      const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      this.handlers.state("reconnecting", { seconds: left, attempt: this.failures });
    };
    tick();
    clearInterval(this.countdown);
    this.countdown = setInterval(tick, 1000);
    this.retryTimer = setTimeout(() => {
      clearInterval(this.countdown);
      this.connect();
    }, seconds * 1000);
  }

  retryNow() {
    if (this.socket !== null || this.retryTimer === null) return;
    clearTimeout(this.retryTimer);
    clearInterval(this.countdown);
    this.connect();
  }

  /** A socket that went silent although the server sends heartbeats is dead. */
  watch() {
    if (this.socket && this.pinged && Date.now() - this.lastMessage > SILENCE) {
      this.socket.close(4000, "silent");
    }
  }
}


/** What both wall screens share: the live table, kept current from the feed's deltas
 * and fetched over REST only when a table-moving event came without one (`key` names
 * the table in messages, `path` its resource, `moving` the events that move it). */
export class LiveBoard {
  constructor(screen, base, { idKey, key, path, moving }) {
    this.screen = screen;
    this.base = base;
    this.info = null;
    this.table = new LiveTable(idKey);
    this.tableKey = key;
    this.tablePath = path;
    this.moving = moving;
    this.highlight = new Set();
    this.syncing = null;
    this.pending = [];
    this.tableStale = false;
    this.timers = {};
  }

  later(name, action, delay) {
    clearTimeout(this.timers[name]);
    // spread the screens' requests when many follow one tournament
    this.timers[name] = setTimeout(action, delay + Math.random() * 1000);
  }

  event(message) {
    const table = message[this.tableKey];
    if (table) {
      if (this.table.apply(table, message.positions, message.ranks)) {
        this.highlight = new Set(message.changed || []);
        this.tableStale = false;
        clearTimeout(this.timers.table);
      } else {
        this.tableStale = true;
      }
    } else if (this.moving.has(message.event)) {
      this.tableStale = true;
    }
    if (this.syncing) this.pending.push(message);
    else this.apply(message);
  }

  /** After each socket message: draw, and fetch the table if the feed did not bring it
   * (a delta that did not fit, or a server that sends none). */
  settled() {
    if (this.tableStale) this.later("table", () => this.fetchTable(), 700);
    this.render();
  }

  async fetchTable() {
    try {
      this.table.replace(await this.screen.api(`${this.base}/${this.tablePath}`));
      this.tableStale = false;
      this.render();
    } catch (error) {
      this.screen.problem(error);
    }
  }
}
