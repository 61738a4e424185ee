"""What the course server keeps: the database (``db``, ``models``, ``migrations``), the uploaded files
(``uploads``), the graders' lock files (``liveness``), and consistent copies of them all (``dumps``,
``backup``)."""
