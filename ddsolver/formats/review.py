"""The output of ``ddsolver review``: text and JSON (:mod:`.review_text`), and the HTML
page (:mod:`.review_html`)."""

from __future__ import annotations

from typing import Any

from .review_html import HtmlWriter
from .review_text import JsonWriter, TextWriter

__all__ = ["WRITERS"]

WRITERS: dict[str, Any] = {"text": TextWriter, "json": JsonWriter, "html": HtmlWriter}
