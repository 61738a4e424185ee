"""The course's web GUI for Hog: what the page asks of hog.py (the page itself is served from gui_files/)."""

import dice
import hog
from gui_files.common_server import route


@route
def final_scores(rolls0, rolls1, outcomes):
    """The final scores of a game where each player always rolls the same number of dice."""
    return hog.play(hog.always_roll(rolls0), hog.always_roll(rolls1), dice=dice.make_test_dice(*outcomes))
