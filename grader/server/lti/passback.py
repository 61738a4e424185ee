"""Counted scores sent back to the platforms' gradebooks, outside any web request and never delaying grading.

Whenever a submission's counted score may have been set or changed (a result recorded, an extension changed,
a launch recorded, the server started after a config change), ``refresh`` writes the score wanted on each of
the person's links to that assignment (``Link``); a link whose wanted score differs from the one last sent is
due. The sender (``Sender``, a thread of ``hog serve``) leases due links, one sender at a time per link,
posts each score, and records what it sent; a failure (the LMS down for hours, an error answered) is kept
with its reason, shown on the staff pages, and tried again later after each failure (``BACKOFF``). The queue is
the table: it survives restarts. A score equal to the one sent already is not sent again.
"""

from __future__ import annotations

import sys
import threading
from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import Connection, Engine, and_, or_, select, update
from sqlalchemy.orm import Session

from grader.server.course import groups, manual, reviews, standing
from grader.server.lti import ags, platforms
from grader.server.store import db
from grader.server.store.models import GRADING, QUEUED, Identity, Link, Person
from grader.spec.serving import Server

BACKOFF = (10.0, 30.0, 60.0, 300.0, 900.0, 3600.0)   # seconds before the next try, after each failure; the last repeats
LEASE = timedelta(minutes=2)    # a sender's hold on a link while it sends (one that died frees it after this)
BATCH = 20                      # links leased at a time
IDLE_SECONDS = 1.0              # between looks at an empty queue
RECORD_PATIENCE = 600.0         # seconds a score sent is tried to be recorded while the database does not answer
PLACES = 6                      # decimal places two scores are compared at


def _same(first: float | None, second: float | None) -> bool:
    if first is None or second is None:
        return first is second
    return round(first, PLACES) == round(second, PLACES)


def refresh(session: Session, server: Server, person_id: int, assignment: str) -> int:
    """The person's links to ``assignment`` given their total now (``manual.grade`` of their ``standing``:
    theirs, by their own window, of their group's submissions where they are in one; the points given by hand
    once released); how many became due. None while a submission that may count for them waits to be graded: a
    regrade's first results would send the scores of a gradebook half regraded (the older submission's, where
    the last counts)."""
    links = list(session.scalars(select(Link).where(Link.person_id == person_id, Link.assignment == assignment)))
    rules = server.assignment(assignment)
    if not links or rules is None:
        return 0
    seen, mine = standing.for_person(session, rules, person_id)
    if any(each.status in (QUEUED, GRADING) for each in seen):
        return 0   # the counted score is not settled (a regrade half done): the last result recorded refreshes
    if mine.total is None:
        return 0
    released = manual.released_at(session, assignment) is not None   # the manual part counts once released
    score, maximum = manual.grade(rules, mine, reviews.of_person(session, person_id, assignment), released)
    became = 0
    for link in links:
        if maximum is None or (_same(score, link.wanted_score) and _same(maximum, link.wanted_maximum)):
            continue
        link.wanted_score, link.wanted_maximum, link.wanted_at = score, maximum, db.now()
        was, link.due = link.due, not (_same(score, link.sent_score) and _same(maximum, link.sent_maximum))
        if link.due:
            link.tries, link.next_try_at, link.problem = 0, None, None
        became += link.due and not was
    return became


def refresh_assignment(session: Session, server: Server, assignment: str) -> int:
    """``refresh`` of every person with a link to ``assignment`` (its manual grades released)."""
    people = session.scalars(select(Link.person_id).where(Link.assignment == assignment).distinct()).all()
    return sum(refresh(session, server, person, assignment) for person in people)


def refresh_person(session: Session, server: Server, student_id: str) -> int:
    """``refresh`` of each assignment a person has launched (their submissions or launches changed hands)."""
    person_id = session.scalars(select(Person.id).where(Person.student_id == student_id)).first()
    assignments = set(session.scalars(select(Link.assignment).where(Link.person_id == person_id)))
    return sum(refresh(session, server, person_id, assignment) for assignment in sorted(assignments))


def refresh_after(connection: Connection, server: Server | None, person_id: int, assignment: str) -> None:
    """``refresh`` of the person and their group's members (a submission of one is each one's) inside a
    transaction already begun on ``connection`` (a result being recorded): committed with it. People with no
    link to the assignment cost two indexed looks."""
    if server is None:
        return
    with Session(bind=connection, join_transaction_mode="create_savepoint") as session:
        people = groups.member_ids(session, person_id, assignment)
        if session.execute(select(Link.id).where(Link.person_id.in_(people), Link.assignment == assignment)
                           .limit(1)).first() is None:
            return
        for each in people:
            refresh(session, server, each, assignment)
        session.commit()


def refresh_all(engine: Engine, server: Server) -> int:
    """Every link given its counted score now (at start: a penalty changed in the config changes scores)."""
    with Session(engine) as session, session.begin():
        db.writing(session)
        pairs = session.execute(select(Link.person_id, Link.assignment).distinct()).all()
        return sum(refresh(session, server, person, assignment) for person, assignment in pairs)


def _ready(now: datetime):
    return and_(Link.due.is_(True), or_(Link.next_try_at.is_(None), Link.next_try_at <= now),
                or_(Link.leased_until.is_(None), Link.leased_until < now))


