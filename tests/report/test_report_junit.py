"""JUnit XML for CI: one testcase per question, and whether file isolation was on."""

from xml.etree import ElementTree

import pytest

from grader import project
from grader.grading import grade
from grader.report import junit
from grader.spec import load_variant


@pytest.mark.slow
def test_junit_says_how_the_submission_was_isolated():
    result = grade.grade(project.SKELETON / "nju24", load_variant("nju24"))
    suite = ElementTree.fromstring(junit.render(result).split("\n", 1)[1])
    isolation = suite.find("properties/property[@name='isolation']")
    assert isolation is not None and isolation.get("value") == result.isolation
    assert suite.get("tests") == str(len(result.questions)) == str(len(suite.findall("testcase")))
    assert suite.get("failures") == str(sum(not q.passed for q in result.questions))
