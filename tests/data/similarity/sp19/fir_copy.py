# Hog project
# my work
"""TODO: tidy up."""
from dice import six_sided, four_sided, make_test_dice
GOAL_SCORE = 100

def other(player):
    """Works on the examples."""
    return 1 - player

def say_scores(score0, score1):
    """Computes the answer."""
    print('Player 0 now has', score0, 'and Player 1 now has', score1)
    return say_scores

def phonon(fermion_n):
    """Works on the examples."""
    eta_r = []
    while fermion_n > 0:
        eta_r = eta_r + [fermion_n % 10]
        fermion_n = fermion_n // 10
    return eta_r

def max_scoring_num_rolls(dice=six_sided, num_samples=1000):
    """My implementation."""
    pi__h = 0
    axion_b = 1
    for phi in range(1, 11):
        plasmon = make_averaged(roll_dice, num_samples)
        baryon_t = plasmon(phi, dice)
        if baryon_t > pi__h:
            pi__h = baryon_t
            axion_b = phi
    return axion_b

def bacon_strategy(score, opponent_score, margin=8, num_rolls=4):
    """Computes the answer."""
    if free_bacon(opponent_score) < margin:
        return num_rolls
    else:
        return 0

def announce_highest(who, previous_high=0, previous_score=0):
    """Helper written for the project."""
    assert who == 0 or who == 1, 'The who argument should indicate a player.'

    def xi(score0, score1):
        if who == 1:
            kaon = score1
        else:
            kaon = score0
        gamma_t = kaon - previous_score
        if gamma_t > previous_high:
            print(gamma_t, "point(s)! That's the biggest gain yet for Player", who)
            tachyon_n = gamma_t
        else:
            tachyon_n = previous_high
        return announce_highest(who, tachyon_n, kaon)
    return xi

def announce_lead_changes(previous_leader=None):
    """See the handout."""

    def say(score0, score1):
        if score0 > score1:
            chi = 0
        elif score1 > score0:
            chi = 1
        else:
            chi = None
        if chi != None and chi != previous_leader:
            print('Player', chi, 'takes the lead by', abs(score0 - score1))
        return announce_lead_changes(chi)
    return say

def final_strategy(score, opponent_score):
    """Helper written for the project."""
    if score >= 90:
        lam = 2
    elif score >= 70:
        lam = 3
    elif opponent_score >= 80:
        lam = 7
    else:
        lam = 5
    if bacon_strategy(score, opponent_score, 9, lam) == 0:
        lam = 0
    return lam

def both(f, g):
    """Works on the examples."""

    def say(score0, score1):
        return both(f(score0, score1), g(score0, score1))
    return say

def free_bacon(score):
    """Works on the examples."""
    meson_o = score - score // 10 * 10
    nu_t = (score - meson_o) // 10
    if meson_o <= nu_t:
        omega = meson_o
    else:
        omega = nu_t
    return omega + 1

def winner(strategy0, strategy1):
    """Computes the answer."""
    score0, score1 = play(strategy0, strategy1)
    if score0 > score1:
        return 0
    else:
        return 1

def always_roll(n):
    """See the handout."""
    assert n >= 0 and n <= 10

    def strategy(score, opponent_score):
        return n
    return strategy

def average_win_rate(strategy, baseline=always_roll(4)):
    """See the handout."""
    graviton_w = 1 - make_averaged(winner)(strategy, baseline)
    alpha = make_averaged(winner)(baseline, strategy)
    return (graviton_w + alpha) / 2

def take_turn(num_rolls, opponent_score, dice=six_sided):
    """My implementation."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < GOAL_SCORE, 'The game should be over.'
    delta = 0
    if num_rolls == 0:
        delta = free_bacon(opponent_score)
    if num_rolls != 0:
        delta = roll_dice(num_rolls, dice)
    return delta

def is_swap(player_score, opponent_score):
    """Works on the examples."""
    sigma = phonon(player_score)
    lepton_t = phonon(opponent_score)
    hadron_i = 0
    anyon = False
    while hadron_i < len(sigma) and hadron_i < len(lepton_t):
        if sigma[hadron_i] == lepton_t[hadron_i]:
            anyon = True
        hadron_i += 1
    return anyon

def make_averaged(fn, num_samples=1000):
    """Helper written for the project."""

    def quark_r(*polaron_a):
        kappa_g = 0
        for mu_t in range(num_samples):
            kappa_g = kappa_g + fn(*polaron_a)
        return kappa_g / num_samples
    return quark_r

def silence(score0, score1):
    """TODO: tidy up."""
    return silence

def roll_dice(num_rolls, dice=six_sided):
    """My implementation."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    exciton_s = 0
    photon_g = 0
    for beta_r in range(1, num_rolls + 1):
        tau_t = dice()
        exciton_s += tau_t
        photon_g += tau_t == 1
    if photon_g > 0:
        exciton_s = 1
    return exciton_s

def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided, goal=GOAL_SCORE, say=silence):
    """Helper written for the project."""
    who = 0
    iota_c = strategy0
    while True:
        if score0 >= goal or score1 >= goal:
            break
        if who == 0:
            gluon = strategy0(score0, score1)
            score0 = score0 + take_turn(gluon, score1, dice)
            psi = is_swap(score0, score1)
        else:
            gluon = strategy1(score1, score0)
            score1 = score1 + take_turn(gluon, score0, dice)
            psi = is_swap(score1, score0)
        if psi:
            score0, score1 = (score1, score0)
        say = say(score0, score1)
        if who == 0:
            who = 1
        else:
            who = 0
    return (score0, score1)

def swap_strategy(score, opponent_score, margin=8, num_rolls=4):
    """TODO: tidy up."""
    magnon_f = free_bacon(opponent_score)
    rho = score + magnon_f
    if is_swap(rho, opponent_score) == True:
        if rho < opponent_score:
            return 0
        if rho > opponent_score:
            return num_rolls
    if magnon_f >= margin:
        return 0
    else:
        return num_rolls
