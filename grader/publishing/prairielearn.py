"""What an instructor hands out on PrairieLearn: ``hog assign ID --out DIR --platform prairielearn``.

``DIR/questions/hog-ID/`` is a PrairieLearn question: ``info.json`` (a v3 question, externally graded),
``question.html`` (the handout as its text, the downloads, an upload of ``hog.py`` and the grader's
results), ``clientFilesQuestion/`` (what the student downloads: the student folder as a zip, the
skeleton, ``dice.py``, the handout) and ``tests/`` (what the grader needs: the entrypoint ``grade.sh``,
``grading_failed.py``, and the course it grades for, as the Gradescope bundle carries it).

``DIR/grader-image/`` is the build context of the grader image: a ``Dockerfile`` that runs the Gradescope
bundle's ``setup.sh`` on a slim Python, with the kit's wheel in ``kit/``. ``DIR/README.md`` tells the
course staff how to build and publish the image and use the question in an assessment.
"""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

from markupsafe import Markup

from grader import project
from grader.project.files import zip_bytes
from grader.publishing import assign, wheel
from grader.reference import rendering
from grader.spec import Variant

BASE_IMAGE = "python:3.11-slim"
HOME = "/opt/hog-kit"                      # the image's AUTOGRADER_ROOT: the kit, its course, its venv
PYTHON = f"{HOME}/hog-venv/bin/python"     # the Python setup.sh makes
TIMEOUT = 300                              # seconds: the sandbox's own budget (120 s) with room to start
TOPIC = "Hog"
UUIDS = uuid.UUID("6f1d4c2e-8a5b-4e37-9c0d-2b7a1e5f3c48")   # the kit's namespace for question uuids
DOWNLOADS = {"hog.py": "hog.py (the skeleton)", "dice.py": "dice.py", "handout.html": "the handout"}


def question_id(variant: Variant) -> str:
    return f"hog-{variant.id}"


def image() -> str:
    """The image's name until the course staff publish it under theirs (see the README)."""
    return f"hog-grader:{project.version()}"


def info(variant: Variant) -> dict:
    """The question's info.json. Its uuid is the same for the same variant, so a question written
    again replaces the one in the course instead of adding another."""
    return {
        "uuid": str(uuid.uuid5(UUIDS, variant.id)),
        "title": f"Hog ({variant.title})",
        "topic": TOPIC,
        "tags": ["hog", variant.id],
        "type": "v3",
        "singleVariant": True,
        "gradingMethod": "External",
        "externalGradingOptions": {
            "enabled": True,
            "image": image(),
            "entrypoint": "/grade/tests/grade.sh",
            "timeout": TIMEOUT,
        },
    }


def handout_body(html: str) -> str:
    """The handout page's ``<main>``, for the question panel. PrairieLearn reads question.html as a
    Mustache template: braces are written as character references, which HTML shows as braces."""
    found = re.search(r"<main>(.*)</main>", html, re.S)
    body = found.group(1) if found else html
    return body.replace("{", "&#123;").replace("}", "&#125;")


def _render(name: str, variant: Variant, **context) -> str:
    template = rendering.environment("prairielearn", trim_blocks=name.endswith(".html.j2")).get_template(name)
    return template.render(variant=variant, **{"suite": None, **context})


def question_files(variant: Variant, suite: str | None = None) -> dict[str, bytes]:
    """The question folder, by path inside it."""
    student = assign.student_files(variant)
    folder = question_id(variant)
    archive = zip_bytes({f"{folder}/{name}": (text.encode(), 0o644) for name, text in student.items()})
    downloads = {f"{folder}.zip": f"{folder}.zip (the project: skeleton, dice.py, public cases, handout)",
                 **DOWNLOADS}
    files = {
        "info.json": (json.dumps(info(variant), indent=2) + "\n").encode(),
        "question.html": _render("question.html.j2", variant, downloads=list(downloads.items()),
                                 handout=Markup(handout_body(student["handout.html"]))).encode(),
        f"clientFilesQuestion/{folder}.zip": archive,
        "tests/grade.sh": _render("grade.sh.j2", variant, wheel=wheel.name(), python=PYTHON, suite=suite).encode(),
        "tests/grading_failed.py": (assign.SHIPPED / "grading_failed.py").read_bytes(),
    }
    files.update({f"clientFilesQuestion/{name}": student[name].encode() for name in DOWNLOADS})
    files.update({f"tests/{name}": data for name, data in assign.course_files(variant, suite=suite).items()})
    return files


def image_files(variant: Variant, suite: str | None = None) -> dict[str, bytes]:
    """The grader image's build context: the Dockerfile, setup.sh, the kit's wheel and the course."""
    course = {name: data for name, data in assign.course_files(variant, suite=suite).items()
              if name.startswith("course/")}
    return {
        "Dockerfile": _render("Dockerfile.j2", variant, version=project.version(), image=image(),
                              wheel=wheel.name(), base=BASE_IMAGE, home=HOME).encode(),
        "setup.sh": (assign.SHIPPED / "setup.sh").read_bytes(),
        **assign.kit_files(), **course,
    }


def bundle(variant: Variant, suite: str | None = None) -> dict[str, bytes]:
    """Everything ``hog assign --platform prairielearn`` writes, by path relative to DIR (``suite``: graded
    with that imported okpy suite, ``--suite``)."""
    files = {f"questions/{question_id(variant)}/{name}": data
             for name, data in question_files(variant, suite).items()}
    files.update({f"grader-image/{name}": data for name, data in image_files(variant, suite).items()})
    files["README.md"] = _render("README.md.j2", variant, question=question_id(variant), image=image(),
                                 base=BASE_IMAGE, topic=TOPIC, timeout=TIMEOUT,
                                 assessment_uuid=uuid.uuid5(UUIDS, f"assessment {variant.id}")).encode()
    return files


def assign_question(variant: Variant, out: Path, suite: str | None = None) -> dict[str, bytes]:
    """Write the PrairieLearn question and the grader image's context of ``variant`` into ``out``."""
    files = bundle(variant, suite)
    assign.write_folder(out, files)
    return files
