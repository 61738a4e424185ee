"""What the kit hands out, made from a spec: generated folders, handouts, assignments, the kit's wheel.

``build`` writes ``solution/<id>/``, ``skeleton/<id>/`` and ``docs/<id>/``; ``handout`` renders a variant's
handout; ``assign`` writes what an instructor releases (the student folder, the Gradescope bundle, the
GitHub Classroom workflow); ``wheel`` packs the running kit for the bundle to install.
"""
