"""Grading: what came back from the sandbox, compared here and scored per question.

``grade`` runs a submission's cases in ``grader.sandbox`` and turns what each line showed into
verdicts and points; ``tabulate`` reads ``final_strategy`` as a table and scores it by its exact win
rate; ``construct_check`` looks for constructs a question forbids, parsing in a bounded process.
"""
