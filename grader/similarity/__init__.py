"""``hog similarity``: which submissions of a batch look alike, by structure, for a human to read.

``fingerprint`` turns one hog.py into winnowed fingerprints of its normalised
syntax tree; ``compare`` scores every pair, leaving out the skeleton's code and
what many submissions share; ``batch`` finds the submissions of a folder and
writes ``similarity.json`` and ``similarity.html``. A high score is a lead, not
a verdict: the page says so.
"""
