"""The GitHub workflow's Summarise step: each question's public cases → points for GitHub Classroom.

grade.yml runs this text inline (the workflow needs no copy of the kit). It reads
pytest's public-cases.xml and HOG_QUESTIONS, writes the run's summary and the
base64 report the Classroom reporter reads. Standard library only.
"""
import base64, json, os
from xml.etree import ElementTree
questions = json.loads(os.environ["HOG_QUESTIONS"])
try:
    cases = ElementTree.parse("public-cases.xml").getroot().iter("testcase")
    outcome = {}
    for case in cases:
        key = (case.get("name") or "").split(".")[0]   # tests/q03.md runs as q03.md
        failed = case.find("failure") is not None or case.find("error") is not None
        outcome[key] = outcome.get(key, True) and not failed and case.find("skipped") is None
except (OSError, ElementTree.ParseError):
    outcome = None
tests, lines = [], []
if outcome is None:
    status = "error"
    lines = ["## Hog: the public cases did not run", "", "See the log of the step that runs them."]
else:
    for question in questions:
        passed = outcome.get(question["key"], False)
        graded = question["graded_here"]
        score = question["points"] if passed and graded else 0
        message = "" if graded else "its points come from its exact win rate, in the instructor's grading"
        tests.append({"name": f"Question {question['label']}: {question['title']}",
                      "status": "pass" if passed else "fail", "score": score,
                      "max_score": question["points"] if graded else 0, "message": message})
    score = sum(test["score"] for test in tests)
    top = sum(test["max_score"] for test in tests)
    status = "pass" if score >= top else "fail"
    lines = [f"## Hog, public cases: {score:g} / {top:g}", "",
             "Hidden cases and the final strategy's win rate are graded by your instructor.", "",
             "| Question | Public cases | Points |", "|---|---|---|"]
    lines += [f"| {test['name'].replace('|', '/')} | {'passed' if test['status'] == 'pass' else 'failed'} "
              f"| {test['score']:g} / {test['max_score']:g} |" for test in tests]
report = {"version": 1, "status": status, "max_score": sum(t["max_score"] for t in tests),
          "tests": tests}
with open(os.environ["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as file:
    file.write("\n".join(lines) + "\n")
encoded = base64.b64encode(json.dumps(report).encode()).decode()
with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as file:
    file.write(f"result={encoded}\n")
