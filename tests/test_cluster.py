"""The Dask back end (:mod:`ddsolver.cluster`, ``--scheduler``) on a real
``dask.distributed.LocalCluster`` of two worker processes, one thread each, shared by the
module: the same answers as a run on one machine (tables, play, leads; the CLI's output
byte for byte), a worker killed in the middle of a run, an interrupted run resumed from
the store, a scheduler that cannot be reached.  Skipped only where Dask is not installed
(``pip install -e '.[test,dask]'``, as CI does).
"""

from __future__ import annotations

import logging
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

from cardgames.sampling import Sampler  # noqa: E402
from ddsolver import analyse_leads, dd_tables, iter_dd_tables  # noqa: E402
from ddsolver import cluster as ddcluster  # noqa: E402
from ddsolver.cli import main  # noqa: E402
from ddsolver.formats.table import WRITERS  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data"
WEST = "KQ72.J83.T94.A65"


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0")
    client = distributed.Client(cluster, set_as_default=False)  # as the CLI makes its own
    try:
        yield client
    finally:
        client.close()
        cluster.close()


@pytest.fixture
def run_cli(capsys):
    def run(*argv: object) -> tuple[int, str, str]:
        status = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return status, out, err
    return run


def games(path: Path, count: int) -> list[str]:
    text = path.read_text()
    return [g.strip() + "\n" for g in text.split("\n\n") if "[Deal " in g][:count]


@pytest.fixture(scope="module")
def boards_file(tmp_path_factory) -> Path:
    """Six boards of the example session, board 1's deal again as another table, and a
    game whose deal is incomplete (reported, written back by --format pbn)."""
    picked = games(DATA / "session.pbn", 6)
    again = picked[0].replace('[Board "1"]', '[Board "7"]')
    bad = picked[1].replace('[Board "2"]', '[Board "8"]').replace("KQ92 ", "KQ9 ")
    path = tmp_path_factory.mktemp("cluster") / "boards.pbn"
    path.write_text("% PBN 2.1\n" + "\n".join([*picked, again, bad]))
    return path


# ---- the Python API ------------------------------------------------------------------------

def test_tables_on_the_cluster_are_the_local_ones_in_input_order(client):
    deals = Sampler(seed=5).sample(8)
    assert dd_tables(deals, client=client) == dd_tables(deals, jobs=1)
    indices = [i for i, _ in iter_dd_tables(deals[:3], client=client)]
    assert indices == [0, 1, 2]


def test_leads_same_report_for_any_workers_and_chunk_size(client):
    kwargs = dict(constraints={"S": "5+ spades"}, samples=24, seed=3)
    local = analyse_leads(WEST, "4S", "S", **kwargs).to_json()
    for chunk in (5, 24):
        report = analyse_leads(WEST, "4S", "S", client=client, chunk=chunk, **kwargs)
        assert report.to_json() == local, chunk
    # Stopping early decides on the same deals, at the same place.
    kwargs.update(stop_z=0.5, min_samples=8, batch=8, samples=40)
    local_report = analyse_leads(WEST, "4S", "S", **kwargs)
    remote = analyse_leads(WEST, "4S", "S", client=client, chunk=3, **kwargs)
    assert remote.to_json() == local_report.to_json()
    assert remote.samples == local_report.samples


def test_a_worker_killed_mid_run_changes_nothing(client):
    deals = Sampler(seed=8).sample(6)
    expected = dd_tables(deals, jobs=1)
    pids = client.run(os.getpid)
    got = []
    killed = None
    for index, table in ddcluster.iter_tables(deals, client, chunk=1):
        got.append((index, table))
        if killed is None:  # a worker in the middle of a task
            busy = [a for a, keys in client.processing().items() if keys and a in pids]
            assert busy, "no worker has a task running: nothing to kill mid-run"
            killed = pids[busy[0]]
            os.kill(killed, signal.SIGKILL)
    assert [i for i, _ in got] == list(range(6))
    assert [t for _, t in got] == expected
    with pytest.raises(OSError):  # it really died (its nanny starts another)
        os.kill(killed, 0)


# ---- the command line -------------------------------------------------------------------

def address(client) -> str:
    return client.scheduler.address


