"""The kit's tests, mirroring the package: tests/<stage>/ holds the tests of grader/<stage>/."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent   # tests/: its data, submissions and goldens
ROOT = TESTS.parent                       # the checkout
