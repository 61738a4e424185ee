"""Files the kit ships verbatim: dice.py, the student folder's pytest wiring, the autograder's scripts."""
