# fa19, loses question 5b only: play keeps each player's previous dice count but never adds Feral Hogs' 3 points.
"""The Game of Hog (CS 61A Fall 2019 rules)."""

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
    """Return the points scored from rolling 0 dice (Free Bacon): ten minus the
    smaller of the tens and ones digits of the opponent's score.

    score:  The opponent's current score.
    """
    # BEGIN PROBLEM 2
    tens, ones = score // 10 % 10, score % 10
    return 10 - min(tens, ones)
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
    """Return whether the two scores should be swapped (Swine Swap): the first
    digit times the last digit of one score equals the same product for the
    other score. The first digit of a one-digit score is the score itself, so
    the product for 0 is 0 * 0 = 0.
    """
    # BEGIN PROBLEM 4
    def first_times_last(score):
        first = score
        while first >= 10:
            first = first // 10
        return first * (score % 10)
    return first_times_last(player_score) == first_times_last(opponent_score)
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
         goal=GOAL_SCORE, say=silence, feral_hogs=True):
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
    feral_hogs: A boolean indicating whether the feral hogs rule should be active.
    """
    who = 0  # Who is about to take a turn, 0 (first) or 1 (second)
    previous_rolls = [0, 0]  # The dice each player rolled on their previous turn
    # BEGIN PROBLEM 5
    while score0 < goal and score1 < goal:
        if who == 0:
            strategy, score, opponent_score = strategy0, score0, score1
        else:
            strategy, score, opponent_score = strategy1, score1, score0
        num_rolls = strategy(score, opponent_score)
        score += take_turn(num_rolls, opponent_score, dice)
        previous_rolls[who] = num_rolls
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
        "60765776766922860875024557222604418884480148866740048880888804888818780478a4828a058aa4872a01790a5402",
        "676857787687a685586466a7566776666465664669481888414867777777637777187654696651a8741aa8662a51681aa402",
        "0707765875577576686a5555444547525a67635762461687333368618668737986086943688671aa7419a8861a4a7888a302",
        "0760468765067576576550554658a543546666776346a888612347617886737883177a3368a5738874a898561144781aaa01",
        "0760667665769545070506554644404044464466644668666163668a666610868617771358a6708a1468a656aa14681aaa01",
        "0700758685769565866466666677447245448556606447888a6256667566126895a66a1347a561801358a355191358aaaa09",
        "060765557756775666747604464665762556636672434385868056957655955595884a9346a86aaa7358a04500a368aaaa01",
        "06587576846687660454664404444004444444443333388844024734444302677444640246a568691358a835a91368aaaa01",
        "067865768706876684680740446668444464684461444668661647888844126686888630578838881357a883891258aaaa00",
        "065875778768876884a4a6476464449844444444a823466774a147856844a266788884a247773585a047a77386a257aaaa00",
        "5007627687688767447866270426220622466226022468786641466666440144444844024697648802478a8aaa00478aaa00",
        "6687657687088757446669876465764444486468414444466634444888844144888888414666686852489a94a632579a2aa0",
        "068785688888884804687887456744097064666664464444444144488886466668a66631468aa4a241468aaaa642469aaaa0",
        "0507656488888848049856a754676608446667666a266666666126665567616666767766368aaaa431468a8aaa41469aaaa0",
        "040765678057785804884484474484440444444602446646566a34938444014468888411368aa6aa13368aaaaa11469a8aa0",
        "04095607800788488488648944677644a6666466468664466668846686656a6563668611356aaaa610268aaaaa16368a8aa0",
        "06000605700768a664687688966a76a6268666847506664886662676666624456aaa866a3568a88861368aaaa531368a8aa0",
        "04095457740786a666684646a46776804444647444a4844484440488848884444778881a257889991a348888aa11348aaaa0",
        "40075607740568a564886887886747640a6646666464446688666466666634045a68661a256aa8aa112578a88a1a357aaaa0",
        "0808060770846806048404844487769666066684a040646888a41a6a8668a6546a8888aa046888a3a12578888aa3357aaaa0",
        "47774357608558a687989467446774746444444404a88466460414448aa6034448888806247888a8042478aa9a03247aaaa0",
        "06684238806488840888669644877444444466466a466446664666666aaa6234666aaa601469aaaa61247aaaaa530469a8a0",
        "08083326808846048888688786676404844444884a8606468648188886884a804856884613688a88411468a8aa432468a8a0",
        "088830067086488468888886866664004444468664a666666646126868862033486aaa6aa36a8a8a2a1468aaaa421469a8a0",
        "0800000650844884888888888887648458466666668686666645a6666666662266688a661368aa8a14a36aaa8a101468a8a0",
        "0000000540066664668666868888647646762668466a666868688266686666a68888888813488888141368888a128368a8a0",
        "00070a0740044884088706868a66664546246686a66666666666666666aa610a36688aa6a358aaa8881368aaaaa21368a8a0",
        "00008008478866846686066688667775776666666840a64666666666666611224868aa888258a8a814a348aaaa111358a8a0",
        "000000080888688368676675866866885566a68888866466866860668999691a47688888a257888813425888aa110357a8a0",
        "0470660560067663486088848868668646667868a888666666a666666688a110285888a892a6aaaaaa4256aaaaa822569aa0",
        "9776068440676666564706668758668848684488888866666408666888880181284888098047888803a2478a7a0112578aa0",
        "9676760848864686674777678844658a4668666888a884666668626688888a11864668788147988a7330479aa86112468aa0",
        "0800660560062662a62066646866856a48aa668888866a06666666888688681a066668668146a8886231469aaa6a80479a90",
        "0806860340062766664686658806856844a864888889866688666668668888a1164868666836898880314688887811468a90",
        "88666000600667864544786466a68508878a66868866688486666a66666666818688696661366a88122836aa881611468a90",
        "08006000500622680544074462560208a7aa668887986a86666868696766660a66686966613669696221368a9815aa368a90",
        "0000605020066208044007526846850894aa668888868a868888888686888888868868868a858999a1013689898571368a80",
        "00000000600565060656675666068408a7986688869669866888666666668666a666866688367999112a358a791661357aa0",
        "000000004006667806460664664688088698666888876884868668888888868866787666882479877812258899156a357a80",
        "6655667040067688044067464905860884966688866668868898860666888686888688a689246878a110257989a469257aa0",
        "6004064044240668046506066865768888866678866666666688668664860666066866066824686601a124786603692579aa",
        "04844843260026406666064646a468026686666864666884866866868668686888688848660486868a1124698848592479aa",
        "05846600246264572006052868848786860864888486666686688866866886a68666686668146886881a0469864a582469aa",
        "0002660044266278907606622584688828866668646666648988666666666886664666666686668866a114687848580469aa",
        "00000000302662062056260776a48686688666788476668488866488866848868846684886166888866183688812581368aa",
        "55755700000602460422048258646007062768676476488476666688866676869606666666166868186a1368881848a368aa",
        "00700600400600400020066426047705842824770464578486686688866685866866868886a866668665186888a0481368aa",
        "000000000407600080400264488447048477667444464684688864468468487446646668686848886884a3588830481358aa",
        "000000000005000400460570570446046477666444464684886686488488688646a666488866586688688358853046a357aa",
        "000000000006404400660674466655058466644404444674666684488666a884666444a848625866a8888257a8a0374257aa",
        "85800680846440400868a6644466446444476646644467644666644684686884466466088886486608aa824688003a4257aa",
        "002405855660404088430660246646644664664468446668466666668446686640866868888648866888824888483a3247aa",
        "0564467035004644784604684608656443646644884846684866684888466866488866688880a8866888814a8a483a3247aa",
        "05444600020540008846074824024404636666424856446864666844684668444686466888886a88688a80aaa8a83a3146aa",
        "0000000024026204884606622482440447446645485845784566684488444846868866688888888868a888888a1a2a3046aa",
        "00000000000562046846026244824504425488450848467644466644884468488788866888888888488881888a1a0a3836aa",
        "545335a00006604400000262047245046256564508482688450666448846466884886888888a8a8a88028188aa8a2a213aaa",
        "00000000000000000000065026604600574646440847446854666754884448488688886888888a8888a08aa88a1a1a213aaa",
        "000000020000000000000048000046004a456645884744684486784488446848867888668888a88888888aaaa81a1a2a3aaa",
        "000000004000000000000046000000045825086408264469648666448844666886a8a6a688aaaa88a8a8aaaa8aa88a2aaaaa",
        "85682688460000000000306004000468004608489988848866826644884466488488a8088888888808888a888a0a1a0a2aaa",
        "84a9768896a00488689900460458000020640888066666686667684666648648868aa88688888a888a88aaaaaaaa1a1a2aaa",
        "0332050848a040688588204004680408486406230866678746866864868486488488a88888888888888888aaaa8aaa88aaaa",
        "00087a0840a42628852a02000400a880286280a808862668658668848664a648848888868888888888aa8aaa8aa8aaaa1aaa",
        "0000000000022668853925468487a202096a98880886868864064884866486488486888688888a8888a88a8aaaa8aaaa1aaa",
        "0000000000066280020002222462a800482a95a80686668884466864886a06886a8688889688a8888888aaa88aa8aaaa0aaa",
        "00000000000050000000006600800000082296690476268885065824766a06a66a868886888a98888888a888a889aaaaaaaa",
        "254894a9322000000000002002070000282286680487666884666764866896886a86886686688888889aa8a888a99999aaaa",
        "000000002a0000000000000000000005285a066a04866668840666646669869968888866866898888888889988889999a999",
        "000870000000000004000000000400000854050a04666664880666688668068768888886866998998899998a9a8aa9799999",
        "80000a88880000400000000000000080075606706568567686866668866884666888886788688887967899999a0888889898",
        "14a87a86a8104440640680000000007007566688866657646854558867668466686688848869888867886888889888888888",
        "17a8828888124448646680006668660000066688656956646606668877668588687786866668688866686688688888688888",
        "00000a001114a248606602466266868626666637626866646804668846666466686666556668688666666866888668688888",
        "0000800600222228646203226206720422427488545656646205668846666468686466666668868866666886866788868888",
        "0006000000042220622002222266270062626278044646447642646666660568666466646866668666866880676777768866",
        "0000000000000000000000020076600006526588004648546602247856670588878667764768888666866886868777777077",
        "0000000700000000000000006605602000226566034226666604647644566565466666646557648666777676777677777777",
        "a2a6687690a00000000070000005602002266560000058642804642644760476476666444447666666666667767677775777",
        "0000818110000400000000000400040005500560000246040002642646460477774666054666666766777777777446666666",
        "8004861733000000000000004000008000000000600042546480626644466467776555654467666666656656556444666666",
        "7766668311100014431380000000001200000000000020444600046645660476464646044447467604644444446644666666",
        "0064688871101100111a11044444441200000000000040000600066644440044064566044446664666666646644546446666",
        "0004776021111110004411114446611160466666000644400002466644460046665454004665456444444644444556445555",
        "a9a5776000021203304421320524542114000000404025226400020444444046665555033344655406444444545555555555",
        "0000000000002222220200320422500042244240020500306020025422450206264465044346555504534645655455555565",
        "00aa000000000000030000333433440033505445033034544503005534500054254265005524566504555444465444555555",
        "0000000000000000000020033333032003224542022400000000220444340042554444005555444534444544444444444404",
        "0000000000000000000000000000000003333332002224324400244044400044252444032425544443444444444444444444",
        "3aa32422510a0000000000000000000000000000002222202202222224220022243242034424244603444444424222244444",
        "4000000000800000000080000000008000000444100044244010003222224244444444434444444242442444224333233333",
        "0a00000000000000000000000000000000000000000000000000000022300022224332002424443400442333320022233333",
        "0000000000010010000000000000000000000000000000200200002222220002232233000222333300022333330003333333",
        "0000000000001000000001000000000000000000000000000000002222220000222223000022323300002323330000223333",
        "00a0000000000100000000000000000100000000000000000000000222440200022222000002222200000222220000022222",
        "0000000000000010000000000000000000000000010000000000000000000000002220000000222200000022220000002222",
        "0000000000000001000000100000000000000000000000000001000000000000000000000000020000000006660000000222",
        "0000000000000000100000000000000000000000000000000000000000000100000000000000000000000000220000000022",
        "0000000000000000010000010000000010000000000000000000000000000000000000010000000000000000000000000002",
        "0001000000000000001000000000000000000000000000000000000000000000000000000000000001000000000000000000",
    )
    if score >= len(table) or opponent_score >= len(table[0]):
        return 4
    return int(table[score][opponent_score], 16)
    # END PROBLEM 12
