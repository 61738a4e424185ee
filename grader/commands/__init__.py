"""What each verb of ``hog`` does, as keyword-only functions returning an exit status.

One module per group of verbs, so that a verb imports only what it needs (``grader.cli``
imports the module of the verb it runs, and nothing for ``--help``):

- ``authoring``: variants, build, cases, handout, assign, mint (specs, sources, generated files)
- ``grading``: grade, test (one submission: the sandbox, grading, reports)
- ``batch``: grade-batch, report (a class: batches, the class report)
- ``strategy``: analyze, play, contest (the exact engine)
- ``container``: container, doctor (the machine: the container level's image, the levels reachable here)
"""
