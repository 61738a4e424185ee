"""The course's rules and records, read from the store: people and their sign-in tokens (``people``), an
assignment's rules for a submission (``policy``), the live gradebook (``gradebook``), the contest
leaderboard (``leaderboard``), and the class and similarity reports (``reports``)."""
