test = {
  'name': 'Question 5',
  'points': 4,
  'suites': [
    {
      'cases': [
        {
          'code': r"""
          >>> play(always_roll(1), always_roll(1), dice=make_test_dice(4, 6), goal=15)
          (12, 18)
          >>> play(always_roll(3), always_roll(3), score0=85, score1=3, dice=make_test_dice(5))
          (100, 3)
          """,
          'hidden': False,
          'locked': False
        },
        {
          'code': r"""
          >>> # A game that starts at the goal plays no turn
          >>> play(always_roll(4), always_roll(4), score0=100, score1=30)
          (100, 30)
          """,
          'hidden': True,
          'locked': False
        }
      ],
      'scored': True,
      'setup': r"""
      >>> from hog import *
      """,
      'teardown': '',
      'type': 'doctest'
    },
    {
      'cases': [
        {
          'code': r"""
          >>> play(always_roll(2), always_roll(0), dice=make_test_dice(1, 2), goal=4)
          (4, 0)
          """,
          'hidden': False,
          'locked': False
        },
        {
          'code': r"""
          >>> play(always_roll(2), always_roll(4), dice=make_test_dice(3), goal=20)
          (15, 24)
          >>> play(always_roll(2), always_roll(4), dice=make_test_dice(3), goal=20, feral_hogs=False)
          (12, 24)
          """,
          'hidden': False,
          'locked': False
        }
      ],
      'scored': True,
      'setup': r"""
      >>> from hog import *
      """,
      'teardown': '',
      'type': 'doctest'
    }
  ]
}
