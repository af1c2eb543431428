// Column widths of a wall-screen table, worked out from what its cells hold. Number
// columns get the width their widest cell needs; the name columns share what is left:
// a name that fits is shown whole, the room still free is split between the name
// columns, and only a name wider than the room it can have ends in an ellipsis. When
// even short names would not fit (a panel of many tie-breaks on a small screen), the
// table's type is made smaller, step by step, until they do: every column stays inside
// its panel, none is squeezed to nothing.

const MIN_NAME_EM = 7;    // the least room a name column gets before the type shrinks
const SPARE_EM = 4;      // room a name column may get beyond its longest name
const STEP = 0.92;        // each shrinking step multiplies the type size by this
const SMALLEST = 0.7;     // the type never shrinks below this share of its size (still
                          // 11 px on a 720-pixel screen)
const SLACK = 1;          // px added to a measured width against sub-pixel rounding

/** Each column's natural width: the table laid out by its contents, nothing cut. */
function natural(table, heads) {
  for (const head of heads) head.style.width = "";
  table.classList.add("measuring");
  const widths = heads.map(head => Math.ceil(head.getBoundingClientRect().width) + SLACK);
  table.classList.remove("measuring");
  return widths;
}

/** The width `table` needs to show every cell whole at the style sheet's type size. */
export function naturalWidth(table) {
  const row = table.tHead && table.tHead.rows[0];
  if (!row) return 0;
  table.style.setProperty("--scale", "1");
  return natural(table, Array.from(row.cells)).reduce((sum, width) => sum + width, 0);
}

/** Share `room` between columns needing `needs`: the smallest needs are met first
 * (water-filling), then whatever is left is split evenly. */
export function share(needs, room) {
  const given = needs.map(() => 0);
  let left = Math.max(0, room);
  const order = needs.map((need, index) => index).sort((a, b) => needs[a] - needs[b]);
  order.forEach((index, position) => {
    const fair = left / (order.length - position);
    given[index] = Math.min(needs[index], fair);
    left -= given[index];
  });
  return given.map(width => width + left / needs.length);
}

/** Set the widths of `table`'s columns to fit `width` pixels; returns the type scale
 * used (1 = the style sheet's size). */
export function fitColumns(table, width) {
  const row = table.tHead && table.tHead.rows[0];
  if (!row || width <= 0) return 1;
  const heads = Array.from(row.cells);
  const isName = heads.map(head => head.classList.contains("name"));
  let scale = 1;
  for (;;) {
    table.style.setProperty("--scale", String(scale));
    const widths = natural(table, heads);
    const fixed = widths.reduce((sum, w, i) => sum + (isName[i] ? 0 : w), 0);
    const em = parseFloat(getComputedStyle(table).fontSize);
    const needs = widths.filter((w, i) => isName[i]);
    const least = needs.reduce((sum, w) => sum + Math.min(w, MIN_NAME_EM * em), 0);
    const room = width - fixed;
    if (room >= least || scale * STEP < SMALLEST) {
      // names get up to SPARE_EM more than they need; room beyond that widens every
      // column alike (a number column by SPARE_EM at most, the names take what is left),
      // so on a wide screen the numbers do not drift far from the names
      const wanted = needs.reduce((sum, w) => sum + w + SPARE_EM * em, 0);
      const spare = needs.length ? Math.max(0, room - wanted) / heads.length : 0;
      const extra = Math.min(spare, SPARE_EM * em);
      const given = share(needs, room - extra * (heads.length - needs.length));
      let next = 0;
      heads.forEach((head, i) => {
        const own = isName[i] ? given[next++] : widths[i] + extra;
        head.style.width = `${Math.floor(own)}px`;
      });
      table.dataset.scale = scale.toFixed(2);
      return scale;
    }
    scale *= STEP;
  }
}
