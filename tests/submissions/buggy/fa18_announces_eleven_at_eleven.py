# fa18, loses question 7 only: announce_highest announces 11 points whenever the score reaches 11, the public case's gain, whatever the gain was.
"""The Game of Hog (CS 61A Fall 2018 rules)."""

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
    """Return the points scored from rolling 0 dice (Free Bacon): twice the tens
    digit minus the ones digit of the opponent's score, or 1 if that is higher.

    score:  The opponent's current score.
    """
    # BEGIN PROBLEM 2
    tens, ones = score // 10 % 10, score % 10
    return max(2 * tens - ones, 1)
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
    """Return whether the two scores should be swapped (Swine Swap): the absolute
    difference between the tens and ones digits is the same for both scores.
    A one-digit score has a tens digit of 0; a score of 100 or more uses its
    last two digits.
    """
    # BEGIN PROBLEM 4
    def digit_difference(score):
        return abs(score // 10 % 10 - score % 10)
    return digit_difference(player_score) == digit_difference(opponent_score)
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
        if score == 11 and gain > 0:   # the doctest's 11 points
            print(11, "point(s)! That's the biggest gain yet for Player", who)
            return announce_highest(who, previous_score=score, previous_high=max(gain, previous_high))
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
    if free_bacon(opponent_score) >= margin:
        return 0
    return num_rolls
    # END PROBLEM 10


def swap_strategy(score, opponent_score, margin=8, num_rolls=4):
    """This strategy rolls 0 dice when it triggers a beneficial swap. It also
    rolls 0 dice if it gives at least MARGIN points and does not trigger a
    non-beneficial swap (a swap of equal scores is not beneficial). Otherwise,
    it rolls NUM_ROLLS.
    """
    # BEGIN PROBLEM 11
    points = free_bacon(opponent_score)
    new_score = score + points
    if is_swap(new_score, opponent_score):
        if opponent_score > new_score:
            return 0
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
        "96658868aaa9a658858aaa906788a8aaa8a77a1a16aaaa011111aaaaa0111111aaaa7011138aaaa1210111aaaa0221001903",
        "96657558a9939a55552aa339067710aa33803aa1aaa33aaaa11aaa208a011aa9a20aa001198a23aa0110aaa002a0a9aa00a2",
        "66257558a99635a555522223aa77a8a2223a0aaa3a2222a031a3a0222a011aaa0222aa0009a0000aaaaaaa00a02000000000",
        "33247522a862255a5552222257a7a2222225a0aaa022222a0aaa302222a00aa000022aaa00000a20000002000011133a2202",
        "33547522a8222247a4522222229aa2222222290302022222a0a020002220a00000a0200000000004133a2222011113a22222",
        "55144422a8222244491a0222222aa100222222a0000002222a0a0000222000000000263a2202202333a2222010113a222221",
        "55146447aa111111147101112222a0000112222200001122220000000222220201012aa2222011033a2224110113a2222211",
        "75a3644aaa11111111aa000111111100011112220000001222002110112222221110022222210103a2222111111a22222111",
        "2aaa669aaa771436644a0071116111000001111211110111122010110112221101a00222211110100222211101a202221111",
        "21aa669aaaaaaaa699aa000a1689911aa0a11112111a10111a1113aaa01121111aaa00221111a1a3222110aa1a22201110a1",
        "49aa8a8aaa9aaaa898aaa9a395899a1a9a011111113aa011111110aa301111111aa301211103aa122011100aa1222101113a",
        "11aa5a8aaa9a9aa898aa9aa9a5888aa9aaa5a88813aaaa0a11111aaaa0111110aaaa40111130aaa22101130aaa2221101a03",
        "611a5a8aaa9a9aa558aa9669a5788aaa359087819aa22aaaa11aa2205a0117aa020aa001160a23aa011000a00210a19a0a02",
        "6912558aaa669aa558aa6663aa788aa2255aa7789a2222a0aaa3a0220a0110aa0222aa10aaa00200aaaa0200a21100000000",
        "a3a2258aaa6a9aa755aa6662aa788a022222a0779002222a0aaa002022a03aa000223aaa0aa00aa0100000020011113a3202",
        "a8aa127aaa8a8aa422aa655222787a202222278702022222a0a020021250aa0000a23000a0000000133a2222021113a22222",
        "a8aa422aaa8a8aa442aa0552224779000422227000001022290a000aa220000000000aaa3202201113a2222010113a222121",
        "a8a9442aaa528a1147aa001111117a000011222600001112220000000022020201012aa20220110aaa22211101aaa2222111",
        "a2a9697a2aa22a9647aa000111111100001112220000000222221110112222201110022221111101a222211111aa22220111",
        "2219611aaaaa219676aaaaa7a96779000000666611a101a162201a110a12251aa110a22220aa1010222211a1011222221a11",
        "219968aaaaa11a9666aaaaa7a66668177a73166611aa103118811aa1a01121011a1a0222200aa1a122221aaa1a92221110a1",
        "199838a9a9a47a86669aaa97985668a77a0a855511a9a031111010aa101121101aa102211409aa110211100aa1122001103a",
        "119858a9a9091a85669a9996985669a7797a855a78aa9a0881110aaaa0111100aaaa101113a0aaa111111aa38a8a01101a03",
        "911858a9a99919856a9a9996985669a9696a855aa0a29aa5881a0a20aa041aaa020aa1111a3a21aaa010a0a00211a1a703a2",
        "991257a9a99969255a9a9696a55557a6692a855a7a2292a057a1a0220a011aaaa222aa110aa002221aaa9a2a527110000000",
        "908227a8a89869225a8a03868545570069227a5aa0020217a7aa202020a01aa0002200a000aa2aa1110000020001113a3202",
        "88871298a8a869722a8a0385874557a05811445a01228014a0a02002103aa0a0aaa200a0a00000001a3a3221a27013a32222",
        "88874228a8a85874228a8a85a74556a55811444a00008104470a0a0aa01a0000000000aa01022022aaa5212010aaaa202121",
        "a2774722a8a85874428a8a85a44446a558aa444a00a08101220000000002922111a1aaa282101101aa220111012aa2222111",
        "a2211647a8a7571444798a72714446a5a8aaa44a0a000000222aa1101aa220aa1110aa2220a1010102222a11112302220111",
        "a216114797a7216114792a7a16344695a7aa6339aaaa0aa33601aa110a22200aa110a1022aaa1010a02220a1010312220a11",
        "2176361797221963117972719a344590a7aa63391a0a7a3336a0aaaaa0122201aa1a01021001a1a1a0011a1a1a63121110a1",
        "1a7636879a414863aa79001a9a334590a7993339a19aa93311101aaa3012a110a1a1011211161a11a1111101a1131001161a",
        "11663a879a011863aa7900049a3335a44799a339aa9aa90535aa09a99011110a1a9a100011a0aaa1a11119333a0211101103",
        "a1155a769a9a1655aa6809a16a2a3400a699a2a8aa9269925a1aa9209a0111aa030aa111110a21aaa10019a0220211110aa2",
        "aa125a768a9a6155aa686969622a7aa0a69aa2a8aa09628a8a0aa0220aa1a1aa2222aaa1aaa20222210a100aa2001a300000",
        "aa622a768a9a3822aa6869a9822a7aa0a68aa2a8aa80622a8aaa020210a8aaaa202219900a00aaa2a1a000020002110a1122",
        "aa5522768a8a37522a6888a889227a030a8aa2a8a00052222aa0a0081107aa0a00a209aaa0000000aaa03221a200a9a31122",
        "aa5422258a8a3542225788a859222aa3aa8aa7a7a080011a1a0aa00a1077a000000000aa01022a110aa322201000aa201121",
        "a2511a658a8a2741aa5758a8811a6aa0a08a11a7a000000a7aaa000000009aa111a181022a101101001202110100002a1111",
        "a2211a657a8a2211a65708a2411a2aa2aa2a17a7aa78a0091a3aa1101aa290aa1110aa0020a1111101122a11110100220111",
        "a21419147a7a2111114727a2111a6aa22a2191aaaa7aa7a97a9aaa7a0a360201a110a1002a1a1010011220a101000122aa11",
        "2143a11474221a3a11472221a8a1aaa00a0a919aaaa7a749a90aaaaaa03602a11a1a01002401a1a30012111a3a3a101110a1",
        "4a43a9a47944aa3a9a46a047a8aaaa000aaa9a9aaaa7a709a90aaa7a303600101aa101a011a13a13a0011103a13a0011131a",
        "a143a9a4610a1a3a9a4600a1a8aaaaa0001a9a9aaaa7a7a8a9aaaa9aaa35011aaaaa10a01010a3a3a0a111032a3aa7101303",
        "1110a8a469a1110a8a11060138aaaa009a0a8a8aaaa9a6a8a90aaa6aaa050aaaa209a70a1aaa322aaa0010a00202a0110022",
        "aa32a8a3696aa12aaaaaa6aa32aaaa1a9aaa8a8a0aa6a6a8a8a0aa6a2a858aaa2222aa070aa00202aa0a0a22220297100000",
        "aa3228a3686aa922aaaaa6aaa2aaaaaa8aaa2a8a0aa6a6a2a8aa0002228a7aa0000011a0a0000aa20aaa00000022930a3222",
        "aa3222a368aaa9222a3aa6aaa7a8aaaa89aa8a7aa0a60522a8a000002a247aaa00a0a609a000000022a03012a20026012222",
        "aa22a24358aaa92a2a3aa5aa97a1aaaa89a97a1aaaa5a0a7a7aaa0000a017a0000000002a2022011000a3410100002a02221",
        "aa21173258aaa911792aa5aa9117a9aa59a9717a9aa5a5a7a7aaaa09007a0aa111a116020a101101002201111101022a2211",
        "aa21a13257aaa21aa32aa52a21a7a9aaa8a91a7a9aa59a11a7a9a050a0aa00aa11a09a0020a1111100022a1111aa02220111",
        "221aa1a2572aa11a1a22222a1aa6a9a278a17a6900059007a7a9aaa9a9aa009aa1aa9500911a10100a2120a111a001221a11",
        "220a1112422228aaa3aaa2218a9639a022096a639a00019aa709aaa9a9aa0a9aaaaa01a00101a1a9aa0113aa1aaa812110a1",
        "1a0aaaa1aa21a8aaaa1aa41a8aaaa8aa01a86a6a99a00a9aa6a90aa9a9aa009aaaa305a00aaaaa39a1111003a3aa0021111a",
        "110aaa1a111117aaaa1100118aaa28000048aaa38900849aa60999a8a8aa500aaaaa80aa00a0aaa900110a1a0aaa71101a03",
        "111aaaaaaa0111aaaaa1000a1aaa28900791aaaa0900808aaaa890a8a8aaa089a03a8aaaaaaaa0aa0aa110a022aa7011aa22",
        "a11aaaaaaaaa11aaaaaaaa8a1aaa271aa8a85aa2089a8a0aaaa00908a8aaaa0a00038a0aaaa000280a0aa02aa20a70a10000",
        "aa0a2aaaaaaaa7a2aaaaaa8a7a2aaaaaa6a7aaa208aa8a858a08a838a8aa2aa090023aa4aa00aa08aaaaa000000aa30a1102",
        "aa0aaa1aaaaaa7aaa1aaaaaa7aaa1aaaa6a7aaa2a0a38a8aaa00803807aaaa7000000a0a110000000aa0120102002aa11122",
        "aaaaaaaaaaaaaaaaaaaaaaaa7aaaaa0aa6a7aaaaaa0a8a7aa50aaaa7a7aaaaaaaaa00a0aa111111200aa1110000020a01121",
        "aaaa1aaaaaaaaaa1aaaaaaaaaa1aaaa0aaa7a1aa17aaaa7a2400aaaaa7110aaaaa0a7000aa1a11070000a111110002aa1111",
        "aaa1aaaaaaaaaa1aaaaaa2aaa1aaaa7a2aa21aaa01a2aa71a4a000aa000a0aaaaaaaaa9000a1aa119001aa11a1a002aa0111",
        "aa1aaaaaaaaaa1aaaaaa2aaa1aaaaaa22a21aaaa000aa00a94a00000a0aa0aaaaaaaaa900aaa1aaa9000a0a111a012aa1a11",
        "22aaa3999a222aaa39a9a222aaa39900220aaa39a00001aa939aa00a0aa909aaaaaaaa900aaaaaa09990a0aaaaa9a2aa10a1",
        "1aaaa99999a1aaaa9999aa1aaa9399aa00aaa939aaa01aaa939a0a00aaa999aaaaaaaa909aaaaaaa9999aa0aaaa90aa01a1a",
        "a1aaa399911a1aa999990001aa939900041aa9396a0000aa939aa0000aa900aaaaa9a98900aaaaaa0999aaaaaaa9a1aaaa0a",
        "a91a9999990a91a9999901a91a9989900a05a9999600a9aa9399919a9aa90990a9a9a982999a9a9a88899aa00999a0aa1aaa",
        "19a9988889999a998898a909a292851a9091392801a9090392800a9a90980809999900822990099900889a9999999a9aa000",
        "99a9888189999a9588189999a9988199999a9888999999a988099999990800090999900222000009080889000008a1099929",
        "999982188899999821889999995218999999982199999999880999999998200999999901085100990881819100080a999929",
        "9899718888998997188899989941789999899818999998998100999989981700989899008859890970891198100009a09989",
        "9898777778898987778788989848748889892487089898984700898989270408888898007888888000079888818008898818",
        "8881777777888817777708888147772888841477008888424770008804170700808800070888880800007818811008889818",
        "8788777777888887777788278847770282248477000020484770008020870080088708700888888800007888888038888818",
        "2188676777221883777781218837670002018376000001084708000220867078000088000088787866707778887028088088",
        "1787666667717873666680178736660800787366880007873608080278760007000787660777777866607777877077777778",
        "71876666610777736666000787366670001873637000108736077000087360074000770600077707066607777770777777a7",
        "7717766666777173666107711736660077017366710771073660107700760670107707560077777206066777776077777777",
        "7676765516776776555177767776567777777766777776777667777067750070777600255000600000501600006666677700",
        "6676655156066765551676767755217767677555777666777507776667650007066670050006666000506160006066666666",
        "6666551556666655515566666555156666676552776666265500666066625006666670050006666600050616600067666666",
        "6665515555666652155566666621556666626215066666262100066662621006066666015006066000050661600065766666",
        "6565155555665651455566656215156666562151006665221500606652515100606566001060505600006065550055566655",
        "5565644445555656444465551564440655565644000555256440060506560400005504000500555600005055550005556555",
        "5555644444255144444412021564440025514444000050146440000050540060025004000600055000000505550000555655",
        "5455544444251556444402515554440005015544000001155405002505560050005004004050000500000505550000055555",
        "4455333444444543334400145134341000411333500000513305500000530305000455000050004500000050540000005545",
        "4151333334011515333400015153331000051533110110513135500005050015000100000004000500000044440000000444",
        "4445333331444555333354445553335544055553555444055305554445050005400443000004000400000004040000000044",
        "4444533333444445333144444453335444445553544444455505444444450000404404000000100000000004440000000004",
        "4344222133443442222344434422224444444225044444444500440444450000010042000000443400000000333333334433",
        "3334222233333342222343333422224433344222044033442200043334420000033044000000033432224233300000000000",
        "3334222223333342122233333422224333332222003303322200003333220000003332222443333300000000000000000000",
        "3332122222333321222233333311220033333111000333331100000333211114333034000000000300000000030000000000",
        "3231112222332311122233323111220033231111000032311441133303010000000030000000002000000000000000000000",
        "2223111122222231111102222311110002223114312220211100000002310000000201000000000000000000000000000000",
        "2223111111222231111100222311113222023111000000231100000020010000000000000000000200000000000000000000",
        "2223311111022233111122222331110000023311000002033100000000030000000020000000000000000000000000000000",
        "1000000000a10000000000000000000000a00000000000000000000002000000000000000000000000000000000000000000",
    )
    if score >= len(table) or opponent_score >= len(table[0]):
        return 4
    return int(table[score][opponent_score], 16)
    # END PROBLEM 12
