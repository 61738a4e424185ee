test = {
  'name': 'Problem 2',
  'points': 300,
  'suites': [
    {
      'cases': [
        {
          'code': r"""
          >>> picky_piggy(35)
          5
          """,
          'hidden': False,
          'locked': False,
          'multiline': False
        },
        {
          'code': r"""
          >>> picky_piggy(7)
          15
          """,
          'hidden': False,
          'locked': False,
          'multiline': False
        },
        {
          'code': r"""
          >>> picky_piggy(99)
          1
          >>> take_turn(0, 46)
          5
          """,
          'hidden': True,
          'locked': False,
          'multiline': False
        }
      ],
      'scored': True,
      'setup': r"""
      >>> from hog import *
      >>> import tests.construct_check as test
      """,
      'teardown': '',
      'type': 'doctest'
    },
    {
      'cases': [
        {
          'code': r"""
          >>> test.check(HOG_PY, 'picky_piggy', ['While', 'For', 'Recursion'])
          True
          """,
          'hidden': False,
          'locked': False,
          'multiline': False
        }
      ],
      'scored': True,
      'setup': r"""
      >>> from hog import *
      >>> import tests.construct_check as test
      >>> HOG_PY = 'hog.py'
      """,
      'teardown': '',
      'type': 'doctest'
    }
  ]
}
