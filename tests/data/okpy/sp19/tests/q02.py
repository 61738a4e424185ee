test = {
  'name': 'Question 2',
  'points': 1,
  'suites': [
    {
      'cases': [
        {
          'code': r"""
          >>> free_bacon(35)
          4
          >>> free_bacon(71)
          2
          >>> free_bacon(0)
          1
          """,
          'hidden': False,
          'locked': False
        },
        {
          'code': r"""
          >>> free_bacon('no score')
          TypeError
          >>> free_bacon(49)
          5
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
          'question': 'What does free_bacon return for a score of 0?',
          'answer': 'One point more than the smaller digit: 1',
          'choices': ['One point more than the smaller digit: 1', 'Nothing', '0'],
          'hidden': False,
          'locked': False
        }
      ],
      'scored': False,
      'type': 'concept'
    }
  ]
}
