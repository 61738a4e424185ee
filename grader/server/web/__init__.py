"""The web process: the Flask application factory (``app``), who a request comes from (``access``), the
student's, staff's, API and LTI routes (``student``, ``staff``, ``api``, ``lti``), an upload taken in
(``intake``), the answers to requests it cannot serve now (``faults``), the security headers (``headers``),
and ``/healthz`` and ``/metrics`` (``health``, ``metrics``). Pages are templates under
``grader/templates/server/``; their script and style are ``static/``."""
