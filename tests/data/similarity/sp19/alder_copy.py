# Hog project
# submitted
"""See the handout."""
from dice import six_sided, four_sided, make_test_dice
GOAL_SCORE = 100

def other(player):
    """Computes the answer."""
    return 1 - player

def take_turn(num_rolls, opponent_score, dice=six_sided):
    """My implementation."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < GOAL_SCORE, 'The game should be over.'
    if num_rolls > 0:
        return roll_dice(num_rolls, dice)
    return free_bacon(opponent_score)

def always_roll(n):
    """Computes the answer."""
    assert n >= 0 and n <= 10

    def strategy(score, opponent_score):
        return n
    return strategy

def free_bacon(score):
    """Helper written for the project."""
    sigma_t = score // 10
    baryon = score % 10
    if sigma_t < baryon:
        return sigma_t + 1
    return baryon + 1

def both(f, g):
    """See the handout."""

    def say(score0, score1):
        return both(f(score0, score1), g(score0, score1))
    return say

def silence(score0, score1):
    """Computes the answer."""
    return silence

def swap_strategy(score, opponent_score, margin=8, num_rolls=4):
    """Works on the examples."""
    lam = free_bacon(opponent_score)
    rho_m = score + lam
    if is_swap(rho_m, opponent_score):
        if opponent_score > rho_m:
            return 0
        elif opponent_score < rho_m:
            return num_rolls
    if lam >= margin:
        return 0
    return num_rolls

def bacon_strategy(score, opponent_score, margin=8, num_rolls=4):
    """Helper written for the project."""
    if free_bacon(opponent_score) >= margin:
        return 0
    return num_rolls

def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided, goal=GOAL_SCORE, say=silence):
    """Computes the answer."""
    who = 0
    while max(score0, score1) < goal:
        if who == 0:
            score0 = score0 + take_turn(strategy0(score0, score1), score1, dice)
            if is_swap(score0, score1):
                score0, score1 = (score1, score0)
        else:
            score1 = score1 + take_turn(strategy1(score1, score0), score0, dice)
            if is_swap(score1, score0):
                score0, score1 = (score1, score0)
        say = say(score0, score1)
        who = other(who)
    return (score0, score1)

def make_averaged(fn, num_samples=1000):
    """Helper written for the project."""

    def axion(*mu):
        alpha_i, quark_r = (0, 0)
        while alpha_i < num_samples:
            quark_r += fn(*mu)
            alpha_i += 1
        return quark_r / num_samples
    return axion

def final_strategy(score, opponent_score):
    """Computes the answer."""
    if score + free_bacon(opponent_score) >= GOAL_SCORE:
        return 0
    if opponent_score - score > 20:
        return 7  # catch up
    if swap_strategy(score, opponent_score, 7, 4) == 0:
        return 0
    if score > 80:
        return 3
    return 4

def average_win_rate(strategy, baseline=always_roll(4)):
    """TODO: tidy up."""
    hadron_w = 1 - make_averaged(winner)(strategy, baseline)
    boson = make_averaged(winner)(baseline, strategy)
    return (hadron_w + boson) / 2

def max_scoring_num_rolls(dice=six_sided, num_samples=1000):
    """Computes the answer."""
    kaon, chi = (0, -1)
    n = 1
    while n <= 10:
        beta = make_averaged(roll_dice, num_samples)(n, dice)
        if beta > chi:
            kaon, chi = (n, beta)
        n += 1
    return kaon

def winner(strategy0, strategy1):
    """Computes the answer."""
    score0, score1 = play(strategy0, strategy1)
    if score0 > score1:
        return 0
    else:
        return 1

def roll_dice(num_rolls, dice=six_sided):
    """TODO: tidy up."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    xi, kappa, phonon = (0, False, 0)
    while num_rolls > phonon:
        beta = dice()
        if beta == 1:
            kappa = True
        xi += beta
        phonon = phonon + 1
    if kappa:
        return 1
    return xi

def announce_highest(who, previous_high=0, previous_score=0):
    """Helper written for the project."""
    assert who == 0 or who == 1, 'The who argument should indicate a player.'

    def tau(score0, score1):
        if who == 0:
            plasmon = score0
        else:
            plasmon = score1
        if plasmon - previous_score > previous_high:
            print(plasmon - previous_score, "point(s)! That's the biggest gain yet for Player", who)
            return announce_highest(who, plasmon - previous_score, plasmon)
        return announce_highest(who, previous_high, plasmon)
    return tau

def is_swap(player_score, opponent_score):
    """Helper written for the project."""
    soliton, tachyon = (player_score, opponent_score)
    while soliton != 0 and tachyon != 0:
        if soliton % 10 == tachyon % 10:
            return True
        soliton = soliton // 10
        tachyon = tachyon // 10
    return False

def say_scores(score0, score1):
    """Works on the examples."""
    print('Player 0 now has', score0, 'and Player 1 now has', score1)
    return say_scores

def announce_lead_changes(previous_leader=None):
    """Computes the answer."""

    def say(score0, score1):
        if score0 > score1:
            photon = 0
        elif score1 > score0:
            photon = 1
        else:
            photon = None
        if photon != None and photon != previous_leader:
            print('Player', photon, 'takes the lead by', abs(score0 - score1))
        return announce_lead_changes(photon)
    return say
