"""Write a results.json that tells the student why grading did not complete.

run_autograder runs this with the kit's Python when ``hog grade`` exits with an
error: ``python grading_failed.py RESULTS LOG``, where LOG holds what the grader
printed. It needs the standard library only, so it works when the kit does not.
The PrairieLearn question's grade.sh adds ``prairielearn``: the results are then
PrairieLearn's, "not gradable" (no score, no attempt charged) with the reason.
"""

import json
import sys

results, log = sys.argv[1], sys.argv[2]
platform = sys.argv[3] if len(sys.argv) > 3 else "gradescope"
with open(log, encoding="utf-8", errors="replace") as file:
    error = file.read().strip() or "the grader stopped without a message"
output = ("The autograder could not grade this submission:\n\n" + error + "\n\n"
          "Check that you submitted hog.py. If you did, tell your instructor.")
with open(results, "w", encoding="utf-8") as file:
    if platform == "prairielearn":
        json.dump({"gradable": False, "message": output, "format_errors": [output], "tests": []}, file, indent=2)
    else:
        json.dump({"score": 0, "output": output, "tests": []}, file, indent=2)
