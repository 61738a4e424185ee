"""The grader process prepares what every submission of a variant shares once, before its workers fork, and
leaves each submission's own seed (its hidden cases) to the worker that grades it."""

from __future__ import annotations

import pytest

pytest.importorskip("sqlalchemy", reason="the course server's libraries: pip install 'hog-kit[server]'")

from grader import cases                                     # noqa: E402
from grader.sandbox import case_code                         # noqa: E402
from grader.server.grading import graders   # noqa: E402
from grader.spec import load_variant                         # noqa: E402


def test_a_claim_prepares_each_variant_once_and_draws_no_submissions_seed(monkeypatch):
    prepared_for = []
    monkeypatch.setattr(graders, "prepare", lambda variant, seed=None: prepared_for.append((variant.id, seed)))
    drawn_before = cases.hidden_cases.cache_info().misses
    done: set = set()
    graders._prepare({"sp19", "fa18"}, done)   # the variants of a claim (of jobs each with a seed of its own)
    graders._prepare({"sp19"}, done)
    assert sorted(prepared_for) == [("fa18", None), ("sp19", None)]   # once each, with no seed
    assert cases.hidden_cases.cache_info().misses == drawn_before


def test_the_shared_preparation_compiles_the_public_cases_for_the_sandbox():
    variant = load_variant("nju24")
    graders.prepare(variant)
    steps = tuple(step.source for step in cases.public_cases(variant)[0].steps)
    hits = case_code.case_code.cache_info().hits
    case_code.case_code(steps)
    assert case_code.case_code.cache_info().hits == hits + 1


def test_a_claimed_job_carries_its_upload_variant_and_seed_read_in_the_claim(app):
    from sqlalchemy import select
    from tests.server.conftest import SOLUTION, issue, upload
    from grader.server.grading import queue
    from grader.server.store.models import Seed

    token = issue(app, "s1")["s1"]
    sent = upload(app.test_client(), token, SOLUTION.read_bytes()).get_json()
    grading = graders._Grading(app.config["hog.settings"].engine, queue.grader_name())
    [job] = grading.claim(5)
    number, attempt, variant_id, path, seed, assignment = job
    assert (number, attempt, variant_id, assignment) == (sent["id"], 1, "sp19", "hog")
    assert open(path, "rb").read() == SOLUTION.read_bytes()
    with app.config["hog.settings"].sessions() as session:
        assert seed == session.scalar(select(Seed.seed).where(Seed.assignment == "hog"))   # the assignment's seed
    assert grading.claim(5) == []   # nothing else is queued


@pytest.mark.slow
@pytest.mark.parametrize("given", ["", "&options=-c%20statement_timeout%3D5s",
                                   "&options=-c%20statement_timeout%3D5s&options=-c%20lock_timeout%3D3s"])
def test_postgresql_ends_a_transaction_whose_client_went_silent_and_keeps_the_urls_own_options(postgres, given):
    """A claim skips locked rows: a transaction left open by a killed grader (its socket held elsewhere) would
    hide its rows from every later claim, so the server ends it after IDLE_IN_TRANSACTION_SECONDS."""
    from grader.server.store import db
    from tests.server.conftest import fresh_postgres_database
    engine = db.connect(fresh_postgres_database(postgres) + given)
    try:
        with engine.connect() as connection:
            shown = connection.exec_driver_sql("SHOW idle_in_transaction_session_timeout").scalar()
            statement = connection.exec_driver_sql("SHOW statement_timeout").scalar()
            lock = connection.exec_driver_sql("SHOW lock_timeout").scalar()
    finally:
        engine.dispose()
    assert shown == f"{db.IDLE_IN_TRANSACTION_SECONDS // 60}min"
    assert statement == ("5s" if given else "0")
    assert lock == ("3s" if "lock_timeout" in given else "0")


def test_an_okpy_suite_s_course_files_go_with_it_to_the_server_s_graders(course):
    """suite = "NAME" whose tests import the course's helpers and read its data (tests/check_strategy.py,
    tests/play.sol, hog_gui.py): the server's grader grades with them, the reference earning every point."""
    from grader.cli import main
    from tests import TESTS

    assert main(["--course", str(course), "import-ok", str(TESTS / "data" / "okpy" / "fa18"), "--name", "ok"]) == 0
    config = course / "hog-course.toml"
    config.write_text(config.read_text().replace('[assignments.hog]\n', '[assignments.hog]\nsuite = "ok"\n'))
    reference = TESTS.parent / "solution" / "fa18" / "hog.py"
    data, fault = graders._grade((1, 1, "fa18", str(reference), 7, "hog"), isolation="process")
    assert not fault and {test["name"]: test["score"] for test in data["tests"]} == {
        "Question 1": 2.0, "Question 5": 3.0, "Question 5b": 1.0, "Question 8": 2.0}


def test_an_assignment_that_names_an_okpy_suite_is_graded_with_it(course):
    """``suite = "NAME"`` in [assignments.hog]: its jobs are graded with the imported okpy suite, named by its
    tests' names; "kit+NAME" grades with the kit's cases too."""
    from grader.cli import main
    from tests import TESTS
    from tests.server.conftest import SOLUTION

    assert main(["--course", str(course), "import-ok", str(TESTS / "data" / "okpy" / "sp19"), "--name", "ok"]) == 0
    config = course / "hog-course.toml"
    config.write_text(config.read_text().replace('[assignments.hog]\n', '[assignments.hog]\nsuite = "ok"\n'))
    data, fault = graders._grade((1, 1, "sp19", str(SOLUTION), 7, "hog"), isolation="process")
    assert not fault and (data["score"], data["max_score"]) == (14, 14)
    assert [test["name"] for test in data["tests"]] == [f"Question {n}" for n in range(1, 8)]
    config.write_text(config.read_text().replace('suite = "ok"', 'suite = "kit+ok"'))
    data, fault = graders._grade((1, 1, "sp19", str(SOLUTION), 7, "hog"), isolation="process")
    assert not fault and data["max_score"] > 14 and "Question 7" in [test["name"] for test in data["tests"]]
