"""Hog kit: specs, reference solutions, skeletons, cases and grading for the dice game Hog."""

__version__ = "0.1.0"
