"""Sources the kit renders or ships: the reference hog.py templates, dice.py, the student folder's files."""
