"""The Game of Hog (NJU SICP 2021 rules)."""

from dice import six_sided, four_sided, make_test_dice

GOAL_SCORE = 100  # The goal of Hog is to score 100 points.


######################
# Phase 1: Simulator #
######################


def roll_dice(current_score, num_rolls, dice=six_sided):
    """Simulate rolling the DICE exactly NUM_ROLLS > 0 times. Return the sum of
    the outcomes unless any of the outcomes is 1. In that case, return 1.
    Either way, add one point for each outcome that has the same parity (both
    odd or both even) as CURRENT_SCORE.

    current_score:  The current player's score before the turn.

    num_rolls:  The number of dice rolls that will be made.
    dice:       A function that simulates a single dice roll outcome.
    """
    # These assert statements ensure that num_rolls is a positive integer.
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    # BEGIN PROBLEM 1
    total, pig_out, same_parity = 0, False, 0
    for _ in range(num_rolls):
        outcome = dice()
        total += outcome
        if outcome == 1:
            pig_out = True
        if outcome % 2 == current_score % 2:
            same_parity += 1
    points = 1 if pig_out else total
    return points + same_parity
    # END PROBLEM 1


def picky_piggy(score):
    """Return the points scored by rolling 0 dice (Picky Piggy): the SCORE-th
    digit after the decimal point of 1/21 = 0.047619047619..., or 1 point when
    SCORE is 0.

    score:  The opponent's current score.
    """
    # BEGIN PROBLEM 2
    if score == 0:
        return 1
    digit, remainder = 0, 1
    score = (score - 1) % 6 + 1   # the expansion repeats every six digits
    while score > 0:
        remainder = remainder * 10
        digit, remainder = remainder // 21, remainder % 21
        score = score - 1
    return digit
    # END PROBLEM 2


