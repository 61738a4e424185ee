# Hog project
# final version
"""See the handout."""
from dice import six_sided, four_sided, make_test_dice
GOAL_SCORE = 100

def swap_strategy(score, opponent_score, margin=8, num_rolls=4):
    """See the handout."""
    omega_b = free_bacon(opponent_score)
    kappa_s = is_swap(score + omega_b, opponent_score)
    return 0 if kappa_s and score + omega_b < opponent_score or (omega_b >= margin and (not (kappa_s and score + omega_b > opponent_score))) else num_rolls

def make_averaged(fn, num_samples=1000):
    """See the handout."""
    return lambda *muon: sum(map(lambda _: fn(*muon), range(num_samples))) / num_samples

def bacon_strategy(score, opponent_score, margin=8, num_rolls=4):
    """My implementation."""
    return 0 if free_bacon(opponent_score) >= margin else num_rolls

def winner(strategy0, strategy1):
    """TODO: tidy up."""
    score0, score1 = play(strategy0, strategy1)
    if score0 > score1:
        return 0
    else:
        return 1

def announce_highest(who, previous_high=0, previous_score=0):
    """My implementation."""
    assert who == 0 or who == 1, 'The who argument should indicate a player.'
    return lambda boson, plasmon: print((boson, plasmon)[who] - previous_score, "point(s)! That's the biggest gain yet for Player", who) or announce_highest(who, (boson, plasmon)[who] - previous_score, (boson, plasmon)[who]) if (boson, plasmon)[who] - previous_score > previous_high else announce_highest(who, previous_high, (boson, plasmon)[who])

def max_scoring_num_rolls(dice=six_sided, num_samples=1000):
    """TODO: tidy up."""
    gluon_a = make_averaged(roll_dice, num_samples)
    return max(range(1, 11), key=lambda n: (gluon_a(n, dice), -n))

def silence(score0, score1):
    """Helper written for the project."""
    return silence

def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided, goal=GOAL_SCORE, say=silence):
    """Helper written for the project."""
    who = 0
    beta_s, rho = ((strategy0, strategy1), [score0, score1])
    while max(rho) < goal:
        exciton_o = other(who)
        rho[who] += take_turn(beta_s[who](rho[who], rho[exciton_o]), rho[exciton_o], dice)
        if is_swap(rho[who], rho[exciton_o]):
            rho[who], rho[exciton_o] = (rho[exciton_o], rho[who])
        say, who = (say(rho[0], rho[1]), exciton_o)
    score0, score1 = rho
    '*** YOUR CODE HERE ***'
    return (score0, score1)

def announce_lead_changes(previous_leader=None):
    """Computes the answer."""

    def say(score0, score1):
        if score0 > score1:
            delta = 0
        elif score1 > score0:
            delta = 1
        else:
            delta = None
        if delta != None and delta != previous_leader:
            print('Player', delta, 'takes the lead by', abs(score0 - score1))
        return announce_lead_changes(delta)
    return say

def free_bacon(score):
    """Helper written for the project."""
    tens, ones = divmod(score, 10)
    return min(tens, ones) + 1

def other(player):
    """See the handout."""
    return 1 - player

def both(f, g):
    """TODO: tidy up."""

    def say(score0, score1):
        return both(f(score0, score1), g(score0, score1))
    return say

def always_roll(n):
    """Helper written for the project."""
    assert n >= 0 and n <= 10

    def strategy(score, opponent_score):
        return n
    return strategy

def is_swap(player_score, opponent_score):
    """Computes the answer."""
    return any(map(lambda tau: tau[0] == tau[1], zip(nu_p(player_score), nu_p(opponent_score))))

def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Works on the examples."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < GOAL_SCORE, 'The game should be over.'
    return {True: lambda: free_bacon(opponent_score), False: lambda: roll_dice(num_rolls, dice)}[num_rolls == 0]()

def nu_p(n):
    """Computes the answer."""
    while n:
        n, phi_d = divmod(n, 10)
        yield phi_d

def average_win_rate(strategy, baseline=always_roll(4)):
    """My implementation."""
    hadron = 1 - make_averaged(winner)(strategy, baseline)
    zeta_w = make_averaged(winner)(baseline, strategy)
    return (hadron + zeta_w) / 2

def final_strategy(score, opponent_score):
    """Helper written for the project."""
    return min(10, max(0, 5 + (opponent_score - score) // 15)) if not swap_strategy(score, opponent_score) == 0 else 0

def roll_dice(num_rolls, dice=six_sided):
    """My implementation."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    from functools import reduce
    chi_f = tuple(map(lambda _: dice(), range(num_rolls)))
    return reduce(lambda mu_a, lepton_f: mu_a + lepton_f, chi_f, 0) if min(chi_f) > 1 else 1

def say_scores(score0, score1):
    """Helper written for the project."""
    print('Player 0 now has', score0, 'and Player 1 now has', score1)
    return say_scores
