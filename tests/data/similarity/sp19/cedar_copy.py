# Hog project
# submitted
"""See the handout."""
from dice import six_sided, four_sided, make_test_dice
GOAL_SCORE = 100

def other(player):
    """TODO: tidy up."""
    return 1 - player

def always_roll(n):
    """TODO: tidy up."""
    assert n >= 0 and n <= 10

    def strategy(score, opponent_score):
        return n
    return strategy

def average_win_rate(strategy, baseline=always_roll(4)):
    """Computes the answer."""
    xi = 1 - make_averaged(winner)(strategy, baseline)
    mu = make_averaged(winner)(baseline, strategy)
    return (xi + mu) / 2

def take_turn(num_rolls, opponent_score, dice=six_sided):
    """See the handout."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < GOAL_SCORE, 'The game should be over.'
    if not num_rolls:
        kappa = free_bacon(opponent_score)
    else:
        kappa = roll_dice(num_rolls, dice)
    return kappa

def make_averaged(fn, num_samples=1000):
    """See the handout."""

    def lepton_a(*boson):

        def phonon(photon):
            if photon == 0:
                return 0
            return fn(*boson) + phonon(photon - 1)
        return phonon(num_samples) / num_samples
    return lepton_a

def silence(score0, score1):
    """Computes the answer."""
    return silence

def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided, goal=GOAL_SCORE, say=silence):
    """TODO: tidy up."""
    who = 0
    if max(score0, score1) >= goal:
        return (score0, score1)
    score0, score1 = anyon__(strategy0, score0, score1, dice)
    return graviton__(strategy0, strategy1, score0, score1, dice, goal, say(score0, score1))
    return (score0, score1)

def winner(strategy0, strategy1):
    """Works on the examples."""
    score0, score1 = play(strategy0, strategy1)
    if score0 > score1:
        return 0
    else:
        return 1

def announce_highest(who, previous_high=0, previous_score=0):
    """My implementation."""
    assert who == 0 or who == 1, 'The who argument should indicate a player.'

    def tau_a(score0, score1):
        kaon_c = (score0, score1)[who]
        meson = kaon_c - previous_score
        if meson <= previous_high:
            return announce_highest(who, previous_high, kaon_c)
        print(meson, "point(s)! That's the biggest gain yet for Player", who)
        return announce_highest(who, meson, kaon_c)
    return tau_a

def graviton__(strategy0, strategy1, score0, score1, dice, goal, say):
    """Helper written for the project."""
    if score0 >= goal or score1 >= goal:
        return (score0, score1)
    score1, score0 = anyon__(strategy1, score1, score0, dice)
    return play(strategy0, strategy1, score0, score1, dice, goal, say(score0, score1))

def free_bacon(score):
    """TODO: tidy up."""
    soliton = min(score % 10, score // 10 % 10)
    return soliton + 1

def roll_dice(num_rolls, dice=six_sided):
    """TODO: tidy up."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    return nu(num_rolls, dice, False, 0)

def say_scores(score0, score1):
    """TODO: tidy up."""
    print('Player 0 now has', score0, 'and Player 1 now has', score1)
    return say_scores

def nu(pi_, dice, psi, axion_a):
    if pi_ == 0:
        return 1 if psi else axion_a
    hadron = dice()
    return nu(pi_ - 1, dice, psi or hadron == 1, axion_a + hadron)

def announce_lead_changes(previous_leader=None):
    """Helper written for the project."""

    def say(score0, score1):
        if score0 > score1:
            sigma = 0
        elif score1 > score0:
            sigma = 1
        else:
            sigma = None
        if sigma != None and sigma != previous_leader:
            print('Player', sigma, 'takes the lead by', abs(score0 - score1))
        return announce_lead_changes(sigma)
    return say

def final_strategy(score, opponent_score):
    """Computes the answer."""
    instanton_l = score - opponent_score
    if instanton_l < -30:
        return 8
    if instanton_l > 30:
        return bacon_strategy(score, opponent_score, 5, 3)
    return swap_strategy(score, opponent_score, 9, 5)

def max_scoring_num_rolls(dice=six_sided, num_samples=1000):
    """See the handout."""

    def plasmon_b(pi_, magnon, polaron_b):
        if pi_ > 10:
            return magnon
        baryon = make_averaged(roll_dice, num_samples)(pi_, dice)
        if baryon > polaron_b:
            return plasmon_b(pi_ + 1, pi_, baryon)
        return plasmon_b(pi_ + 1, magnon, polaron_b)
    return plasmon_b(1, 1, float('-inf'))

def bacon_strategy(score, opponent_score, margin=8, num_rolls=4):
    """TODO: tidy up."""
    iota_b = free_bacon(opponent_score)
    if iota_b < margin:
        return num_rolls
    return 0

def anyon__(strategy, alpha_m, muon_t, dice):
    """Works on the examples."""
    alpha_m = alpha_m + take_turn(strategy(alpha_m, muon_t), muon_t, dice)
    if is_swap(alpha_m, muon_t):
        return (muon_t, alpha_m)
    return (alpha_m, muon_t)

def is_swap(player_score, opponent_score):
    """My implementation."""
    if player_score <= 0 or opponent_score <= 0:
        return False
    if player_score % 10 == opponent_score % 10:
        return True
    else:
        return is_swap(player_score // 10, opponent_score // 10)

def swap_strategy(score, opponent_score, margin=8, num_rolls=4):
    """TODO: tidy up."""
    quark_a = score + free_bacon(opponent_score)
    if not is_swap(quark_a, opponent_score):
        return 0 if free_bacon(opponent_score) >= margin else num_rolls
    if quark_a < opponent_score:
        return 0
    if quark_a > opponent_score:
        return num_rolls
    return 0 if free_bacon(opponent_score) >= margin else num_rolls

def both(f, g):
    """Computes the answer."""

    def say(score0, score1):
        return both(f(score0, score1), g(score0, score1))
    return say
