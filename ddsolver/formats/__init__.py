"""Output formats: how the results of the library look in text, CSV, JSON, PBN and HTML.

The library returns data (:class:`~ddsolver.solver.DDTable`, :class:`~ddsolver.par.ParResult`,
:class:`~ddsolver.analysis.PlayAnalysis`, :class:`~ddsolver.leads.LeadReport`,
:class:`~ddsolver.advise.AdviceReport`); the modules here write them out, a board at a time
so that a large file streams.  The command line (:mod:`ddsolver.cli`) picks the writer; a
program can use the same ones.

* :mod:`~ddsolver.formats.tags`: the standard PBN tags ``OptimumResultTable``,
  ``OptimumScore`` and ``ParContract``;
* :mod:`~ddsolver.formats.table`: tables and par as text, CSV, JSON or the input PBN with
  those tags added (``ddsolver table``);
* :mod:`~ddsolver.formats.hand_records`: printable hand records as one HTML page
  (``ddsolver report``);
* :mod:`~ddsolver.formats.play`: the trick-by-trick play analysis (``ddsolver play``);
* :mod:`~ddsolver.formats.leads`: opening-lead reports of one hand or many boards, and one
  report as text or CSV (``ddsolver leads``, ``str(report)``);
* :mod:`~ddsolver.formats.leads_html`: the same as one HTML page with a chart of every
  lead's tricks (``ddsolver leads --format html``), and the lead report in a notebook;
* :mod:`~ddsolver.formats.advice`: the single-dummy advice and the review of a play
  (``ddsolver advise``, ``str(report)``);
* :mod:`~ddsolver.formats.html_repr`: a board and a DD table in a notebook (the deal's own
  diagram is :mod:`cardgames.html`).

The results' own ``__str__``, ``to_text``, ``to_csv`` and ``_repr_html_`` draw through
:mod:`ddsolver.views`, whose table is filled in here when the package is imported: the
module that draws a view is imported the first time the view is asked for.
"""

from .. import views

#: The program named in the files the formats write (an HTML page's generator).
GENERATOR = "ddsolver"

# What draws each result's views (see ddsolver.views): names only, so that importing the
# package imports none of the modules below.
for _view, _target in (
        ("DDTable.html", "ddsolver.formats.html_repr:table_html"),
        ("Board.html", "ddsolver.formats.html_repr:board_html"),
        ("LeadReport.text", "ddsolver.formats.leads:report_text"),
        ("LeadReport.csv", "ddsolver.formats.leads:report_csv"),
        ("LeadReport.html", "ddsolver.formats.leads_html:report_fragment"),
        ("AdviceReport.text", "ddsolver.formats.advice:advice_text"),
        ("AdviceReport.csv", "ddsolver.formats.advice:advice_csv")):
    views.register(_view, _target)
