"""Grading, outside the web process: the job table (``queue``), the grader process that claims its rows
(``graders``), and the grader's look at its own machine before it claims any (``healing``)."""
