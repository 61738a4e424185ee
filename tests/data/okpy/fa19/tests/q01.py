test = {
  'name': 'Question 1',
  'points': 2,
  'suites': [
    {
      'cases': [
        {
          'code': r"""
          >>> roll_dice(2, make_test_dice(4, 6, 1))
          10
          >>> take_turn(0, 46)
          6
          >>> take_turn(2, 0, make_test_dice(3, 2))
          5
          """,
          'hidden': False,
          'locked': False
        },
        {
          'code': r"""
          >>> roll_dice(0)
          Traceback (most recent call last):
            ...
          AssertionError: Must roll at least once.
          >>> is_swap(36, 29)
          True
          >>> is_swap(0, 0)
          True
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
          'question': 'How many points does rolling zero dice score?',
          'answer': 'Free Bacon',
          'choices': ['Free Bacon', 'Nothing'],
          'hidden': False,
          'locked': False
        }
      ],
      'scored': True,
      'type': 'concept'
    }
  ]
}
