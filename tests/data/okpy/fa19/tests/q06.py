test = {
  'name': 'Question 6',
  'points': 2,
  'suites': [
    {
      'cases': [
        {
          'code': r"""
          >>> s0, s1 = play(always_roll(1), always_roll(1), dice=make_test_dice(3), goal=10, say=echo)
          3 0
          3 3
          6 3
          6 6
          9 6
          9 9
          12 9
          >>> s0, s1
          (12, 9)
          """,
          'hidden': False,
          'locked': False
        },
        {
          'code': r"""
          >>> play(always_roll(0), always_roll(1), dice=make_test_dice(2), goal=20, say=echo, feral_hogs=False)
          0 10
          0 12
          9 12
          9 14
          18 14
          18 16
          27 16
          (27, 16)
          """,
          'hidden': False,
          'locked': False
        },
        {
          'code': r"""
          >>> play(always_roll(3), always_roll(5), dice=make_test_dice(4), goal=25, say=say_scores)
          Player 0 now has 12 and Player 1 now has 0
          Player 0 now has 12 and Player 1 now has 20
          Player 0 now has 24 and Player 1 now has 20
          Player 0 now has 24 and Player 1 now has 40
          (24, 40)
          """,
          'hidden': False,
          'locked': False
        }
      ],
      'scored': True,
      'setup': r"""
      >>> from hog import *
      >>> def echo(score0, score1):
      ...     print(score0, score1)
      ...     return echo
      """,
      'teardown': r"""
      >>> del echo
      """,
      'type': 'doctest'
    }
  ]
}
