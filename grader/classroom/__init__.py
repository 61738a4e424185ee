"""A class's work: many submissions, many students, many processes.

``submissions`` says what in a folder is a submission; ``batch`` grades a folder of them resumably;
``pool`` (worker processes) and ``cluster`` (Dask) run the work; ``roster`` gives each section or student
a variant; ``play`` serves the Hog page on the reference rules for class.
"""
