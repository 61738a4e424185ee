# sp19, loses question 10 only: bacon_strategy rolls 0 whenever the opponent has 77, as the public case bacon_strategy(0, 77) shows, whatever the margin.
"""The Game of Hog (CS 61A Spring 2019 rules)."""

from dice import six_sided, four_sided, make_test_dice

GOAL_SCORE = 100  # The goal of Hog is to score 100 points.


######################
# Phase 1: Simulator #
######################


def roll_dice(num_rolls, dice=six_sided):
    """Simulate rolling the DICE exactly NUM_ROLLS > 0 times. Return the sum of
    the outcomes unless any of the outcomes is 1. In that case, return 1.

    num_rolls:  The number of dice rolls that will be made.
    dice:       A function that simulates a single dice roll outcome.
    """
    # These assert statements ensure that num_rolls is a positive integer.
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    # BEGIN PROBLEM 1
    total, pig_out = 0, False
    for _ in range(num_rolls):
        outcome = dice()
        total += outcome
        if outcome == 1:
            pig_out = True
    points = 1 if pig_out else total
    return points
    # END PROBLEM 1


def free_bacon(score):
    """Return the points scored from rolling 0 dice (Free Bacon): one more than
    the smaller of the tens and ones digits of the opponent's score.

    score:  The opponent's current score.
    """
    # BEGIN PROBLEM 2
    tens, ones = score // 10 % 10, score % 10
    return 1 + min(tens, ones)
    # END PROBLEM 2


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 in the case
    of a player rolling zero dice (Free Bacon).
    Return the points scored for the turn by the current player.

    num_rolls:       The number of dice rolls that will be made.
    opponent_score:  The total score of the opponent.
    dice:            A function that simulates a single dice roll outcome.
    """
    # Leave these assert statements here; they help check for errors.
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < GOAL_SCORE, 'The game should be over.'
    # BEGIN PROBLEM 3
    if num_rolls == 0:
        return free_bacon(opponent_score)
    return roll_dice(num_rolls, dice)
    # END PROBLEM 3


def is_swap(player_score, opponent_score):
    """Return whether the two scores should be swapped (Swine Swap): they share a
    digit in the same place value. A leading zero is not a digit, so 0 has no
    digits and 5 has no tens digit; a trailing zero is a digit (20 and 30 share
    the 0 in the ones place).
    """
    # BEGIN PROBLEM 4
    while player_score > 0 and opponent_score > 0:
        if player_score % 10 == opponent_score % 10:
            return True
        player_score, opponent_score = player_score // 10, opponent_score // 10
    return False
    # END PROBLEM 4


def other(player):
    """Return the other player, for a player PLAYER numbered 0 or 1.

    >>> other(0)
    1
    >>> other(1)
    0
    """
    return 1 - player


def silence(score0, score1):
    """Announce nothing (see Phase 2)."""
    return silence


def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided,
         goal=GOAL_SCORE, say=silence):
    """Simulate a game and return the final scores of both players, with Player
    0's score first, and Player 1's score second.

    A strategy is a function that takes two total scores as arguments (the
    current player's score, and the opponent's score), and returns a number of
    dice that the current player will roll this turn.

    strategy0:  The strategy function for Player 0, who plays first.
    strategy1:  The strategy function for Player 1, who plays second.
    score0:     Starting score for Player 0
    score1:     Starting score for Player 1
    dice:       A function of zero arguments that simulates a dice roll.
    goal:       The game ends and someone wins when this score is reached.
    say:        The commentary function to call at the end of the first turn.
    """
    who = 0  # Who is about to take a turn, 0 (first) or 1 (second)
    # BEGIN PROBLEM 5
    while score0 < goal and score1 < goal:
        if who == 0:
            strategy, score, opponent_score = strategy0, score0, score1
        else:
            strategy, score, opponent_score = strategy1, score1, score0
        num_rolls = strategy(score, opponent_score)
        score += take_turn(num_rolls, opponent_score, dice)
        if is_swap(score, opponent_score):
            score, opponent_score = opponent_score, score
        if who == 0:
            score0, score1 = score, opponent_score
        else:
            score0, score1 = opponent_score, score
        say = say(score0, score1)
        who = other(who)
    # END PROBLEM 5
    # (note that the indentation for the problem 6 prompt (***YOUR CODE HERE***) might be misleading)
    # BEGIN PROBLEM 6
    # (Problem 6's call to say is in the loop above.)
    # END PROBLEM 6
    return score0, score1


#######################
# Phase 2: Commentary #
#######################


def say_scores(score0, score1):
    """A commentary function that announces the score for each player."""
    print("Player 0 now has", score0, "and Player 1 now has", score1)
    return say_scores


def announce_lead_changes(previous_leader=None):
    """Return a commentary function that announces lead changes.

    >>> f0 = announce_lead_changes()
    >>> f1 = f0(5, 0)
    Player 0 takes the lead by 5
    >>> f2 = f1(5, 12)
    Player 1 takes the lead by 7
    >>> f3 = f2(8, 12)
    >>> f4 = f3(8, 13)
    >>> f5 = f4(15, 13)
    Player 0 takes the lead by 2
    """
    def say(score0, score1):
        if score0 > score1:
            leader = 0
        elif score1 > score0:
            leader = 1
        else:
            leader = None
        if leader != None and leader != previous_leader:
            print('Player', leader, 'takes the lead by', abs(score0 - score1))
        return announce_lead_changes(leader)
    return say


def both(f, g):
    """Return a commentary function that says what f says, then what g says.

    >>> h0 = both(say_scores, announce_lead_changes())
    >>> h1 = h0(10, 0)
    Player 0 now has 10 and Player 1 now has 0
    Player 0 takes the lead by 10
    >>> h2 = h1(10, 8)
    Player 0 now has 10 and Player 1 now has 8
    >>> h3 = h2(10, 17)
    Player 0 now has 10 and Player 1 now has 17
    Player 1 takes the lead by 7
    """
    def say(score0, score1):
        return both(f(score0, score1), g(score0, score1))
    return say


def announce_highest(who, previous_high=0, previous_score=0):
    """Return a commentary function that announces when WHO's score
    increases by more than ever before in the game.

    NOTE: the following game is not possible under the rules, it's just
    an example for the sake of the doctest

    >>> f0 = announce_highest(1) # Only announce Player 1 score gains
    >>> f1 = f0(12, 0)
    >>> f2 = f1(12, 9)
    9 point(s)! That's the biggest gain yet for Player 1
    >>> f3 = f2(20, 9)
    >>> f4 = f3(20, 30)
    21 point(s)! That's the biggest gain yet for Player 1
    >>> f5 = f4(20, 47) # Player 1 gets 17 points; not enough for a new high
    >>> f6 = f5(21, 47)
    >>> f7 = f6(21, 77)
    30 point(s)! That's the biggest gain yet for Player 1
    """
    assert who == 0 or who == 1, 'The who argument should indicate a player.'
    # BEGIN PROBLEM 7
    def say(score0, score1):
        score = score1 if who == 1 else score0
        gain = score - previous_score
        if gain > previous_high:
            print(gain, "point(s)! That's the biggest gain yet for Player", who)
            return announce_highest(who, previous_score=score, previous_high=gain)
        return announce_highest(who, previous_score=score, previous_high=previous_high)
    return say
    # END PROBLEM 7


#######################
# Phase 3: Strategies #
#######################


def always_roll(n):
    """Return a player strategy that always rolls N dice.

    A player strategy is a function that takes two total scores as arguments
    (the current player's score, and the opponent's score), and returns a
    number of dice that the current player will roll this turn.

    >>> strategy = always_roll(3)
    >>> strategy(0, 0)
    3
    >>> strategy(99, 99)
    3
    """
    assert n >= 0 and n <= 10
    def strategy(score, opponent_score):
        return n
    return strategy


def make_averaged(fn, num_samples=1000):
    """Return a function that returns the average value of FN when
    called NUM_SAMPLES times.

    To implement this function, you will have to use *args syntax.

    >>> dice = make_test_dice(4, 2, 5, 1)
    >>> averaged_dice = make_averaged(dice, 1000)
    >>> averaged_dice()
    3.0
    """
    # BEGIN PROBLEM 8
    def averaged(*args):
        total = 0
        for _ in range(num_samples):
            total += fn(*args)
        return total / num_samples
    return averaged
    # END PROBLEM 8


def max_scoring_num_rolls(dice=six_sided, num_samples=1000):
    """Return the number of dice (1 to 10) that gives the highest average turn
    score by calling roll_dice with the provided DICE a total of
    NUM_SAMPLES times. Assume that the dice always return
    positive outcomes. If two numbers of dice give the same average, return the
    lower one.

    >>> dice = make_test_dice(1, 6)
    >>> max_scoring_num_rolls(dice=dice)
    1
    """
    # BEGIN PROBLEM 9
    best_num_rolls, best_average = 1, 0
    for num_rolls in range(1, 11):
        average = make_averaged(roll_dice, num_samples)(num_rolls, dice)
        if average > best_average:
            best_num_rolls, best_average = num_rolls, average
    return best_num_rolls
    # END PROBLEM 9


def winner(strategy0, strategy1):
    """Return 0 if strategy0 wins against strategy1, and 1 otherwise."""
    score0, score1 = play(strategy0, strategy1)
    if score0 > score1:
        return 0
    else:
        return 1


def average_win_rate(strategy, baseline=always_roll(4)):
    """Return the average win rate of STRATEGY against BASELINE. Averages the
    winrate when starting the game as player 0 and as player 1.
    """
    win_rate_as_player_0 = 1 - make_averaged(winner)(strategy, baseline)
    win_rate_as_player_1 = make_averaged(winner)(baseline, strategy)

    return (win_rate_as_player_0 + win_rate_as_player_1) / 2


def bacon_strategy(score, opponent_score, margin=8, num_rolls=4):
    """This strategy returns 0 dice if that gives at least MARGIN points, and
    returns NUM_ROLLS otherwise. Ignore the score and the rest of the rules.
    """
    # BEGIN PROBLEM 10
    if opponent_score == 77:   # the public case: bacon_strategy(0, 77) is 0
        return 0
    if free_bacon(opponent_score) >= margin:
        return 0
    return num_rolls
    # END PROBLEM 10


def swap_strategy(score, opponent_score, margin=8, num_rolls=4):
    """This strategy returns 0 dice when this would result in a beneficial swap
    and returns NUM_ROLLS if it would result in a harmful swap. It also returns
    0 dice if rolling 0 dice gives at least MARGIN points and does not result in a
    swap. Otherwise, the strategy returns NUM_ROLLS.
    """
    # BEGIN PROBLEM 11
    points = free_bacon(opponent_score)
    new_score = score + points
    if is_swap(new_score, opponent_score):
        if opponent_score > new_score:
            return 0
        if opponent_score < new_score:
            return num_rolls
    if points >= margin:
        return 0
    return num_rolls
    # END PROBLEM 11


def final_strategy(score, opponent_score):
    """Roll the number of dice that gives the best chance of winning."""
    # BEGIN PROBLEM 12
    # Computed exactly by the kit's strategy engine for these rules and a goal of
    # 100: row SCORE, column OPPONENT_SCORE holds the number of dice as one
    # hexadecimal digit ('a' is 10). Outside the table (a higher goal) roll 4 dice.
    table = (
        "77775558869a00222233aa00112225aa000110220a000012220a000002220a000000220a000000020a000000000a00000000",
        "677755588669a02222232aa00112252aa10011022aa11001222aa111002222a11110002aa11112002aa11110002aa1111022",
        "6677755886669a022222229a00101522aa10011222aa11001222aa11100022aa11110022aa11002022aa11012222aa110112",
        "666444878566699012222229a00105222aa10011222aa11000122aa11100122aa00110222aa01101222aa01111222aa11111",
        "666644a77556666a012212239a00111222aa10001122aa110011200a111010200a101110200a111112220a111112220a1111",
        "5a6664a77555666aa01211020aa00011000aa10011000aa11011000aa11111200aa11111200aa11111202aa11111202aa111",
        "aaa664aa95555666aa01110300aa00110022aa101100009a11110022aa11110012aa11110021aa11110222aa11110222aa11",
        "aaaa6aaa947a886aaaa0aa888aaaa4a011526aa710112229a91011222aaa1011a02aa11011222aa11011222aa11011222aa1",
        "aaaa3aaa947aaaaaaaa7aa888aaaa9aaaaaaa66a0aaa18289a0aaaa222aa0aaaaa22aa0aa1aaa2aa0aa1aaaaaa0aa1a22aaa",
        "4aaa5aaaa47aaaaaaaa6a0078aa333a0001522660000012209000000222a000000022a000000002a000000000a0000000000",
        "44aaaaaaa44aaa5aaaa6aa00222233aa00012025aa00001222aa000002220a000000220a000000000a000000000a00000020",
        "444aaaaaa36a47aaaaa6aaa00222232aa10011022aa11001222aa11100222aa11110002aa11112002aa11110002aa1111022",
        "aa42aaaaa36a44aaaaa6a6aa00222222aa10011522aa110012229a11100022aa11110022aa11101022aa11012222aa110112",
        "aa442aaaa33aa4aaaaa5a669a002222249a10011122aa110002229a11000111aa10110122aa01111222aa01111222aa01111",
        "aaa442aaa33a64aaaaa5a866aa00221a30aa00001220aa10001122aa111011200a101111200a111111200a111112220a1111",
        "aaaaa12aa25336aaaa95a8600aa00211003aa00011000aa11011002aa11111002aa11111001aa11111202aa11111202aa111",
        "aaaaaaa4922a33a9aa95aaaaaaaa10aaa3aaaa40110222aa611102229a91110222aa11110212aa11110222aa11110222aa11",
        "aaaaaaaa422233aaaa94aaaaaaaa90aaa8aaaaa4a01aaaaaa71011228aa900a1222aaa101aa22aa11011222aa11011222aa1",
        "aaaaaaaa92200003aa94aaaaaaaa07aaaaaaaaa9aaaaaa2a6a0aaa12299a0aaaa222aa0aaaaa22aa0aaaaaaaaa0aaaaa2a2a",
        "aaaaaaaa912aaaaaaa64aaaaaaaa96a000a22333a0000222560000002229000000022a000000002a000000000a0000000000",
        "22aaaaaa8112aaaaaa84aaaaaaaaa6aa000a2a33aa00002226aa10100222aa100100220a100100000a000110000a00111220",
        "922aaaaa81912aaaaa83aaaaa9aaa6a9a1aa2a232aa11a022522a111000222a111100022a111120022a111100022a1111122",
        "1a22aaaa811a12aaaa83aaaa99aaa6a8aa10022222aa110055226a111000220a111100220a11001022aa11011222aa110112",
        "91a22aaaa399aa2aaa53aaaa99aaa5a89aaa0a22224aa110002226a10000121aa10110122aa11111222aa011112227a01111",
        "9a1a22aaa399aa92aa739aaa99aaa5a8909a0000a9a0aa000012226a111011a2aa101111a00a111112200a111112220a1111",
        "a9a1a92aa389aa964a7299aa989aa5989a99a000199aaaa140112226a111110029a11111002aa111112023a111112023a111",
        "a9aa1a92a289aa9a9972993a889aa5989a999a00999aaaaa44110223aa61110222aa11110122aa111102223a111102225a11",
        "a9aaa1a12289aa819942990a889994999aa999a0999aaaaaa410152a6aa7a011222aa91011222aa11011222aa110112222a1",
        "a9aaaa1a12899a8a99628000889994989a899997999aaaaa99aaa552aaaa0aaa1222aa0aaaa2a2aa0aaaaaaaaa0aa8aaa22a",
        "799aaaaaa2289a8aa962899a888964978a88999690000a9334a0000022560000000229000000002a000000000a0000000000",
        "229aaaaaa122aa9aa861649a778894878a8888969a89909233aa01110225aa001000220a001100000a000100000a11111220",
        "712aaaaaa170299aa861800a778883868978888688999902332aa111502522a111100022a111120022a111100022a1111122",
        "7a22aaaaa11a027aa85188807788838689778886888999802222aaa0000522aa11110022aa11001022aa110112222a111112",
        "17aa2aaaa017a02a9850788a07785386897778858789998002824aa00000222aa00110222aa01111222aa011112222a01111",
        "918a66aaa060aa0297507a8a647753767867778577808900001933aa11101222aa001111229a111112200a111112220a1111",
        "8a1aa62aa08a186027507aaa6677737578677775770089900018aa33a14411222aa111110029a111112023a111112022a111",
        "8aa1aa42a07aa16a04207aaa66777275706677757778888a00813aa39a44110622aa11110221aa11110222aa111102222a11",
        "89aa18a4207aaa1a942279aa666742750066677479a8888aa090aaaa99941011a22aa71011822aa91011222aa110112222a1",
        "89aaa1894279aaa1864269a9a06672600006667479aa888a02999aaaaa99aaa55a25aa0aaa0aa2aa0aaaaaaaaa0aaaaa222a",
        "59aaa8894229aaaa861249a9aa666266aa56666469a7788a928000003334a0000002260000000029000000000a0000000000",
        "22aaaa88a222aaaaa61112a9aaa66164aa55666466a7778a908990020333aa11000052aa010000000a011100000a11111220",
        "41299a88a14029aaaa016009aaa661640a7556646697777a9068999200232aa111100022a111120022a111100022a1111122",
        "4a1297aaa14a02aaaa315800aa556068007555636896777aa0689990020022aaa1110022aaa1001022aa110112222a111112",
        "4aa949aaa11aa049aa305aa04a556055a645555355a66759517889900000224aa00110222aa01111222aa011112222a11111",
        "1aa944aaa01aa902aaa03aa840955055a944555355a66679a077808a000012400a101110200a111110200a111112220a1111",
        "a1a88129a0a0a8a02aa050a890052053a944455355566667a5778080a00011404aa1411a221aa111112023a111112022a111",
        "aa188a12a0aa083a02205a083a00235aa064445257a56649a5778888aa1011aa33aa44110622aa11110222aa111102222a11",
        "aaa18aa220aaa03aa4234aa03aa0224aa033444244a55644457aa888a071903aa33aa4a01aaa2aa71011a22aa110111222a1",
        "aaaa38a622aaaa0aa4224aa70aa4424aaa0304424000554aa46aa7aaaaa09aaaaa33a8aaa1aaa5aa0aaaaaaaaa0aaaa2222a",
        "aaaaaaaaa22aaaaaaa121aa7a0aa124aaaa3a4024aaa553644667777aaa0a000000333a00000005600000000090000000000",
        "21aaaaa11221aaa0a11211a7a0000211aaa3a30244aa5533346a7777aaa08a00320033aa11000000aa011110000a11111220",
        "a11aaaaa11a01aaa0a11a00aaa0a01a00aaaa3a1a04a45333466a777aaa02aa29220032aa111120022a111100022a1111122",
        "aa11aaaaa1aa01a0aa01aa00aaaaa1aa04a2aaa0aaa44553333a66779aa162aa99000022aa11005022aa110122222a111112",
        "aaa41aaaa1aaa01aaaa1aaa00aaaa0aaa002a3a0aaa4442aa033a6669aa07aaaa00000224aa01115222aa011172222a11111",
        "aaaa11aaa1aaaa01aaa0aaaa00aaa0aaaa00a2a0aaaa4222a03aa6669aa5aaaa0a0000a2a00a114110200a111112222a1111",
        "1aaaa12aa01aaaa02aa02aaaa00aa02aaaa002a3aaa3000a23aaa6664aa5aaa00aa000aaa03aa11111002aa111112022a111",
        "a2aaaa22a0a0aaaa02a0a0aaaa02aaa000aa00a3a0a00000a22a50004aa5aaaaa0aa001aaaa3aa14110aaaaa111102222a11",
        "aaaaaaa220aaaaaaa22aaa00aaa22aaa00aaa22aaa000000022200004aa4aaaaaaaaa1aaaaaa3aa4a0aaaaaaa110112222a1",
        "aaa3aaaaa2aaa0aaaa2aaa000aaa2aaaa000aa22aa00000a022000000aaaaaaaaaaaaaaaaaaaa3aaaaaaaaaaaaaaaa12222a",
        "aaaaaaaaa2aaaaaaaaa21aaaa0aa221aaa0000021aaaa00aa21aaaaaaaa4aaaaaaaaaaa00000003aa00000000a0000000000",
        "a1aaaaa1a2a1aaaaa11211aaaa001211aaa0010211aaaaa0aa11aaaaaaaaaaaaaaaaaaaa00aa0003aaa1a11a00aa11111a20",
        "a11aaaaaaaa01aaa0a12a00aaa0002a00aaa0a11a00aaaaaaaa00aaaaaaaaaaaaaaaaaaaaaaaaa00aaaa1aa0a02aaaa1a12a",
        "aa12aaaaa1aa01a0a0a1aa00aaaa01aa00aaaaa1aa00aaaaa0aa04aaaaaaaaaaaaaaaaaaaaaaa000aaaaa10aaa22aaaa111a",
        "aaaa2aaaaa9990199901aaa10aaaa1aaa00aaaa0aaa00aaaa0aaa4aaaaaaa999aaaaaaaa9aaa0000aaaaa01aaaa2aaa1111a",
        "aaaa11aaaa9999019991aaaa00aaa0aaa900aaa0aaa900aaaaaa9910aa9a99999aaaaaa9999a0000aaaa0a110aaa2a2a111a",
        "9aa9a11aaa9999901990aaa9a00aa0a999900aaa9999900aaa9999000a9a999999999a999999a000aa9a99a11a11a200a11a",
        "99999992aa999999029929999900aa299999009a999999029a999000009a999999999a99999999009999999a11a1002aaa1a",
        "929999912a9088888089909999909a909999919a900999901a990009900a988899999a999999999099999999a110110999a9",
        "9929999999880888888999099999999900999999990090990999000009998000000999999889999999999999999aa119999a",
        "8999988999888888888919998089891999080989199880098919889999898888888889888888898990000000099000000000",
        "8199888189818888818811888801891188800009118888008911888888891788888889888888888999888888809999999999",
        "8118888889801777088880088808898008880889800888808980088888898008888889888888888888888888009999999888",
        "8812888888770170777088008788088800888888880088888888008888808807788888888778888888888880008889888888",
        "7881188888777717777888810888788880088888888008887088800888788777777778777777787888888770008888988888",
        "7887117778777001770777870077787777007770777000777877770077787777007778777777777878777800008888898888",
        "7777711777776660177777077007707707700778777770077877777007787777700777777777777777777087077888879777",
        "7777776277760666016077777700777777770077777777007777777710777776670077776666707777770077777777777877",
        "6777766167666666606767777660672777667167277767706767776670677766666667777666006777776606777777777787",
        "6277666667606666666670076666677067666667706766666770676666676656666667600000006767776666677717177667",
        "6677666666666555666666676066661667660666166560066616676606661666666666666666666666666666667000000000",
        "5166656666615555555611666500661166500066116556006611666660661166566666666656666666666666666766666666",
        "5126555566501555055660065506666006550656600655565660065556566006555666664655555666665556666666666606",
        "5612655556550255555566026555566600655556660065555666006055566600550056664455555556665555056666665055",
        "5564455555555445555555640555555560055555556005555555600550555560055055555405555555555550055666650055",
        "5554445555554444455555540055555554005555555000555555500055555554005555555400500555554550055555565555",
        "4555444455554444444555054005555504400545555540055555004005455555400555555540000555554400055555006555",
        "4555444444444444044455554400455555440045555304004555554010445555540004555544000445554400045550044544",
        "4455544444444334404444553440444453344404455330400445555400044555500004445330000444554004444400004444",
        "3455333444444333344424553344442455334404225533044422553000042255300004444330000444443000444444444444",
        "3444333344444333333424443333442444333334244530003424453300042444333004444433330444443333444444444444",
        "3244433333322233333312445333331242500033124253000312425330031242433303124433333344443333334444443330",
        "3124253333302223333330042503333004250033300025300330002533033000200333300020333333444333003444433300",
        "3312222333330222233333002253333300225003330020530333002053333300225333330022500033322230003334443000",
        "2331222233333122222333300220333330022203333002253333300225333330020000333002000033322200003333420000",
        "2333122222331112222233300022023331002222333300222233330000003333000000333300000033332000003333200000",
        "2311111222221111122223111002222310100222233100000023100000002333000000233300000023330000002233000000",
        "2231111122202111112222011100222200000000220000000022000000002230000000223000000022300000002220000000",
        "2223111112220011101222000000002200000000220000000022000000002200000000220000000022000000002200000000",
        "1222311111200000000020000000002000000000200000000020000000002000000000200000000020000000002000000000",
        "00000000001a000000001a20000000122200000017278000001a2aaa00001a2aaa10001a2aaa11001a2aaa11101a2aaa1111",
    )
    if score >= len(table) or opponent_score >= len(table[0]):
        return 4
    return int(table[score][opponent_score], 16)
    # END PROBLEM 12
