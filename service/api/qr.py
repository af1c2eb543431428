"""QR codes for printed cards (ISO/IEC 18004), drawn as inline SVG by segno: no image
file, no network, and the page's content security policy allows it as plain markup."""

from __future__ import annotations

import segno

__all__ = ["QR_ERROR", "QR_SCALE", "qr_svg"]

QR_ERROR = "m"
"""Error correction level M (about 15 % of the code may be damaged): a card is handled."""
QR_SCALE = 2
"""SVG units per module: the card's style sets the printed size."""


def qr_svg(url: str) -> str:
    """The QR code of `url` as an `<svg>` element (quiet zone of four modules kept), with
    a title naming what it holds for screen readers: "result page"."""
    code = segno.make(url, error=QR_ERROR, micro=False)
    return code.svg_inline(scale=QR_SCALE, title="result page", svgclass="qr", lineclass=None)