@pytest.mark.parametrize("fmt", ["csv", "pbn"])
def test_table_on_the_cluster_writes_the_local_output(client, run_cli, boards_file, fmt,
                                                      tmp_path):
    status, local, err = run_cli("table", boards_file, "--format", fmt, "--jobs", "1", "-q")
    assert status == 1 and "board 8: impossible deal" in err
    status, remote, err2 = run_cli("table", boards_file, "--format", fmt, "-q",
                                   "--scheduler", address(client), "--db", tmp_path / "s.db")
    assert (status, remote, err2) == (1, local, err)


def test_table_interrupted_on_the_cluster_resumes_from_the_store(client, run_cli, boards_file,
                                                                 tmp_path, monkeypatch):
    status, local, _ = run_cli("table", boards_file, "--format", "csv", "--jobs", "1", "-q")
    db = tmp_path / "s.db"
    csv_writer = WRITERS["csv"]
    original = csv_writer.write
    written = []

    def write_then_stop(self, *args):
        if len(written) == 3:
            raise KeyboardInterrupt
        written.append(args)
        return original(self, *args)

    monkeypatch.setattr(csv_writer, "write", write_then_stop)
    status, _, err = run_cli("table", boards_file, "--format", "csv",
                             "--scheduler", address(client), "--db", db)
    assert status == 130, err
    assert "Run the same command with --resume" in err
    monkeypatch.setattr(csv_writer, "write", original)
    status, out, err = run_cli("table", boards_file, "--format", "csv",
                               "--scheduler", address(client), "--db", db, "--resume")
    assert out == local
    kept = int(err.split("resuming with ")[1].split()[0])
    assert kept >= 3  # the tables written before the stop, and those back by then
    stored, solved = map(int, re.search(r"(\d+) from .*, (\d+) solved now", err).groups())
    assert stored >= kept and stored + solved == 7  # 7 boards solved, 6 deals


def test_play_on_the_cluster_writes_the_local_output(client, run_cli, tmp_path):
    path = tmp_path / "played.pbn"
    path.write_text("% PBN 2.1\n" + "\n".join(games(DATA / "played.pbn", 3)))
    local = run_cli("play", path, "--format", "json", "-q", "--jobs", "1")
    remote = run_cli("play", path, "--format", "json", "-q", "--scheduler", address(client),
                     "--db", tmp_path / "p.db")
    assert local[0] == 0 and remote == local


def test_leads_on_the_cluster_writes_the_local_report(client, run_cli, tmp_path):
    one = ("leads", "--hand", WEST, "--contract", "4S", "--declarer", "S", "--samples", "12",
           "--seed", "4", "--format", "json", "-q")
    assert run_cli(*one, "--scheduler", address(client)) == run_cli(*one)
    deal = "N:KQ42.K87.A8.KQ52 987.T5.QJ543.A87 AJ6.A64.KT62.J96 T53.QJ932.97.T43"
    path = tmp_path / "boards.pbn"
    path.write_text(f'% PBN 2.1\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
                    f'[Deal "{deal}"]\n[Auction "N"]\n1NT Pass 3NT Pass\nPass Pass\n')
    files = ("leads", path, "--samples", "6", "--seed", "2", "-q")
    local = run_cli(*files)
    assert local[0] == 0 and "Opening lead by E" in local[1]
    assert run_cli(*files, "--scheduler", address(client)) == local


def test_an_unreachable_scheduler_is_one_usage_error(run_cli, tmp_path):
    import dask
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        status, out, err = run_cli("table", DATA / "session.pbn", "--scheduler",
                                   f"tcp://127.0.0.1:{port}", "-o", tmp_path / "out.txt")
    assert status == 2 and out == ""
    assert err.startswith(f"ddsolver table: error: cannot reach the Dask scheduler at "
                          f"tcp://127.0.0.1:{port}: ")
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "out.txt").exists()
    assert time.monotonic() - started < 20
    status, _, err = run_cli("play", DATA / "played.pbn", "--scheduler", "local:0")
    assert status == 2 and "local:N needs N" in err


