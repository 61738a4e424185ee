"""The rules of the five historic variants, as catalogue members.

Each function's text is what the variant's ``hog.py`` holds (the name aside), so
the historic variants are built from here like any minted one; ``summary`` and
``choices`` are the spec's words for the rule.
"""

from __future__ import annotations

import functools

from grader.catalogue.model import make

ONE_DIGIT = "A one-digit score has a tens digit of 0."


def free_bacon_min_plus_one(score):
    """Return the points scored from rolling 0 dice (Free Bacon): one more than
    the smaller of the tens and ones digits of the opponent's score.

    score:  The opponent's current score.
    """
    tens, ones = score // 10 % 10, score % 10
    return 1 + min(tens, ones)


def free_bacon_double_tens(score):
    """Return the points scored from rolling 0 dice (Free Bacon): twice the tens
    digit minus the ones digit of the opponent's score, or 1 if that is higher.

    score:  The opponent's current score.
    """
    tens, ones = score // 10 % 10, score % 10
    return max(2 * tens - ones, 1)


def free_bacon_ten_minus_min(score):
    """Return the points scored from rolling 0 dice (Free Bacon): ten minus the
    smaller of the tens and ones digits of the opponent's score.

    score:  The opponent's current score.
    """
    tens, ones = score // 10 % 10, score % 10
    return 10 - min(tens, ones)


def picky_piggy_digit_difference(opponent_score):
    """Return the points scored by rolling 0 dice (Picky Piggy): twice the
    absolute difference of the tens and ones digits of OPPONENT_SCORE, plus 1.

    opponent_score:  The total score of the other player.
    """
    tens, ones = opponent_score // 10 % 10, opponent_score % 10
    return 2 * abs(tens - ones) + 1


def picky_piggy_one_over_21(score):
    """Return the points scored by rolling 0 dice (Picky Piggy): the SCORE-th
    digit after the decimal point of 1/21 = 0.047619047619..., or 1 point when
    SCORE is 0.

    score:  The opponent's current score.
    """
    if score == 0:
        return 1
    digit, remainder = 0, 1
    score = (score - 1) % 6 + 1   # the expansion repeats every six digits
    while score > 0:
        remainder = remainder * 10
        digit, remainder = remainder // 21, remainder % 21
        score = score - 1
    return digit


def swap_same_place_digit(player_score, opponent_score):
    """Return whether the two scores should be swapped (Swine Swap): they share a
    digit in the same place value. A leading zero is not a digit, so 0 has no
    digits and 5 has no tens digit; a trailing zero is a digit (20 and 30 share
    the 0 in the ones place).
    """
    while player_score > 0 and opponent_score > 0:
        if player_score % 10 == opponent_score % 10:
            return True
        player_score, opponent_score = player_score // 10, opponent_score // 10
    return False


