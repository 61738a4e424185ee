"""JUnit XML: one testcase per question, a failure element for each that lost points."""

from __future__ import annotations

from xml.etree import ElementTree

from grader import project
from grader.grading.grade import GradeResult
from grader.report.failure import RERUN, describe


def render(result: GradeResult, *, rerun: str = RERUN) -> str:
    suite = ElementTree.Element("testsuite", name=f"hog.{result.variant.id}", time=f"{result.seconds:.3f}")
    properties = ElementTree.SubElement(suite, "properties")
    ElementTree.SubElement(properties, "property", name="isolation", value=str(result.isolation))
    if result.seed is not None:
        ElementTree.SubElement(properties, "property", name="seed", value=str(result.seed))
    ElementTree.SubElement(properties, "property", name="kit_version", value=project.version())
    failures = 0
    if result.grader_error:
        case = ElementTree.SubElement(suite, "testcase", classname=f"hog.{result.variant.id}", name="grader")
        ElementTree.SubElement(case, "error", message="grader failed").text = result.grader_error
        suite.set("tests", "1")
        suite.set("errors", "1")
        suite.set("failures", "0")
        return ElementTree.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"
    for question in result.questions:
        case = ElementTree.SubElement(suite, "testcase", classname=f"hog.{result.variant.id}",
                                      name=question.question.name
                                      or f"q{question.question.number} {question.question.function}")
        ElementTree.SubElement(case, "properties")
        for key, value in (("score", question.score), ("max_score", question.max_score)):
            ElementTree.SubElement(case.find("properties"), "property", name=key, value=f"{value:g}")
        if not question.passed:
            failures += 1
            text = result.import_error or describe(question, result.variant.setup,
                                                   rerun.format(number=question.question.number))
            ElementTree.SubElement(case, "failure", message=f"{question.score:g}/{question.max_score:g} points"
                                   ).text = text
    suite.set("tests", str(len(result.questions)))
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    return ElementTree.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"
