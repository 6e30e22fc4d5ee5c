"""The real LIN files of ``../shared/reallin`` (BBO hand records, vugraph archives, robot
matches): ddsolver does not read LIN yet (issue 35), so every file must be *reported*,
each record where it stands (``FILE:LINE``) and named as LIN, with no traceback and no
board silently taken for something else.
"""

from __future__ import annotations

import re

from ddsfiles import real_lin_files

from cardgames import pbn


def test_every_real_lin_file_is_reported_with_its_place(run_cli):
    files = real_lin_files()
    assert len(files) >= 20
    for path in files:
        status, out, err = run_cli("table", path, "--quiet")
        assert status == 1, path
        assert out == "" and "Traceback" not in err, path
        lines = err.splitlines()
        assert lines, path
        for line in lines:
            assert re.match(rf"{re.escape(str(path))}:\d+: a LIN record", line), line


def test_every_lin_record_is_an_error_of_the_reader_not_a_game():
    # Read leniently, a LIN file yields no game: each record is an error at its line.
    for path in real_lin_files():
        reader = pbn.load_path(path, strict=False)
        games = list(reader)
        assert games == [], path
        assert reader.errors and all("LIN record" in e.message for e in reader.errors), path
        text = path.read_bytes().decode("latin-1")
        first = next(i for i, line in enumerate(text.splitlines(), 1)
                     if re.match(r"\s*[a-zA-Z]{2}\|", line))
        assert reader.errors[0].line == first, path
