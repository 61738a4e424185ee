test = {
  'name': 'Question 6',
  'points': 2,
  'suites': [
    {
      'cases': [
        {
          'code': r"""
          >>> s = say_scores(3, 5)
          Player 0 now has 3 and Player 1 now has 5
          >>> f = announce_lead_changes()
          >>> f2 = f(1, 0)
          Player 0 takes the lead by 1
          >>> f3 = f2(1, 3)
          Player 1 takes the lead by 2
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
          >>> f = announce_highest(1)
          >>> f1 = f(11, 0)
          >>> f2 = f1(11, 9)
          9 point(s)! That's the biggest gain yet for Player 1
          """,
          'hidden': True,
          'locked': False
        },
        {
          'code': r"""
          >>> f = announce_highest(1)
          >>> f1 = f(0, 5)
          5 point(s)! That's the biggest gain yet for Player 1
          >>> f2 = f1(0, 12)
          7 point(s)! That's the biggest gain yet for Player 1
          >>> f3 = f2(0, 20)
          8 point(s)! That's the biggest gain yet for Player 1
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
