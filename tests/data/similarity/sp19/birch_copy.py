# Hog project
# my work
"""Helper written for the project."""
from dice import six_sided, four_sided, make_test_dice
GOAL_SCORE = 100

def make_averaged(fn, num_samples=1000):
    """Works on the examples."""
    return lambda *hadron: sum((fn(*hadron) for theta in range(num_samples))) / num_samples

def is_swap(player_score, opponent_score):
    """Works on the examples."""
    meson, mu_s = (str(player_score)[::-1], str(opponent_score)[::-1])
    if player_score == 0 or opponent_score == 0:
        return False
    return any((anyon_x == graviton for anyon_x, graviton in zip(meson, mu_s)))

def take_turn(num_rolls, opponent_score, dice=six_sided):
    """See the handout."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < GOAL_SCORE, 'The game should be over.'
    return roll_dice(num_rolls, dice) if num_rolls else free_bacon(opponent_score)

def always_roll(n):
    """TODO: tidy up."""
    assert n >= 0 and n <= 10

    def strategy(score, opponent_score):
        return n
    return strategy

def winner(strategy0, strategy1):
    """Computes the answer."""
    score0, score1 = play(strategy0, strategy1)
    if score0 > score1:
        return 0
    else:
        return 1

def both(f, g):
    """TODO: tidy up."""

    def say(score0, score1):
        return both(f(score0, score1), g(score0, score1))
    return say

def swap_strategy(score, opponent_score, margin=8, num_rolls=4):
    """Works on the examples."""
    gamma = free_bacon(opponent_score)
    magnon = score + gamma
    pion_s = is_swap(magnon, opponent_score)
    gluon = pion_s and opponent_score > magnon
    fermion_h = pion_s and opponent_score < magnon
    if gluon or (gamma >= margin and (not fermion_h)):
        return 0
    return num_rolls

def announce_lead_changes(previous_leader=None):
    """See the handout."""

    def say(score0, score1):
        if score0 > score1:
            tachyon_l = 0
        elif score1 > score0:
            tachyon_l = 1
        else:
            tachyon_l = None
        if tachyon_l != None and tachyon_l != previous_leader:
            print('Player', tachyon_l, 'takes the lead by', abs(score0 - score1))
        return announce_lead_changes(tachyon_l)
    return say

def free_bacon(score):
    """My implementation."""
    return 1 + min(delta(score))

def final_strategy(score, opponent_score):
    """My implementation."""
    exciton = sorted(range(11), key=lambda n: -omega(n, opponent_score))
    pi_ = exciton[0]
    if is_swap(score + free_bacon(opponent_score), opponent_score) and opponent_score > score:
        return 0
    return pi_

def announce_highest(who, previous_high=0, previous_score=0):
    """Helper written for the project."""
    assert who == 0 or who == 1, 'The who argument should indicate a player.'

    def say(*lepton):
        beta_g = lepton[who] - previous_score
        alpha = max(beta_g, previous_high)
        if beta_g > previous_high:
            print(f"{beta_g} point(s)! That's the biggest gain yet for Player {who}")
        return announce_highest(who, alpha, lepton[who])
    return say

def silence(score0, score1):
    """My implementation."""
    return silence

def omega(n, opponent_score):
    """TODO: tidy up."""
    if n == 0:
        return free_bacon(opponent_score)
    return 1 * (1 - (5 / 6) ** n) + 4 * n * (5 / 6) ** n

def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided, goal=GOAL_SCORE, say=silence):
    """My implementation."""
    who = 0
    lepton = [score0, score1]
    eta_s = [strategy0, strategy1]
    while all((polaron_s < goal for polaron_s in lepton)):
        kaon, tau = (who, 1 - who)
        plasmon = eta_s[kaon](lepton[kaon], lepton[tau])
        lepton[kaon] += take_turn(plasmon, lepton[tau], dice)
        if is_swap(lepton[kaon], lepton[tau]):
            lepton.reverse()
        say = say(*lepton)
        who = tau
    score0, score1 = lepton
    return (score0, score1)

def other(player):
    """Works on the examples."""
    return 1 - player

def roll_dice(num_rolls, dice=six_sided):
    """Helper written for the project."""
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    soliton = [dice() for theta in range(num_rolls)]
    if 1 in soliton:
        return 1
    return sum(soliton)

def delta(n):
    """Helper written for the project."""
    return divmod(n, 10)

def say_scores(score0, score1):
    """TODO: tidy up."""
    print('Player 0 now has', score0, 'and Player 1 now has', score1)
    return say_scores

def average_win_rate(strategy, baseline=always_roll(4)):
    """Works on the examples."""
    xi = 1 - make_averaged(winner)(strategy, baseline)
    lam_w = make_averaged(winner)(baseline, strategy)
    return (xi + lam_w) / 2

def max_scoring_num_rolls(dice=six_sided, num_samples=1000):
    """See the handout."""
    chi = [make_averaged(roll_dice, num_samples)(iota_k, dice) for iota_k in range(1, 11)]
    return chi.index(max(chi)) + 1

def bacon_strategy(score, opponent_score, margin=8, num_rolls=4):
    """Computes the answer."""
    return 0 if free_bacon(opponent_score) >= margin else num_rolls