def lease(engine: Engine, count: int = BATCH) -> list[int]:
    """Up to ``count`` due links, now this sender's for LEASE: their ids."""
    now = db.now()
    chosen = select(Link.id).where(_ready(now)).order_by(Link.next_try_at, Link.id).limit(count).scalar_subquery()
    with engine.begin() as connection:
        return sorted(connection.scalars(update(Link).where(Link.id.in_(chosen), _ready(now))
                                         .values(leased_until=now + LEASE).returning(Link.id)))


def _patiently(call, *args):
    """``call(*args)``, tried again while the database does not answer (for RECORD_PATIENCE seconds): a score
    the platform took is recorded as sent, rather than sent again."""
    return db.patiently(call, *args, seconds=RECORD_PATIENCE, pauses=(2.0,))


def _sent(engine: Engine, link_id: int, score: float, maximum: float, lineitem: str) -> None:
    with Session(engine) as session, session.begin():
        db.writing(session)
        link = session.get(Link, link_id)
        link.sent_score, link.sent_maximum, link.sent_at, link.lineitem = score, maximum, db.now(), lineitem
        link.due = not (_same(link.wanted_score, score) and _same(link.wanted_maximum, maximum))
        link.tries, link.problem, link.next_try_at, link.leased_until = 0, None, None, None


def _failed(engine: Engine, link_id: int, why: str, lineitem: str | None) -> None:
    with Session(engine) as session, session.begin():
        db.writing(session)
        link = session.get(Link, link_id)
        link.tries += 1
        link.problem, link.leased_until = why[:2000], None
        link.lineitem = link.lineitem or lineitem
        link.next_try_at = db.now() + timedelta(seconds=BACKOFF[min(link.tries, len(BACKOFF)) - 1])


def send(engine: Engine, client: ags.Client, link_id: int) -> bool:
    """Post one leased link's wanted score; whether the platform took it (if not, why is recorded)."""
    with Session(engine) as session:
        link = session.get(Link, link_id)
        found = platforms.registered(session, link.issuer, link.client_id)
        bound = session.scalars(select(Identity.id).where(Identity.person_id == link.person_id, Identity.issuer ==
                                                          link.issuer, Identity.subject == link.subject)).first()
        session.expunge_all()
    score, maximum, lineitem = link.wanted_score, link.wanted_maximum, link.lineitem
    try:
        if not found:
            raise ags.Failed(f"the platform {link.issuer} (client id {link.client_id}) is no longer registered: "
                             f"hog serve lti add-platform it again, and the score is sent")
        if bound is None:   # scores go only to the platform identity the person is bound to
            raise ags.Failed(f"the launch's user {link.subject} of {link.issuer} is not this person's identity there "
                             f"(joined to another person): not sent")
        if lineitem is None and link.lineitems is None:
            raise ags.Failed("the launch named no line item (the LMS gave this link no grade services): make the "
                             "link a graded assignment in the LMS, and launch it again")
        lineitem = lineitem or client.lineitem_for(found[0], link.lineitems, assignment=link.assignment,
                                                   resource_link_id=link.resource_link_id, maximum=maximum)
        client.post_score(found[0], lineitem, user=link.subject, score=score, maximum=maximum,
                          when=db.utc(link.wanted_at))
    except ags.Failed as error:
        _patiently(_failed, engine, link_id, str(error), lineitem)
        return False
    _patiently(_sent, engine, link_id, score, maximum, lineitem)
    return True


def send_due(engine: Engine, client: ags.Client) -> tuple[int, int]:
    """Send every link due now; (sent, failed)."""
    sent = failed = 0
    while ids := lease(engine):
        for link_id in ids:
            if send(engine, client, link_id):
                sent += 1
            else:
                failed += 1
    return sent, failed


class Sender:
    """The thread that sends due scores while ``hog serve`` runs (its own database engine)."""

    def __init__(self, database: str, server_folder: Path):
        self.engine, self.client = db.connect(database), ags.Client(server_folder)
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="hog-passback", daemon=True)

    def start(self) -> "Sender":
        self.thread.start()
        return self

    def _run(self) -> None:
        while not self.stopping.is_set():
            try:
                sent, failed = send_due(self.engine, self.client)
            except Exception as error:   # the database gone a long while, or a fault of the kit: said, tried again
                print(f"the passback of scores to LMSs: {type(error).__name__}: {error}", file=sys.stderr, flush=True)
                sent = failed = 0
                self.stopping.wait(BACKOFF[0])
            if not sent and not failed:
                self.stopping.wait(IDLE_SECONDS)

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(ags.HTTP_SECONDS * 2)
        self.engine.dispose()


def state_text(link: Link) -> str:
    """Where a link's passback is, as the staff pages say it."""
    if link.due and link.tries:
        return (f"not sent: tried {link.tries} times, next at {db.utc(link.next_try_at).isoformat(timespec='seconds')}"
                f" ({link.problem})")
    if link.due:
        return "to send"
    if link.sent_at is not None:
        when = db.utc(link.sent_at).isoformat(timespec="seconds")
        return f"sent {link.sent_score:g} / {link.sent_maximum:g} at {when}"
    return "no score yet"


def links(session: Session, person_id: int | None = None) -> list[Link]:
    """Every launch recorded (of one person where given), people's first, by student id and assignment."""
    query = select(Link).join(Link.person).order_by(Link.person_id, Link.assignment, Link.issuer)
    return list(session.scalars(query.where(Link.person_id == person_id) if person_id is not None else query))
