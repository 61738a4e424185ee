"""The Hog contest: every submission's final_strategy against every other, exactly, both seats.

entrants.py (tables from the sandbox, as grading tabulates them, or from a cache) ->
engine.py (every pair at once) -> standings.py (the ranking, the CSV) -> tournament.py (hog contest).
"""
