"""The output of ``ddsolver leads``: opening-lead reports of one hand, or of every board of
PBN files, as text, JSON or CSV.

A single report's own forms are :meth:`~ddsolver.leads.LeadReport.to_text`, ``to_json`` and
``to_csv``; :class:`LeadsWriter` puts one or many of them into one output.
"""

from __future__ import annotations

import json
from typing import TextIO

from ..leads import LeadReport

__all__ = ["LeadsWriter"]


class LeadsWriter:
    """Writes lead reports in ``fmt`` (``"text"``, ``"json"`` or ``"csv"``) as they come.

    ``many`` is true for the reports of PBN boards: each one is headed by where it came
    from (``where``: ``source``, ``line``, ``board``), CSV rows carry those as leading
    columns, and JSON is one array written by :meth:`finish`.
    """

    def __init__(self, fmt: str, out: TextIO, many: bool):
        self.fmt = fmt
        self.out = out
        self.many = many
        self.json_items: list[dict] = []
        self.csv_header = True

    def add(self, report: LeadReport, where: dict | None) -> None:
        if self.fmt == "json":
            item = report.to_dict()
            if where:
                item = {**where, **item}
            if self.many:
                self.json_items.append(item)
            else:
                self.out.write(json.dumps(item, indent=2) + "\n")
        elif self.fmt == "csv":
            text = report.to_csv(header=self.csv_header)
            if self.many:
                lines = text.splitlines()
                prefix = ",".join(str((where or {}).get(k, "")) for k in ("source", "line", "board"))
                if self.csv_header:
                    lines[0] = "source,line,board," + lines[0]
                    body = lines[1:]
                    self.out.write(lines[0] + "\n")
                else:
                    body = lines
                for line in body:
                    self.out.write(f"{prefix},{line}\n")
            else:
                self.out.write(text)
            self.csv_header = False
        else:
            if where:
                board = f" board {where['board']}" if where.get("board") is not None else ""
                self.out.write(f"{where['source']}:{where['line']}{board}\n")
            self.out.write(report.to_text() + "\n\n")
        self.out.flush()

    def finish(self) -> None:
        if self.fmt == "json" and self.many:
            self.out.write(json.dumps(self.json_items, indent=2) + "\n")
