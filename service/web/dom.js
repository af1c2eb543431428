// DOM helpers for the scoreboard: every piece of data reaches the page as a text node
// (textContent), never as markup, so names typed by players cannot inject HTML.

/** An element with optional class and text; `children` may be nodes or strings. */
export function el(tag, className, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Set an element's text (a no-op when it is already that text). */
export function setText(node, text) {
  const value = text === null || text === undefined ? "" : String(text);
  if (node.textContent !== value) node.textContent = value;
}

/** A number with fixed decimals, or an en dash when there is none. */
export function fixed(value, digits) {
  return value === null || value === undefined || value === "" ? "–" : Number(value).toFixed(digits);
}

/** A score as people write it: 1, 2½, ½ (halves as the fraction sign). */
export function points(value) {
  if (value === null || value === undefined) return "–";
  const number = Number(value);
  const whole = Math.trunc(number);
  const rest = Math.abs(number - whole);
  if (Math.abs(rest - 0.5) < 1e-9) return (whole === 0 ? (number < 0 ? "-" : "") : String(whole)) + "½";
  if (rest < 1e-9) return String(whole);
  return number.toFixed(2);
}

/** Hours and minutes of a moment, in the screen's time zone. */
export function clock(date) {
  return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}
