"""The verbs of where grading runs: container, doctor, and the course server (serve)."""

from __future__ import annotations

from typing import Callable

from grader.cli.options import CORES, Parser, add_cluster_options


def add(add_verb: Callable, ids: str) -> None:
    """Add the verbs of this group; ``add_verb(name, help=...)`` gives each one's parser."""
    container = add_verb("container", help="build this kit's image for --isolation container (Docker or Podman)")
    container.add_argument("action", choices=("build",), help="build: now (the first grading at that level does)")
    container.add_argument("--base", metavar="IMAGE", help="the image to build on, with Python 3.11 or later "
                                                           "(default: $HOG_CONTAINER_BASE, else python:3.11-slim)")

    add_verb("doctor", help="which isolation levels this machine can reach, and why not")

    serve = add_verb("serve", help="the course server: students submit, graded at once (pip install 'hog-kit[server]')")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1, this machine)")
    serve.add_argument("--port", type=int, default=8000, metavar="N", help="the port (default 8000; 0: any free)")
    serve.add_argument("--jobs", type=int, default=CORES, metavar="N", help="submissions graded at once (default: the cores)")
    add_cluster_options(serve, "submissions graded")
    actions = serve.add_subparsers(dest="action", metavar="ACTION", parser_class=Parser)
    people = actions.add_parser("people", help="a new sign-in link for each person of a roster: server/people.csv")
    people.add_argument("roster", metavar="ROSTER.csv", help="a roster as for hog assign --roster")
    people.add_argument("--role", choices=("student", "staff"), default="student", help="(default: student)")
    regrade = actions.add_parser("regrade", help="grade every submission of an assignment again")
    regrade.add_argument("assignment", metavar="ASSIGNMENT", help="an [assignments.NAME] of the course config")
    release = actions.add_parser("release", help="release an assignment's grades given by hand: students see their "
                                                 "reviews, the totals count them, and regrade requests open")
    release.add_argument("assignment", metavar="ASSIGNMENT", help="an [assignments.NAME] of the course config")
    grouping = actions.add_parser("groups", help="set an assignment's groups from a CSV (student_id,group), checked "
                                                 "before anything changes; prints what changed")
    grouping.add_argument("assignment", metavar="ASSIGNMENT", help="an [assignments.NAME] with group_size above 1")
    grouping.add_argument("groups_csv", metavar="GROUPS.csv", help="every group of the assignment: a student id "
                                                                    "and a group name a line (a student left out: none)")
    backup = actions.add_parser("backup", help="copy the database, the uploads and the server's keys into a new "
                                                "folder, while the server runs")
    backup.add_argument("folder", metavar="DEST", help="a new (or empty) folder; written readable by you alone")
    restore = actions.add_parser("restore", help="put a backup back into this course's empty server folder "
                                                 "(and empty database), brought to the newest schema")
    restore.add_argument("folder", metavar="SRC", help="a folder hog serve backup wrote")
    unit = actions.add_parser("unit", help="print the systemd unit that runs this course's server as a service")
    unit.add_argument("--user", default="hog", metavar="NAME", help="the service's own user (default: hog)")
    unit.add_argument("--host", default="127.0.0.1", help="the address it listens on (default: 127.0.0.1)")
    unit.add_argument("--port", type=int, default=8000, metavar="N", help="the port (default 8000)")
    lti = actions.add_parser("lti", help="LTI 1.3: register the LMSs (Canvas, Moodle, ...) students launch it from")
    for each in (serve, people, regrade, release, grouping, backup, restore, unit, *_add_lti(lti)):
        each.add_argument("--database", metavar="URL", help="sqlite:///PATH or postgresql://... (default: SQLite in server/)")


def _add_lti(lti) -> tuple:
    """``hog serve lti add-platform|list|remove|link|unlink|trust-email|join|roster|config``: their parsers."""
    verbs = lti.add_subparsers(dest="lti_action", metavar="ACTION", parser_class=Parser, required=True)
    add = verbs.add_parser("add-platform", help="record an LMS and a deployment of the tool there (from the LMS's "
                                                "registration of the tool)")
    remove = verbs.add_parser("remove", help="forget a deployment (--deployment-id), or a platform")
    for each, required in ((add, True), (remove, False)):
        each.add_argument("--issuer", required=True, metavar="URL", help="the platform's issuer (Canvas: "
                          "https://canvas.instructure.com; Moodle: the site's address)")
        each.add_argument("--client-id", required=required, metavar="ID", help="the client id the LMS gave the tool")
        each.add_argument("--deployment-id", required=required, metavar="ID", help="the deployment's id in the LMS")
    add.add_argument("--auth-url", required=True, metavar="URL", help="the platform's OIDC authorization URL")
    add.add_argument("--token-url", required=True, metavar="URL", help="the platform's OAuth 2 token URL")
    add.add_argument("--jwks-url", required=True, metavar="URL", help="the platform's public keyset (JWKS) URL")
    add.add_argument("--lms-url", metavar="URL", help="the address the LMS's pages are at, which frame the tool "
                     "(default: the issuer's; Canvas: your school's, e.g. https://school.instructure.com)")
    add.add_argument("--context", dest="contexts", action="append", default=[], metavar="ID", help="an LMS course (context id) of "
                     "this deployment whose staff and learners this server serves (again for several); hog serve "
                     "lti link binds one later")
    add.add_argument("--trust-email", action="store_true", default=None, help="the platform's emails are verified: "
                     "a first launch joins the roster's person with that email (one with no LMS identity yet)")
    add.add_argument("--service-origin", action="append", default=[], metavar="ORIGIN", help="where the platform's "
                     "grade and roster services are, besides its URLs' origins (scheme://host[:port])")
    link = verbs.add_parser("link", help="bind an LMS course (context) of a deployment to this course server")
    unlink = verbs.add_parser("unlink", help="unbind an LMS course: its launches are refused from then on")
    for each in (link, unlink):
        each.add_argument("--issuer", required=True, metavar="URL", help="the platform's issuer")
        each.add_argument("--deployment-id", required=True, metavar="ID", help="the deployment the course is in")
        each.add_argument("context_id", metavar="CONTEXT_ID", help="the LMS course's context id (hog serve lti list "
                          "shows those launched from)")
    trust = verbs.add_parser("trust-email", help="whether a platform's emails are verified (joining a first launch "
                                                 "to the roster's person by email)")
    trust.add_argument("--issuer", required=True, metavar="URL", help="the platform's issuer")
    trust.add_argument("switch", choices=("on", "off"), help="on: its emails are verified; off: never joined by email")
    join = verbs.add_parser("join", help="join an unmatched person a launch made (lti:...) to the roster's person")
    join.add_argument("new_id", metavar="NEW_ID", help="the unmatched person's student id (lti:...)")
    join.add_argument("roster_id", metavar="ROSTER_ID", help="the roster's person's student id")
    listed = verbs.add_parser("list", help="the platforms, deployments and LMS courses recorded")
    members = verbs.add_parser("roster", help="the members of each LMS course launched from, made people of the "
                                              "course (the gradebook lists them before they launch)")
    config = verbs.add_parser("config", help="print what an LMS administrator enters: the tool's URLs, and "
                                             "Canvas's JSON developer-key configuration")
    return add, remove, link, unlink, trust, join, listed, members, config