def take_turn(num_rolls, current_score, opponent_score, dice=six_sided, goal=GOAL_SCORE):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 in the case
    of a player rolling zero dice (Picky Piggy).
    Return the points scored for the turn by the current player.

    num_rolls:       The number of dice rolls that will be made.
    current_score:   The total score of the current player.
    opponent_score:  The total score of the opponent.
    dice:            A function that simulates a single dice roll outcome.
    goal:            The goal score of the game.
    """
    # Leave these assert statements here; they help check for errors.
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < goal, 'The game should be over.'
    # BEGIN PROBLEM 3
    if num_rolls == 0:
        return picky_piggy(opponent_score)
    return roll_dice(current_score, num_rolls, dice)
    # END PROBLEM 3


def swine_swap(player_score, opponent_score):
    """Return whether the two scores should be swapped (Swine Swap): the first
    and the last digit of 3 to the power of the sum of both scores are equal.
    When both scores are 0, 3 ** 0 is 1, whose first and last digit are the
    same digit, so the (harmless) swap happens.
    """
    # BEGIN PROBLEM 4
    excitement = str(3 ** (player_score + opponent_score))
    return excitement[0] == excitement[-1]
    # END PROBLEM 4


def next_player(who):
    """Return the other player, for a player WHO numbered 0 or 1.

    >>> next_player(0)
    1
    >>> next_player(1)
    0
    """
    return 1 - who


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
        score += take_turn(num_rolls, score, opponent_score, dice, goal)
        if swine_swap(score, opponent_score):
            score, opponent_score = opponent_score, score
        if who == 0:
            score0, score1 = score, opponent_score
        else:
            score0, score1 = opponent_score, score
        say = say(score0, score1)
        who = next_player(who)
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


def announce_lead_changes(last_leader=None):
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
        if leader != None and leader != last_leader:
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


def announce_highest(who, last_score=0, running_high=0):
    """Return a commentary function that announces when WHO's score
    increases by more than ever before in the game.

    NOTE: the following game is not possible under the rules, it's just
    an example for the sake of the doctest

    >>> f0 = announce_highest(1) # Only announce Player 1 score gains
    >>> f1 = f0(12, 0)
    >>> f2 = f1(12, 9)
    9 point(s)! That's a record gain for Player 1!
    >>> f3 = f2(20, 9)
    >>> f4 = f3(20, 30)
    21 point(s)! That's a record gain for Player 1!
    >>> f5 = f4(20, 47) # Player 1 gets 17 points; not enough for a new high
    >>> f6 = f5(21, 47)
    >>> f7 = f6(21, 77)
    30 point(s)! That's a record gain for Player 1!
    """
    assert who == 0 or who == 1, 'The who argument should indicate a player.'
    # BEGIN PROBLEM 7
    def say(score0, score1):
        score = score1 if who == 1 else score0
        gain = score - last_score
        if gain > running_high:
            print(f"{gain} point(s)! That's a record gain for Player {who}!")
            return announce_highest(who, last_score=score, running_high=gain)
        return announce_highest(who, last_score=score, running_high=running_high)
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


def make_averaged(original_function, trials_count=1000):
    """Return a function that returns the average value of ORIGINAL_FUNCTION when
    called TRIALS_COUNT times.

    To implement this function, you will have to use *args syntax.

    >>> dice = make_test_dice(4, 2, 5, 1)
    >>> averaged_dice = make_averaged(dice, 1000)
    >>> averaged_dice()
    3.0
    """
    # BEGIN PROBLEM 8
    def averaged(*args):
        total = 0
        for _ in range(trials_count):
            total += original_function(*args)
        return total / trials_count
    return averaged
    # END PROBLEM 8


def max_scoring_num_rolls(current_score=0, dice=six_sided, trials_count=1000):
    """Return the number of dice (1 to 10) that gives the highest average turn
    score by calling roll_dice with the provided DICE a total of
    TRIALS_COUNT times. Assume that the dice always return
    positive outcomes. If two numbers of dice give the same average, return the
    lower one.

    >>> dice = make_test_dice(1, 6)
    >>> max_scoring_num_rolls(dice=dice)
    1
    """
    # BEGIN PROBLEM 9
    best_num_rolls, best_average = 1, 0
    for num_rolls in range(1, 11):
        average = make_averaged(roll_dice, trials_count)(current_score, num_rolls, dice)
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


def average_win_rate(strategy, baseline=always_roll(6)):
    """Return the average win rate of STRATEGY against BASELINE. Averages the
    winrate when starting the game as player 0 and as player 1.
    """
    win_rate_as_player_0 = 1 - make_averaged(winner)(strategy, baseline)
    win_rate_as_player_1 = make_averaged(winner)(baseline, strategy)

    return (win_rate_as_player_0 + win_rate_as_player_1) / 2


def picky_piggy_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """This strategy returns 0 dice if that gives at least CUTOFF points, and
    returns NUM_ROLLS otherwise. Ignore the score and the rest of the rules.
    """
    # BEGIN PROBLEM 10
    if picky_piggy(opponent_score) >= cutoff:
        return 0
    return num_rolls
    # END PROBLEM 10


def swine_swap_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """This strategy returns 0 dice when rolling 0 makes Swine Swap happen and
    the swap gains the player at least CUTOFF points over the score the turn
    would give without it. Otherwise, it returns NUM_ROLLS.
    """
    # BEGIN PROBLEM 11
    new_score = score + picky_piggy(opponent_score)
    if swine_swap(new_score, opponent_score) and opponent_score - new_score >= cutoff:
        return 0
    return num_rolls
    # END PROBLEM 11


def final_strategy(score, opponent_score):
    """Roll the number of dice that gives the best chance of winning."""
    # BEGIN PROBLEM 12
    # Computed exactly by the kit's strategy engine for these rules and a goal of
    # 100: row SCORE, column OPPONENT_SCORE holds the number of dice as one
    # hexadecimal digit ('a' is 10). Outside the table (a higher goal) roll 6 dice.
    table = (
        "aaaaaaa999a988888808a988432171202000764316a687540450643435322243a31a10012121a1a906431056565555556535",
        "aaaaaaa9a999999998999873a9813100a007541aaa6a6756064605353434032003421191a12aa18003106464575456464545",
        "aaaaa9a9888888888888886320000001aa76431aaaaa575404653505354202a01a4321212020007543260557575355656535",
        "aaaaa99999999898998803900831a1a1975410aaaaaa575646454504302323121211913100a0085319685457565345454535",
        "aaa9998888888888888760078621719a064410aaaaaaaa64043532023203aa1a1a00000001a9764326860353543355650535",
        "aaa999999888888888778887a128a1900310aaaaaaaaa6464535340a23230a03100231212186531068675456564345453534",
        "a9998888888888888766887627000076432aaaaaaaaaa0a4a43532a2a3a31a1001212121a906432087870353640335353532",
        "a9999898888787877777877100a007541aaaaaaaaaaaaa05353434032002121191a122a18003100868675353454335043424",
        "a98888888787867666800000078a76442aaaaaaaaaaaaaa50a354202a01a1aa1212020008643168657544454640330333243",
        "999888888777777777767877a1775410aaaaaaaaaaaaa5a50a2023aa121211913100a0085319786867564346453234343420",
        "888888877766666666668766970644a0aaaaaaaaaa0aaa350a4203aa1a1a00000001a9764316868757544435350530430313",
        "988887877776777677667767900410aaaaaaaaaaaaaaaa3aaa23230a0310010121a187541078675757564645353234232313",
        "8887778766666666666686006744aaaaaaaaaaaaaaaaaa32aaa3a31a1001212121a906431087878757640430353133430313",
        "8887777666776666666667065516aaaaaaaaaaaaa9aa3aaaaa0002121191a122a18001107868670756463235340123230303",
        "877777666666666666665665446aaaaaaaaaa9a99999a9420aa01a1aa1212020008643168787876750640535320233a30310",
        "87777666666556656665665550aaaaaaaaaaa999990aa023aa191219913100a0085119786867575646453534340120031311",
        "87666666666566646664665040aaaaaaaaa9998888a9a903a9181900000001a9864316868757546465650530420100131321",
        "777666666555655065545550aaaaaaaaaaa9999999a999aa990310010121a187541078686757564645350224232312121191",
        "67666566554664466444644aaaaaaaaaa9998888889888a9881001212121a90653108686875764053535023242a3131a1000",
        "766676655555455543a455aaaaaaaaaaa99998888898900982a181a122a18001107868675756464535340a23230002100231",
        "66656664444444544a946aaaaaaaaaa9998888888808a98889a181202000764316878757675064653532a2a3131010012122",
        "6666655554430540a5545aaaaaaaaaa9999888888899981288813100a0075418786867575646053534340420021211a1312a",
        "65565544444304429a4aaaaaaaaaa999888888888888871880000001a97743167687575467656505354203131a13a1912120",
        "665554444005032054aaaaaaaaaaa9999888888788880390070121a1875410786867575646454504202323121211813100a0",
        "655544044344020a4aaaaaaaaaa999888887878778876001212171a8065410767667576405653502324243181a20000001a9",
        "5554544354320a54aaaaaaaaaaa9999888877770070789818121a1800310776767575646453534aa2323000210013121a187",
        "5444444340020aaaaaaaaaaaa99988888777766676662771802000764316667656676064653532a2a343101001212221a106",
        "54544304300a044aaaaaaaaaa9999888877776776678767100a007551666676757574605353534040003421191a12aa18003",
        "44443304300aaaaaaaaaaaa999888887776666666660000006987644166666575767656565354203131813a1812120007642",
        "4443040220a40aaaaaaaaaa9999888877776666660666176a1875510666667675646454505302323181211813100a0085119",
        "433334020aaaaaaaaaaaa9998888877766666666666666669806445066666657540565350a424243171a20000001a9774219",
        "4344320aa0aaaaaaaaaaa999988887777666666665566561700410666666565656464534aa2423000310023121a187541078",
        "3340020aaaaaaaaaaaa99988888777666666655664460000654455666656565454453532a8a343871001212221a106431087",
        "54300a03aaaaaaaaaaa99998888777766666555556605006541656555556565646453534040003431181912aa18003107868",
        "44200aaaaaaaaaaaa999888887776666656555444665576644456555665654556505354203a31743a1712120007552177787",
        "32a0a30aaaaaaaaaa999988887777666665555545555665410555555555656464505302353181211713100a0075318687867",
        "2200aaaaaaaaaaa9998888877767666566554444444465444055aaaaaa4404554545424243171320000001a9764316777757",
        "aa00aaaaaaaaaaa9999888877776666665545444545554405555aaaaaa4545453aaa242a980310023121a186541068676757",
        "aaaaaaaaaaaaa9a988888777676665665544444444444444aaaaaaaaaaa444353aa843aa864001212161a106431056575757",
        "a2aaaaaaaaaaa99998878777066666555454444444444445aaaaaaaaaaaaa53535842008031181312aa18003106667676756",
        "aaaaaaaaaaa9a988888787766665655544444344444444aaaaaaaaaaaaaa0a354505aa184321212100007543155556575755",
        "aaaaaaaaaaaa999888887776066655544443043005444aaaaaaaaaaaaaaa0a3424aa1812a9763100a0074415656567565646",
        "aaaaaaaaaa9988888778676665655544443304300a4aaaaaaaaaaaaaaaaaaaa8a3a9871320000001a9764325565557545565",
        "aaaaaaaaaaa998888777766676650454400403a0440aaaaaaaaaaaaaaaaaaa942a9803100531a1a186441065645457565645",
        "aaaaaaaaa99988878767666566544404333402aaaaaaaaaaaaaaaaaaaaaaa8a3a9864009212161aa05433046565554555535",
        "aaaaaaaaa9988787776666565554544344320aa0aaaaaaaaaaaaaaaaaaaaaaa00803198131a6a19003103464545656454545",
        "aaaaaaa989888787666665555544443340020aaaaaaaaaaaaaaaaaaaa9a80aa987432a7121000076432a0a4a535564656535",
        "aaaaaaaa99988a877606655554444304300a0aaaaaaaaaaaaaaaaaaaaaaaaa9873a9863100a007531aaaa4a4545446454534",
        "aaaaaaa98a8789876605655544403304200aaaaaaaaaaaaaaaaaaaaaa9a8aa876a2000000aaa76432aaa0aaaaaa364353535",
        "aaaaaaa8a89777766686540454400402a00aaaaaaaaaaaaaaaaaa9aaaa9aaa03100831a6a1975310aaaaaaaa434345353534",
        "aaa9aaa8a8976766658654440433440200aaaaaaaaaaaaaaaaaaaaaaa9a8aa600a6a2a949a064320aaaaaaaaa40334353532",
        "aaaaa9a8a7876666365554544344320aa0aaaaaaaaaaaaaaaaaaa9aaaa9a8a8979a1a6a19003100aaaaaaaaaaa4aa5343423",
        "aa9989a7a7766665555544443340020aaaaaaaaaaaaaaaaaaaaaaaa9a9a9aa8a6a2a000076432aaaaaaaaaaaaaaaa03a3243",
        "aa9aa9aaa7760a655554444300300a0aaaaaaaaaaaaaaaaaaaaaa89a9a8a0aa7a100a007531aaaaaaaaaaaaaaaa535342420",
        "a9aaa8aaa766a9855544403304200aaaaaaaaaaaaaaaa9a9a9a9a8a9a9a9aa0a6a0a9a9643aaaaaaaaaaaaaaaaa540a303aa",
        "a9a9a889776a96640454a00402a002aaaaaaaaaaaaaaa9a9a99a989a9a8aa9a7a6a1a75310aaaaaaaaaaaaaaaaaa34232a1a",
        "98a987776669865444043a54020aaaaaaaaaaaaaa99998a98999a8a9898a8a8a9a9a0a40a0aaaaaaaaaaaaaaaaaaa203aaaa",
        "9898976666395554544304320aa0aaaaaaaaaaaaa999989998879a998979a9a6a1a004a0aaaaaaaaaaaaaaaaaa0aaaa31a03",
        "8787876665555544443340020aaaaaaaaaaaa9a99988878888778889898a8a9a9a9a9aaaaaaaaaaaaaaaaaaaaaaaaaaa0a10",
        "9a99760a965554434300300aaaaaaaaaaaaaaaa999988888878a978989a9a8a6a7a6aaaaaaaaaaaaaaaaaaaaaaaaa0021311",
        "898876a9855544403304200aaaaaaaaaaaa999998888888876898879898a9a9a9a9a9aaaaaaaaaaaaaaaaaaaaa0aaaaa13aa",
        "88776999640454a00402a0a2aaaaaaaaaaaaa998988888777989868978a8a7a5a7a0aaaaaaaaaaaaaaaaaaaaaaaaaa121aa1",
        "787669875484048a44029aaaaaaaaaaaa999998888877866698886878a8a9a9a989aaaaaaaaaa9999999999999a9a91aa000",
        "7666686555644304320a90aaaaaaaaaaa99999988887776678767678a865a89a9aaaaaaaaaaaa999999999999a9903a00931",
        "6665575544443360020a98aaaaaaa9a999888887877766686775868787649a9898aaaaaaa999999888889898998990019121",
        "06866558444300300a9a9aaaaaaaaaa99999888888766686657875786648979a9aaaaaaaaa9999999999999009099991a1aa",
        "0985554740370420989898aaaaaaa999998888887766688655876687659a989898aaaaa99999888888888888888988818800",
        "88650874a00402a09a9a8aaaaaaaa9999898877877668865787578654097978a8aaaaaaa99999888888889888889898100a0",
        "87648764875402989898a8aaaaa999888887877766688765876586654a98989878aaa9999988888888888888888000000a98",
        "65556443653207978a8a8aaaaaa999988787877666676555655065029797868a8aaaaa99999888888888880880888188a198",
        "554564336002089878787aa9a999888887777766660655456447644a986878787aa999998888888777787777878778879807",
        "57444306300796808a8a7aaaa999988880877630766555444765429786868a8a7aaa99999888888777877778777778a88001",
        "4640370520086868787aaaa99988888779776665655546444760429768687876769999888887777777777677767700007767",
        "64400502a096868a7a7a7aa99998888777766687655564070540a76686867a7a7a99999888877777777777777770a0076717",
        "64876402086868787676a6998887877777666676550664470430986565787676769988888777776666666666666697676668",
        "436532076656867a7a7a699988878777666666655564436502a75656867a7a7a699988888777777676677767777777661076",
        "436002086865757676a696888887777666650655450443640297646565767676968888877766666666666666666706666066",
        "653007565655757a6a6969888880777630665555444365320756565575756a69698888877776666666666666666606606676",
        "55200a6564657576a69658888779776635655544433350020a65446575767696568887776766666666666666666656666666",
        "32a056555675757a6969588887777666866555540005300755555645756a6969588887777666666556666666665556666676",
        "32006545447546465658578777676665765404543704300a6545444546465656548777676665555555555555555555656565",
        "a7555545454564646958578777666656555554435502a0555545454564645958587777766666555555555555555055555565",
        "9a55444544464646585454777466650555440443540200554545444646465454547767666555554444445454444055454545",
        "5555454545646464585840777630655554444345320755554545450464695858477776666655555555555555555555555565",
        "4444444446464658545474746635655544433330020a544444444a4646595454746766655555444444444444444444444444",
        "44444444343464535847477666806454540004300a04444444443404aa585847477665665554544444444444444444444454",
        "44444343464353548474676652865404443704300a04444443434a4353545474346655555544444444444444444444444444",
        "44444404346303534747466536555054430402a0044444443434346353534747466530555454440443444444444444444454",
        "4343430343535384743435550554440433540200640443434343490353540434360555554444330433344444444344434343",
        "43333333a0535340423630360544434334320a94344444343433a35353424736353655044440343330443433343434333353",
        "3333332323232424343232055544433330020a63333333333323235324243430323554440333333225333333333333333333",
        "33333303a3220248360a905424540004300a0333330333330323030342480630070424544334330743330333330333330343",
        "22222202222404373202025202440704200a0222220222220222220424270232020242443330220a32220232220223220223",
        "3330230320a202363a27502004400402a0a30330330330330320a302a0360a20652000430430aa0330330320330aa02302a0",
        "2220020a200a2130020250020433540200020220020220020220040a200202325202400304200a0220020220020aa0020a20",
        "aaa00a0aa0090130080520044815320aa00202200a0aa00a0aa00a09813128700904300502a00a0aa00a0aa00a0aa00a0aa0",
        "aa000a0a000801000702177a1700020a00020a000a0a000a0a000a9800020700070a176502000a0a000a0a000a0a000a0a00",
        "aa000a09000601900528000805000a06000504000a0a000a0a00080600080500054805320a000505000a0a000a0a000a0806",
        "aa000909000102075507000704300a0500030a000a0a00090900070100070517143700020a00050a000a0a000a0900098700",
        "01000001013021000005000002a0010100000100000100000100000120051800000500000100000100000100000100000100",
    )
    if score >= len(table) or opponent_score >= len(table[0]):
        return 6
    return int(table[score][opponent_score], 16)
    # END PROBLEM 12
