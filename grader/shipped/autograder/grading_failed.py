"""Write a results.json that tells the student why grading did not complete.

run_autograder runs this with the kit's Python when ``hog grade`` exits with an
error: ``python grading_failed.py RESULTS LOG``, where LOG holds what the grader
printed. It needs the standard library only, so it works when the kit does not.
"""

import json
import sys

results, log = sys.argv[1], sys.argv[2]
with open(log, encoding="utf-8", errors="replace") as file:
    error = file.read().strip() or "the grader stopped without a message"
output = ("The autograder could not grade this submission:\n\n" + error + "\n\n"
          "Check that you submitted hog.py. If you did, tell your instructor.")
with open(results, "w", encoding="utf-8") as file:
    json.dump({"score": 0, "output": output, "tests": []}, file, indent=2)
