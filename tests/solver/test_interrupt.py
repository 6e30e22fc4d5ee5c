"""Stopping a search: Ctrl-C reaches a search that runs with the GIL released, in the main
thread or in worker threads, within a few milliseconds of search time; afterwards the
solver works as before and no stop request is left behind.

Each scenario runs in a child process that sends itself SIGINT (a stray signal must not
hit pytest) and prints what it saw as JSON.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX signals")

_PRELUDE = textwrap.dedent('''
    import json, os, signal, threading, time
    from ddsolver import Solver, dd_tables
    from ddsolver import _core
    # Two of DDS's hardest test hands: seconds of search each.
    HARD = "N:AT65.96.K63.AT32 K87.KT853..KJ965 J3.AJ742.QT754.8 Q942.Q.AJ982.Q74"
    HARD2 = "N:K84.AQ753.QT4.Q7 AJ92.K964.J9.K93 QT753..A765.AT85 6.JT82.K832.J642"
    ENDING = "N:A2.J.. ..KQ.K 4..2.A K3.Q.."

    def sigint_in(seconds):
        timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        return timer

    def interrupted(call, after=0.5):
        """Seconds from the signal to KeyboardInterrupt, or None if the call finished."""
        sigint_in(after)
        start = time.monotonic()
        try:
            call()
        except KeyboardInterrupt:
            return time.monotonic() - start - after
        return None
''')


def _run(body: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", _PRELUDE + textwrap.dedent(body)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_ctrl_c_stops_a_search_in_the_main_thread():
    seen = _run('''
        solver = Solver(16)
        latency = interrupted(lambda: solver.dd_table(HARD))
        after = {"latency": latency, "stop_left": _core.stop_requested(),
                 "handler_kept": signal.getsignal(signal.SIGINT) is signal.default_int_handler,
                 "answer": solver.solve(ENDING, "NT", "N"), "fresh": Solver(1).solve(ENDING, "NT", "N")}
        # The hook is gone once the search is over: an idle Ctrl-C is Python's as ever.
        try:
            sigint_in(0); time.sleep(2)
            after["idle"] = "no KeyboardInterrupt"
        except KeyboardInterrupt:
            after["idle"] = "KeyboardInterrupt"
        print(json.dumps(after))
    ''')
    assert seen["latency"] is not None, "the table was finished, not interrupted"
    assert seen["latency"] < 1.0, seen
    assert seen["stop_left"] is False and seen["handler_kept"] is True
    assert seen["answer"] == seen["fresh"]
    assert seen["idle"] == "KeyboardInterrupt"


def test_ctrl_c_stops_the_worker_threads_of_dd_tables():
    seen = _run('''
        latency = interrupted(lambda: dd_tables([HARD, HARD2, HARD, HARD2], jobs=2, tt_mb=16))
        tables = dd_tables([ENDING, ENDING], jobs=2, tt_mb=1)
        print(json.dumps({"latency": latency, "stop_left": _core.stop_requested(),
                          "after": [str(t) for t in tables],
                          "fresh": str(Solver(1).dd_table(ENDING))}))
    ''')
    assert seen["latency"] is not None, "the tables were finished, not interrupted"
    assert seen["latency"] < 1.5, seen
    assert seen["stop_left"] is False
    assert seen["after"] == [seen["fresh"]] * 2


def test_a_handler_that_does_not_raise_leaves_the_search_alone():
    """Only Python's default SIGINT handler means "stop": with a program's own handler, the
    search goes on to its answer and the handler runs afterwards."""
    seen = _run('''
        from ddsolver.solver import deal_masks
        calls = []
        signal.signal(signal.SIGINT, lambda signum, frame: calls.append(signum))
        # No-trump on this one: about a second of search.
        masks = deal_masks("N:T7.KT7.8752.AQ52 AQ9654..AT6.9863 K832.QJ964.KJ9.4 "
                           "J.A8532.Q43.KJT7")
        solver = Solver(64)
        sigint_in(0.1)
        answer = solver.dd_strain_masks(masks, 4)
        print(json.dumps({"calls": len(calls), "answer": answer,
                          "fresh": Solver(64).dd_strain_masks(masks, 4)}))
    ''')
    assert seen["calls"] == 1
    assert seen["answer"] == seen["fresh"]


def test_request_stop_stops_a_search_in_another_thread_until_cleared():
    seen = _run('''
        solver = Solver(16)
        outcome = []
        def work():
            try:
                solver.dd_table(HARD)
                outcome.append("finished")
            except KeyboardInterrupt:
                outcome.append("stopped")
        worker = threading.Thread(target=work)
        worker.start(); time.sleep(0.3)
        start = time.monotonic(); _core.request_stop(); worker.join()
        took = time.monotonic() - start
        try:
            solver.solve(HARD, "NT", "S")      # still stopped: raises at once
            refused = False
        except KeyboardInterrupt:
            refused = True
        _core.clear_stop()
        print(json.dumps({"outcome": outcome, "took": took, "refused": refused,
                          "answer": solver.solve(ENDING, "NT", "N"),
                          "fresh": Solver(1).solve(ENDING, "NT", "N")}))
    ''')
    assert seen["outcome"] == ["stopped"] and seen["took"] < 1.0, seen
    assert seen["refused"] is True
    assert seen["answer"] == seen["fresh"]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_hook_signal_needs_a_python_handler(signum):
    """hook_signal leaves an ignored signal (or one with no handler function) alone."""
    seen = _run(f'''
        signal.signal({int(signum)}, signal.SIG_IGN)
        ignored = _core.hook_signal({int(signum)})
        signal.signal({int(signum)}, lambda s, f: None)
        handled = _core.hook_signal({int(signum)})
        _core.unhook_signal({int(signum)})
        print(json.dumps({{"ignored": ignored, "handled": handled}}))
    ''')
    assert seen == {"ignored": False, "handled": True}
