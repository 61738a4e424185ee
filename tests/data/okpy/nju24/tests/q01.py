test = {
  'name': 'Problem 1',
  'points': 200,
  'suites': [
    {
      'cases': [
        {
          'code': r"""
          >>> roll_dice(3, make_test_dice(2, 3, 4))
          9
          """,
          'hidden': False,
          'locked': False,
          'multiline': False
        },
        {
          'code': r"""
          >>> roll_dice(2, make_test_dice(1, 6))
          1
          """,
          'hidden': False,
          'locked': False,
          'multiline': True
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
