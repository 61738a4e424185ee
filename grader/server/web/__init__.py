"""The web process: the Flask application factory (``app``), who a request comes from (``access``), the
student's, staff's, API and LTI routes (``student``, ``staff``, ``api``, ``lti``), an upload taken in
(``intake``), the answers to requests it cannot serve now (``faults``), the security headers (``headers``),
``/healthz`` and ``/metrics`` (``health``, ``metrics``), and grading by hand: its API (``reviewing``), the
staff's grading pages and the student's regrade form (``grading``), a submission's code highlighted
(``code``). Pages are templates under ``grader/templates/server/``; their script and style are ``static/``."""
