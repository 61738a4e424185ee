test = {
  'name': 'Question 5',
  'points': 3,
  'suites': [
    {
      'cases': [
        {
          'code': r"""
          >>> play(always_roll(3), always_roll(2), dice=make_test_dice(4, 6, 5))
          (105, 60)
          """,
          'hidden': False,
          'locked': False
        },
        {
          'code': r"""
          >>> play(always_roll(1), always_roll(1), score0=99, score1=98, dice=make_test_dice(1))
          (100, 98)
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
          >>> check_play(hog.play)
          """,
          'hidden': False,
          'locked': False
        },
        {
          'code': r"""
          >>> len(recorded())
          6
          >>> check_play(hog.play, 'tests/play.sol')
          """,
          'hidden': False,
          'locked': False
        }
      ],
      'scored': True,
      'setup': r"""
      >>> import hog, importlib
      >>> importlib.reload(hog)
      >>> from tests.play_utils import check_play, recorded
      """,
      'teardown': '',
      'type': 'doctest'
    }
  ]
}
