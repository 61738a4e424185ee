"""Plays the games recorded in tests/play.sol again and says each one a play function gets wrong."""

from dice import make_test_dice
from hog import always_roll

GAMES = 'tests/play.sol'


def recorded(path=GAMES):
    """Each game: the dice each player always rolls, the outcomes the dice cycle through, the final scores."""
    games = []
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith('#'):
                rolls0, rolls1, outcomes, score0, score1 = line.split(';')
                games.append((int(rolls0), int(rolls1), [int(o) for o in outcomes.split()],
                              (int(score0), int(score1))))
    return games


def check_play(play, path=GAMES):
    """Print each recorded game that play does not end with the recorded scores."""
    for number, (rolls0, rolls1, outcomes, scores) in enumerate(recorded(path), 1):
        got = play(always_roll(rolls0), always_roll(rolls1), dice=make_test_dice(*outcomes))
        if got != scores:
            print('Game {}: expected {}, got {}'.format(number, scores, got))
