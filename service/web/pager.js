// A panel of the wall screen: a titled table that pages itself. A wall screen cannot be
// scrolled, so a table longer than the panel is split into pages of as many rows as fit,
// shown in turn every few seconds, with "Page 2 of 3 · rows 21–40 of 40" below it.

import { el, setText } from "./dom.js";
import { fitColumns, naturalWidth } from "./fit.js";

const FLASH_MS = 3000;  // the `moved` animation's length (scoreboard.css)

export class Panel {
  /** `section` holds an h2, a .viewport with a table, a .pager footer and a .empty line. */
  constructor(section, seconds) {
    this.section = section;
    this.heading = section.querySelector("h2");
    this.viewport = section.querySelector(".viewport");
    const table = section.querySelector("table");
    this.table = table;
    this.head = table.tHead;
    this.body = table.tBodies[0];
    this.footer = section.querySelector(".pager");
    this.emptyLine = section.querySelector(".empty");
    this.seconds = seconds;
    this.page = 0;
    this.pages = 1;
    this.perPage = 0;
    this.timer = null;
    this.flashTimer = null;
    // the panel's size changes with the window and when the other panel comes or goes:
    // the columns and the rows per page follow it
    this.size = "";
    new ResizeObserver(() => {
      const size = `${this.viewport.clientWidth}x${this.viewport.clientHeight}`;
      if (size !== this.size) this.layout();
    }).observe(this.viewport);
  }

  /** Draw `rows` with `columns` ({label, cls, value(row)}); `key(row)` names a row and
   * rows whose key is in `highlight` flash once. Keeps the page being shown. */
  show(title, columns, rows, { key = null, highlight = null, empty = "" } = {}) {
    this.section.hidden = false;
    setText(this.heading, title);
    this.head.replaceChildren(el("tr", null, ...columns.map(c => el("th", c.cls, c.label))));
    this.body.replaceChildren(...rows.map(row => {
      const id = key ? key(row) : null;
      const tr = el("tr", id !== null && highlight && highlight.has(id) ? "moved" : null,
        ...columns.map(c => el("td", c.cls, c.value(row))));
      if (id !== null) tr.dataset.key = String(id);
      return tr;
    }));
    // the flash runs once: a row shown again on a later page must not flash again
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => {
      for (const row of this.body.querySelectorAll("tr.moved")) row.classList.remove("moved");
    }, FLASH_MS);
    setText(this.emptyLine, rows.length ? "" : empty);
    this.emptyLine.hidden = rows.length > 0;
    this.layout();
  }

  /** The panel's width that would show its whole table at full type size. */
  need() {
    return naturalWidth(this.table) + this.section.offsetWidth - this.viewport.clientWidth;
  }

  hide() {
    this.section.hidden = true;
    this.stop();
  }

  /** Fit the columns to the panel's width (over every row, so the columns keep their
   * widths from page to page), then work out how many rows fit and show the current page. */
  layout() {
    const rows = Array.from(this.body.rows);
    for (const row of rows) row.hidden = false;
    this.size = `${this.viewport.clientWidth}x${this.viewport.clientHeight}`;
    if (!this.section.hidden) fitColumns(this.table, this.viewport.clientWidth);
    if (rows.length === 0 || this.section.hidden) {
      this.pages = 1;
      this.page = 0;
      this.render(rows);
      return;
    }
    const available = this.viewport.clientHeight - this.head.getBoundingClientRect().height;
    const rowHeight = Math.max(1, ...rows.slice(0, 8).map(r => r.getBoundingClientRect().height));
    this.perPage = Math.max(1, Math.floor(available / rowHeight));
    this.pages = Math.ceil(rows.length / this.perPage);
    if (this.page >= this.pages) this.page = 0;
    this.render(rows);
    if (this.pages > 1 && this.timer === null) {
      this.timer = setInterval(() => this.turn(), this.seconds * 1000);
    } else if (this.pages <= 1) {
      this.stop();
    }
  }

  turn() {
    this.page = (this.page + 1) % this.pages;
    this.render(Array.from(this.body.rows));
  }

  stop() {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  render(rows) {
    const first = this.page * this.perPage;
    if (this.pages > 1) {
      rows.forEach((row, index) => { row.hidden = index < first || index >= first + this.perPage; });
      const last = Math.min(rows.length, first + this.perPage);
      setText(this.footer,
        `Page ${this.page + 1} of ${this.pages} · rows ${first + 1}–${last} of ${rows.length}`);
    } else {
      setText(this.footer, "");
    }
    this.section.dataset.page = String(this.page + 1);
    this.section.dataset.pages = String(this.pages);
  }
}
