test = {
  'name': 'Question 5',
  'points': 3,
  'suites': [
    {
      'cases': [
        {
          'code': r"""
          >>> play(always_roll(5), always_roll(3), dice=make_test_dice(5))
          (105, 80)
          """,
          'hidden': False,
          'locked': False
        },
        {
          'code': r"""
          >>> s0, s1 = play(always_roll(1), always_roll(2), dice=make_test_dice(3, 4), goal=10)
          >>> s0
          7
          >>> s1
          14
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
    },
    {
      'cases': [
        {
          'code': r"""
          >>> play(always_roll(0), always_roll(0), goal=15)
          (10, 15)
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
    },
    {
      'cases': [
        {
          'code': r"""
          >>> play(always_roll(0), always_roll(0), goal=15)
          (0, 0)
          """,
          'hidden': False,
          'locked': False
        }
      ],
      'scored': False,
      'setup': r"""
      >>> from hog import *
      """,
      'teardown': '',
      'type': 'doctest'
    }
  ]
}
