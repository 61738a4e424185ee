test = {
  'name': 'Question 3',
  'points': 2,
  'suites': [
    {
      'cases': [
        {
          'code': r"""
          >>> take_turn(2, 0, make_test_dice(4, 5, 1))
          9
          >>> take_turn(0, 35)
          4
          """,
          'hidden': False,
          'locked': False
        },
        {
          'code': r"""
          >>> take_turn(2, 0, dice)
          6
          >>> take_turn(1, 0, dice)
          1
          """,
          'hidden': False,
          'locked': False
        },
        {
          'code': r"""
          >>> take_turn(11, 0)
          Traceback (most recent call last):
            ...
          AssertionError: Cannot roll more than 10 dice.
          >>> take_turn(3, 0, dice)
          1
          """,
          'hidden': False,
          'locked': False
        }
      ],
      'scored': True,
      'setup': r"""
      >>> from hog import *
      >>> dice = make_test_dice(2, 4, 1)
      """,
      'teardown': r"""
      >>> del dice
      """,
      'type': 'doctest'
    }
  ]
}
