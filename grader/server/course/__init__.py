"""The course's rules and records, read from the store: people and their sign-in tokens (``people``), an
assignment's rules for a submission (``policy``), the live gradebook (``gradebook``), the contest
leaderboard (``leaderboard``), the class and similarity reports (``reports``), and grading by hand: the
total of an assignment (``totals``), the manual part of a grade (``manual``), reviews on the rubric and
their release (``reviews``), regrade requests (``regrades``)."""
