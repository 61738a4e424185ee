"""Checks that a strategy returns a valid number of dice for every pair of scores below the goal."""


def check_strategy_roll(score, opponent_score, num_rolls):
    """Raise an error naming the scores when num_rolls is not a whole number of dice from 0 to 10."""
    msg = 'strategy({}, {}) returned {}'.format(score, opponent_score, num_rolls)
    assert type(num_rolls) == int, msg + ' (not an integer)'
    assert 0 <= num_rolls <= 10, msg + ' (invalid number of rolls)'


def check_strategy(strategy, goal=100):
    """Check strategy for each score and opponent score below goal; it shows nothing when it is valid."""
    for score in range(goal):
        for opponent_score in range(goal):
            check_strategy_roll(score, opponent_score, strategy(score, opponent_score))
