test = {
  'name': 'Question 7',
  'points': 3,
  'suites': [
    {
      'cases': [
        {
          'code': r"""
          >>> bacon_strategy(10, 41, 10, 6)
          6
          >>> bacon_strategy(0, 77, margin=20, num_rolls=4)
          4
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
          >>> swap_strategy(1, 19)
          4
          >>> swap_strategy(13, 6, 1, 4)
          0
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
          >>> swap_strategy(30, 54)
          4
          >>> bacon_strategy(0, 77)
          0
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
