test = {
  'name': 'Question 5b',
  'points': 1,
  'suites': [
    {
      'cases': [
        {
          'code': r"""
          >>> hog_gui.final_scores(3, 2, [4, 6, 5])
          (105, 60)
          """,
          'hidden': False,
          'locked': False
        },
        {
          'code': r"""
          >>> 'final_scores' in hog_gui.route.__globals__['PATHS']
          True
          """,
          'hidden': False,
          'locked': False
        }
      ],
      'scored': True,
      'setup': r"""
      >>> import hog, importlib, hog_gui
      >>> importlib.reload(hog)
      """,
      'teardown': '',
      'type': 'doctest'
    }
  ]
}
