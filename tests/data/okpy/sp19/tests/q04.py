test = {
  'name': 'Question 4',
  'points': 1,
  'suites': [
    {
      'cases': [
        {
          'code': r"""
          >>> is_swap(2, 4)
          False
          >>> is_swap(11, 1)
          True
          """,
          'hidden': False
        },
        {
          'code': r"""
          >>> is_swap(13, 31)
          False
          >>> is_swap(1, 10)
          False
          """,
          'hidden': False
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