@pytest.mark.parametrize("address", ["nonsense", "tcp://10.0.0.5", "10.0.0.5:port",
                                     "tcp://:8786", "10.0.0.5:99999"])
def test_an_address_without_a_port_is_refused_at_once(run_cli, address):
    # "nonsense" used to wait out Dask's timeout (a minute) and end in a traceback.
    started = time.monotonic()
    status, out, err = run_cli("table", DATA / "session.pbn", "--scheduler", address)
    assert status == 2 and out == "" and "an address is a host and a port" in err
    assert len(err.strip().splitlines()) == 1 and time.monotonic() - started < 5


def test_a_server_that_is_not_a_scheduler_is_one_usage_error(run_cli, monkeypatch):
    # Something on the port that accepts and never answers (a web server waits for its
    # request): Dask's handshake waited for ever.
    import dask
    monkeypatch.setattr(ddcluster, "HANDSHAKE_GRACE", 1.0)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        started = time.monotonic()
        with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
            status, out, err = run_cli("table", DATA / "session.pbn", "--scheduler",
                                       f"tcp://127.0.0.1:{port}")
    assert status == 2 and out == ""
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}: nothing there " \
           "answered as a Dask scheduler within 2 s" in err
    assert len(err.strip().splitlines()) == 1 and time.monotonic() - started < 20