def swap_digit_difference(player_score, opponent_score):
    """Return whether the two scores should be swapped (Swine Swap): the absolute
    difference between the tens and ones digits is the same for both scores.
    A one-digit score has a tens digit of 0; a score of 100 or more uses its
    last two digits.
    """
    def digit_difference(score):
        return abs(score // 10 % 10 - score % 10)
    return digit_difference(player_score) == digit_difference(opponent_score)


def swap_first_last_product(player_score, opponent_score):
    """Return whether the two scores should be swapped (Swine Swap): the first
    digit times the last digit of one score equals the same product for the
    other score. The first digit of a one-digit score is the score itself, so
    the product for 0 is 0 * 0 = 0.
    """
    def first_times_last(score):
        first = score
        while first >= 10:
            first = first // 10
        return first * (score % 10)
    return first_times_last(player_score) == first_times_last(opponent_score)


def swap_perfect_square(score):
    """Return whether the scores should be swapped (Swine Swap): SCORE, the
    current player's score after the turn's points, is a perfect square
    (d * d for some integer d; 0 = 0 * 0 counts).
    """
    root = 0
    while root * root < score:
        root = root + 1
    return root * root == score


def swap_excitement(player_score, opponent_score):
    """Return whether the two scores should be swapped (Swine Swap): the first
    and the last digit of 3 to the power of the sum of both scores are equal.
    When both scores are 0, 3 ** 0 is 1, whose first and last digit are the
    same digit, so the (harmless) swap happens.
    """
    excitement = str(3 ** (player_score + opponent_score))
    return excitement[0] == excitement[-1]


SWAP_BEFORE_WIN = "The swap is judged before the game checks for a winner, so a swap can hand the opponent the win."

@functools.cache
def members() -> tuple:
    """The members, validated on first use (a bad one is a CatalogueError naming its line, not a crash)."""
    return (
        make("zero_dice", function=free_bacon_min_plus_one, name="Free Bacon",
             summary="Rolling zero dice scores one point more than the smaller of the tens digit and the ones "
                     "digit of the opponent's score.",
             choices=["A one-digit score has a tens digit of 0, so rolling zero dice against it scores 1."],
             branches=[((39,), "The smaller digit of 39 is 3."), ((7,), ONE_DIGIT),
                       ((85,), "The smaller digit may be the ones digit.")]),
        make("zero_dice", function=free_bacon_double_tens, name="Free Bacon",
             summary="Rolling zero dice scores twice the tens digit of the opponent's score minus its ones digit, "
                     "but never less than 1 point.",
             choices=["A one-digit score has a tens digit of 0, so rolling zero dice against it scores 1."],
             branches=[((62,), "Twice 6 minus 2."), ((19,), "Twice 1 minus 9 is below 1, so 1."), ((7,), ONE_DIGIT)]),
        make("zero_dice", function=free_bacon_ten_minus_min, name="Free Bacon",
             summary="Rolling zero dice scores ten points minus the smaller of the tens digit and the ones digit "
                     "of the opponent's score.",
             choices=["A one-digit score has a tens digit of 0, so rolling zero dice against it scores 10."],
             branches=[((48,), "Ten minus 4."), ((7,), ONE_DIGIT)]),
        make("zero_dice", function=picky_piggy_digit_difference, name="Picky Piggy",
             summary="Rolling zero dice scores twice the distance between the tens digit and the ones digit of the "
                     "opponent's score, plus 1.",
             choices=["A one-digit score has a tens digit of 0, so rolling zero dice against 7 scores 2 * 7 + 1 = 15.",
                      "The tens digit is the second digit from the right, also for scores of 100 or more."],
             branches=[((73,), "Distance 4."), ((7,), ONE_DIGIT), ((44,), "Equal digits score 1.")]),
        make("zero_dice", function=picky_piggy_one_over_21, name="Picky Piggy",
             summary="Rolling zero dice scores one digit of the decimal expansion of 1/21 (0.047619 047619 ...): the "
                     "digit whose position after the decimal point is the opponent's score. Against a score of 0 it "
                     "scores 1 point.",
             choices=["The expansion repeats every six digits, so the points depend only on the score's remainder by "
                      "6; rolling zero dice can score 0 points."],
             branches=[((0,), "Against 0 the rule scores 1."), ((1,), "The first digit is 0."),
                       ((5,), "The fifth digit is 1.")]),
        make("swap", function=swap_same_place_digit, name="Swine Swap",
             summary="Once the turn's points are added, the two scores trade places when they have the same digit in "
                     "the same place (ones, tens or hundreds). Only the digits a number really has count: 0 has none, "
                     "7 has no tens digit, 23 has no hundreds digit; a zero at the end, as in 20, is a digit.",
             choices=["A score of 0 has no digits, so it never swaps (20 and 0 do not swap).",
                      "A score of 100 or more compares its hundreds digit only with a score that has one.",
                      SWAP_BEFORE_WIN],
             branches=[((43, 83), "Same ones digit."), ((51, 52), "Same tens digit."), ((20, 0), "0 has no digits."),
                       ((123, 1), "No shared place.")]),
        make("swap", function=swap_digit_difference, name="Swine Swap",
             summary="Once the turn's points are added, take for each score the distance between its tens digit and "
                     "its ones digit. When both scores have the same distance, they trade places.",
             choices=["A one-digit score has a tens digit of 0, so the distance for 7 is 7 and for 0 is 0.",
                      "A score of 100 or more uses its last two digits (117 has the distance between 1 and 7).",
                      SWAP_BEFORE_WIN],
             branches=[((26, 84), "Both distances are 4."), ((7, 70), "Distances 7 and 7."),
                       ((12, 30), "Distances 1 and 3.")]),
        make("swap", function=swap_first_last_product, name="Swine Swap",
             summary="Once the turn's points are added, multiply the first and the last digit of each score. When both "
                     "products are equal, the scores trade places.",
             choices=["A one-digit score is both its first and last digit, so the product for 0 is 0 * 0 = 0 and 10 "
                      "and 0 swap.", SWAP_BEFORE_WIN],
             branches=[((26, 43), "2 * 6 = 4 * 3."), ((10, 0), "Both products are 0."),
                       ((123, 45), "3 and 20 differ.")]),
        make("swap", function=swap_perfect_square, name="Swine Swap",
             summary="Once the turn's points are added, the scores trade places when the current player's new score is "
                     "a perfect square (1, 4, 9, 16, ...).",
             choices=["0 is a perfect square (0 * 0), although no turn can end with a score of 0.",
                      "The swap is judged before the game checks for a winner, so a swap can hand the opponent the win "
                      "(90 + 10 = 100 is a square)."],
             branches=[((49,), "49 is 7 * 7."), ((50,), "50 is no square.")]),
        make("swap", function=swap_excitement, name="Swine Swap",
             summary="Once the turn's points are added, compute 3 raised to the combined total of the two scores. When "
                     "that number begins and ends with the same digit, the scores trade places.",
             choices=["With both scores at 0, 3 to the power 0 is 1, a single digit that is both first and last, "
                      "so the scores swap (which changes nothing).", SWAP_BEFORE_WIN,
                      "A game can go on forever (for example when both players keep scoring 0 points); play then never "
                      "returns, as in the course.",
                      "The kit's exact win rates and its optimal strategy count a game that never ends as half a "
                      "win for each player."],
             branches=[((0, 0), "3 ** 0 is 1."), ((1, 1), "9 is one digit."),
                       ((2, 1), "27 begins with 2, ends with 7.")]),
        make("bonus", id="feral_hogs", name="Feral Hogs", flag="feral_hogs", branches=[],
             where="grader/templates/hog/parts/play.py.j2",
             summary="A player whose number of dice this turn differs by exactly 2 from the number they rolled on "
                     "their own previous turn earns 3 extra points for the turn. Before a player's first turn, "
                     "their previous number counts as 0.",
             choices=["The 3 points are part of the turn's points, so they are added before the swap is judged.",
                      "Each player has their own previous number; the opponent's turns do not change it.",
                      "play(..., feral_hogs=False) plays without this rule; the strategies ignore it."]),
        make("bonus", id="parity_dice", name="Feral Hogs", flag="parity_bonus", branches=[],
             where="grader/templates/hog/parts/roll_dice.py.j2",
             summary="Every die rolled whose outcome is odd when the player's score is odd, or even when it is even, "
                     "adds 1 extra point to the turn. The score that counts is the player's score before the turn.",
             choices=["The extra points are added on a Pig Out too (1, 3 and 5 at a score of 21 make 1 + 3 = 4).",
                      "Rolling zero dice rolls no die, so it earns no extra points."]),
    )
