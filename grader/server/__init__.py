"""The course server (``hog serve``): students submit during the term and read their grade in seconds.

The web process (``app``: Flask on waitress) only accepts, stores and shows; a submission becomes a row
of the job table (``queue``), and a grader process (``graders``) claims rows and grades them with the
kit's own per-submission path, in the sandbox. Data flows: config (``grader.spec.serving``) → people and
uploads → queue → graders → results shown by the student, staff and API routes.
"""
