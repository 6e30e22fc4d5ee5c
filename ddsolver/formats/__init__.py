"""Output formats: how the results of the library look in text, CSV, JSON, PBN and HTML.

The library returns data (:class:`~ddsolver.solver.DDTable`, :class:`~ddsolver.par.ParResult`,
:class:`~ddsolver.analysis.PlayAnalysis`, :class:`~ddsolver.leads.LeadReport`); the modules
here write them out, a board at a time so that a large file streams.  The command line
(:mod:`ddsolver.cli`) picks the writer; a program can use the same ones.

* :mod:`~ddsolver.formats.tags`: the standard PBN tags ``OptimumResultTable``,
  ``OptimumScore`` and ``ParContract``;
* :mod:`~ddsolver.formats.table`: tables and par as text, CSV, JSON or the input PBN with
  those tags added (``ddsolver table``);
* :mod:`~ddsolver.formats.hand_records`: printable hand records as one HTML page
  (``ddsolver report``);
* :mod:`~ddsolver.formats.play`: the trick-by-trick play analysis (``ddsolver play``);
* :mod:`~ddsolver.formats.leads`: opening-lead reports of one hand or many boards
  (``ddsolver leads``);
* :mod:`~ddsolver.formats.leads_html`: the same as one HTML page with a chart of every
  lead's tricks (``ddsolver leads --format html``), and the lead report in a notebook;
* :mod:`~ddsolver.formats.html_repr`: a board and a DD table in a notebook (the deal's own
  diagram is :mod:`cardgames.html`).
"""

#: The program named in the files the formats write (an HTML page's generator).
GENERATOR = "ddsolver"
