"""Reading the HTML the library writes back, as a reader sees it: a small element tree built
with :mod:`html.parser` (no browser), the visible text of an element, the lead table's
cells and the charts' SVG.  Shared by the HTML tests (tests/test_html_repr.py,
tests/cli/test_cli_leads_html.py)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from xml.etree import ElementTree

_VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr", "source"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def text(self) -> str:
        """The text inside, as shown (the SVG tooltips of <title> and the CSS left out)."""
        return "".join(c if isinstance(c, str) else
                       ("" if c.tag in ("title", "style", "script") else c.text())
                       for c in self.children)

    def iter(self, tag: str | None = None, cls: str | None = None):
        for c in self.children:
            if isinstance(c, Node):
                if (tag is None or c.tag == tag) and (cls is None or cls in c.classes):
                    yield c
                yield from c.iter(tag, cls)

    def find(self, tag: str | None = None, cls: str | None = None) -> Node | None:
        return next(self.iter(tag, cls), None)


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag):
        if tag in _VOID:
            return
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse(page: str) -> Node:
    """The element tree of ``page``; every element must be closed where it should be."""
    builder = _Builder()
    builder.feed(page)
    builder.close()
    assert builder.stack == [builder.root], "unclosed elements"
    return builder.root


def number(text: str) -> float:
    """A figure as the page writes it: ``-`` is NaN, ``+0.250`` is 0.25."""
    text = text.strip()
    return math.nan if text == "-" else float(text)


def pair(text: str) -> tuple[float, float]:
    """An interval written ``4.51–5.16`` (``-`` when not defined)."""
    if text.strip() == "-":
        return (math.nan, math.nan)
    lo, hi = text.split("\u2013")
    return float(lo), float(hi)


def close(shown: float, value: float | None, digits: int, scale: float = 1.0) -> bool:
    """``shown`` is ``value`` (times ``scale``) written with ``digits`` decimals; an
    undefined value (NaN, or JSON's null) is written ``-``."""
    if value is None or not math.isfinite(value):
        return math.isnan(shown)
    return abs(shown - value * scale) <= 0.5 * 10 ** -digits + 1e-9


def lead_rows(root: Node) -> dict[str, dict[str, str]]:
    """The lead table as shown: per lead (its row's ``data-lead``), column class -> text."""
    table = root.find("table", "leads")
    assert table is not None, "no table of leads"
    return {tr.attrs["data-lead"]: {next(iter(td.classes)): td.text() for td in tr.iter("td")}
            for tr in table.iter("tr") if "data-lead" in tr.attrs}


def svgs(page: str) -> list[ElementTree.Element]:
    """Every <svg> of the page, parsed as XML (so each must be well-formed)."""
    found = re.findall(r"<svg\b.*?</svg>", page, flags=re.S)
    return [ElementTree.fromstring(s) for s in found]


SVG = "{http://www.w3.org/2000/svg}"


def bar_counts(svg: ElementTree.Element) -> dict[int, int]:
    """A chart read back: tricks -> deals, from the count written over each bar, placed
    by the tick label under the same x."""
    ticks = {float(t.get("x", "nan")): int(t.text or "")
             for t in svg.iter(f"{SVG}text") if t.get("class") == "tick"}
    return {ticks[float(t.get("x", "nan"))]: int(t.text or "")
            for t in svg.iter(f"{SVG}text") if t.get("class") == "count"}
