"""The course server (``hog serve``): students submit during the term and read their grade in seconds.

The web process only accepts, stores and shows; a submission becomes a row of the job table, and a grader
process claims rows and grades them with the kit's own per-submission path, in the sandbox. Its rooms, each
importing only the ones before it:

- ``store``: the database (tables, migrations, sessions), the uploaded files, the graders' lock files, and
  backups of all of it;
- ``course``: the course's rules and records over the store: people and their tokens, an assignment's
  policy (open, late days, penalty, the counted score), the gradebook, the leaderboard, the reports;
- ``lti``: the course as an LTI 1.3 tool of its platforms: registrations, keys, launches checked, rosters,
  and scores sent back;
- ``grading``: the job queue and the grader process that claims its rows, and the grader's look at its
  machine;
- ``web``: the Flask application (``web.app``) and what reaches it: who a request comes from, the student,
  staff, API and LTI routes, uploads taken in, the security headers, ``/healthz`` and ``/metrics``.
"""
