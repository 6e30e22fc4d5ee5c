"""CSV cells that a spreadsheet reads as text, never as a formula.

A cell that begins with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return, which
some spreadsheets skip before looking) is taken as a formula when the file is opened in a
spreadsheet: a PBN file named ``=HYPERLINK(...).pbn`` would put a live link, or worse,
into the report.  Following the OWASP advice on CSV injection, such a *text* cell that
comes from the input (a file name, a player's name) is written with a leading ``'``,
which spreadsheets show as text; the ``csv`` module then quotes it where the cell needs
quoting (a comma, a quote, a line break).

Only text from the input is guarded: the numbers the program writes (``-100``, a negative
par score, ``-0.25`` a difference in tricks) are written as numbers, as they must be to
be summed; and the program's own text (deals, card labels such as ``SK/SQ``) cannot begin
with those characters.
"""

from __future__ import annotations

__all__ = ["text_cell", "FORMULA_STARTS"]

#: The first characters that make a spreadsheet read a cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text_cell(value: object) -> str:
    """``value`` as a CSV cell of text from the input: ``'`` put before it when it would
    read as a formula.

    >>> text_cell("=1+2"), text_cell("x,y.pbn"), text_cell("-")
    ("'=1+2", 'x,y.pbn', "'-")
    """
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text