def test_ddsolver_does_not_import_dask_unless_asked(tmp_path):
    code = ("import sys, ddsolver, ddsolver.cli, ddsolver.boards, ddsolver.leads, "
            "ddsolver.cluster, ddsolver.lead_chunks\n"
            "from ddsolver import dd_tables, analyse_leads\n"
            "from ddsolver.cli import main\n"
            f"assert main(['table', {str(DATA / 'problems.pbn')!r}, '-q', '-o', "
            f"{str(tmp_path / 'out.txt')!r}]) in (0, 1)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('dask', 'distributed')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_failed_cluster_is_a_cluster_error_and_a_tasks_own_error_is_itself():
    from types import SimpleNamespace

    from distributed.client import FutureCancelledError
    from distributed.scheduler import KilledWorker

    from cardgames.errors import SamplingError
    for err in (KilledWorker("_tables_task-1", SimpleNamespace(address="tcp://w:1"), 3),
                FutureCancelledError("k", reason="scheduler-connection-lost"),
                OSError("connection reset")):
        failure = ddcluster._cluster_failure(err)
        assert isinstance(failure, ddcluster.ClusterError) and isinstance(failure, ValueError)
        assert str(failure).startswith("the Dask cluster failed: " + type(err).__name__)
    own = SamplingError("the constraints accept too few deals", 10, 0)
    assert ddcluster._cluster_failure(own) is own


def test_a_scheduler_lost_while_waiting_is_a_cluster_error(client, monkeypatch):
    # The scheduler killed mid-run: distributed.wait raises FuturesCancelledError, a
    # concurrent.futures.CancelledError -- not asyncio's on Python 3.11 -- which went by
    # as a traceback.
    from distributed.client import (
        CancelledFuturesGroup,
        FutureCancelledError,
        FuturesCancelledError,
    )
    error = FuturesCancelledError([CancelledFuturesGroup(errors=[
        FutureCancelledError("k", "scheduler-connection-lost")], reason="lost")])

    def lost(*args, **kwargs):
        raise error

    monkeypatch.setattr(distributed, "wait", lost)
    with pytest.raises(ddcluster.ClusterError, match="the Dask cluster failed: Futures"):
        list(ddcluster.ordered_map(client, range(3),
                                   lambda n: client.submit(time.sleep, 0.2, pure=False)))


def test_leads_says_a_failed_cluster_in_one_line(run_cli, monkeypatch, tmp_path):
    # The client of leads is closed by hand, not by scheduler_client's block, so its
    # ClusterError went by as a traceback (table and duel said it in one line).
    import ddsolver.cli.leads as cli_leads

    def failing(*args, **kwargs):
        raise ddcluster.ClusterError("the Dask cluster failed: KilledWorker: x")

    monkeypatch.setattr(cli_leads, "_one_hand", failing)
    out = tmp_path / "r.json"
    status, _, err = run_cli("leads", "--hand", "KQ72.J83.T94.A65", "--contract", "4S",
                             "--declarer", "S", "-n", "5", "--seed", "1", "-o", out,
                             "--scheduler", "local:1")
    assert status == 2 and "Traceback" not in err
    assert "the Dask cluster failed: KilledWorker" in err and "--resume" in err
    assert not out.exists()


def test_ctrl_c_at_the_terminal_stops_a_local_cluster_run_and_resume_finishes_it(
        run_cli, tmp_path):
    """A real process on ``--scheduler local:1``, Ctrl-C sent to its whole process group
    (as a terminal does: the workers get it too) once a board is written: exit 130, what
    came back is in the store, and ``--resume`` writes the complete output.  16 boards:
    enough that the run is still going when the first is written."""
    boards = tmp_path / "boards.pbn"
    boards.write_text("% PBN 2.1\n" + "\n".join(games(DATA / "session.pbn", 16)))
    status, local, _ = run_cli("table", boards, "--format", "csv", "--jobs", "2", "-q")
    assert status == 0
    out, db = tmp_path / "out.csv", tmp_path / "s.db"
    argv = [sys.executable, "-m", "ddsolver", "table", str(boards), "--format", "csv",
            "-o", str(out), "--db", str(db), "--scheduler", "local:1"]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and process.poll() is None:
        # the output is written beside out.csv under a hidden name until the run ends
        if any(len(p.read_text().splitlines()) >= 2   # header and a board
               for p in tmp_path.glob(".out.csv.*.part")):
            break
        time.sleep(0.05)
    assert process.poll() is None, "finished before it could be interrupted"
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Run the same command with --resume" in err and "Traceback" not in err
    status, _, err = run_cli("table", boards, "--format", "csv", "-o", out, "--db", db,
                             "--resume", "--scheduler", "local:1")
    assert status == 0 and out.read_text() == local
    assert "resuming with 0 tables" not in err


def _record_raised_in(filename: str, name: str, exc: type[BaseException]) -> logging.LogRecord:
    namespace: dict = {}
    exec(compile(f"def {name}():\n    raise {exc.__name__}('x')\n", filename, "exec"), namespace)
    try:
        namespace[name]()
    except exc:
        info = sys.exc_info()
    return logging.LogRecord("tornado.application", logging.ERROR, __file__, 1,
                             "Exception in callback", None, info)


def test_only_dasks_sync_cancel_race_is_kept_from_the_log():
    """The one record the Ctrl-C test saw Dask log with a traceback is dropped; any other
    error the event loop logs, a NameError elsewhere included, is kept."""
    ddcluster._distributed()
    (race,) = [f for f in logging.getLogger("tornado.application").filters
               if isinstance(f, ddcluster._SyncCancelRace)]
    utils = str(Path(ddcluster._distributed().__file__).with_name("utils.py"))
    assert not race.filter(_record_raised_in(utils, "cancel", NameError))
    assert race.filter(_record_raised_in(utils, "cancel", KeyError))
    assert race.filter(_record_raised_in(utils, "other", NameError))
    assert race.filter(_record_raised_in(str(DATA / "utils.py"), "cancel", NameError))
    ddcluster._distributed()  # installed once however often Dask is asked for
    assert len([f for f in logging.getLogger("tornado.application").filters
                if isinstance(f, ddcluster._SyncCancelRace)]) == 1


def test_a_scheduler_without_workers_is_said(monkeypatch, capsys):
    """Connected to a scheduler no worker has joined, a run waited with no word."""
    import argparse
    from types import SimpleNamespace

    from ddsolver.cli._cluster import scheduler_client

    class Idle:
        def nthreads(self):
            return {}

        def close(self):
            pass

    closed = []
    connection = SimpleNamespace(client=Idle(), close=lambda: closed.append(True))
    monkeypatch.setattr(ddcluster, "connect", lambda address: connection)
    for quiet, said in ((False, True), (True, False)):
        args = argparse.Namespace(scheduler="tcp://10.0.0.1:8786", quiet=quiet)
        with scheduler_client(args) as client:
            assert client is connection.client
        err = capsys.readouterr().err
        assert ("has no workers yet: the work waits until one joins" in err) == said
