"""Print the variant a roster assignment gives this submission's submitters, or tell them why not.

run_autograder runs this with the kit's Python in a roster assignment (``hog assign --roster``):
``python pick_variant.py METADATA MANIFEST RESULTS``. METADATA is Gradescope's
``submission_metadata.json`` (its ``users``: each submitter's ``email`` and ``sid``); MANIFEST is the
roster's ``manifest.csv`` (``student_id``, ``email``, ``section``, ``variant``). A submitter is found
by student id, else by email (without case). When every submitter is found and all have one variant,
it prints that variant and exits 0. Otherwise it writes a results.json with a visible message and no
grade (no tests, score 0) and exits 1: a submission is never graded under another variant's rules.
It needs the standard library only.
"""

import csv
import json
import sys


def refuse(results: str, message: str) -> None:
    with open(results, "w", encoding="utf-8") as file:
        json.dump({"score": 0, "output": message + "\n\nThis submission was not graded. Tell your instructor.",
                   "tests": []}, file, indent=2)
    sys.exit(1)


def main(metadata_path: str, manifest_path: str, results: str) -> None:
    try:
        with open(metadata_path, encoding="utf-8") as file:
            users = json.load(file).get("users") or []
    except (OSError, ValueError, AttributeError) as error:
        refuse(results, f"The autograder could not read who submitted ({error}).")
    try:
        with open(manifest_path, newline="", encoding="utf-8-sig") as file:
            rows = list(csv.DictReader(file))
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        refuse(results, f"grader failed: the autograder could not read its roster, manifest.csv ({error}).")
    by_id = {row["student_id"].strip(): row for row in rows if row.get("student_id", "").strip()}
    by_email = {row["email"].strip().lower(): row for row in rows if row.get("email", "").strip()}
    if not users:
        refuse(results, "The submission names no submitter, so its rules cannot be chosen.")
    variants = {}
    for user in users:
        sid, email = str(user.get("sid") or "").strip(), str(user.get("email") or "").strip()
        row = by_id.get(sid) if sid else None
        row = row or (by_email.get(email.lower()) if email else None)
        if row is None:
            who = email or sid or user.get("name") or "a submitter"
            refuse(results, f"{who} is not on this assignment's roster, so the autograder does not know "
                            f"which rules apply to them.")
        variant = (row.get("variant") or "").strip()
        if not variant:
            refuse(results, f"grader failed: the autograder's roster, manifest.csv, gives {email or sid} no "
                            f"variant.")
        variants[email or sid] = variant
    if len(set(variants.values())) > 1:
        listed = ", ".join(f"{who}: {variant}" for who, variant in sorted(variants.items()))
        refuse(results, f"The members of this group were given different rules ({listed}); each must submit "
                        f"their own work under their own rules.")
    print(next(iter(variants.values())))


if __name__ == "__main__":
    main(*sys.argv[1:4])
