"""Checks that the named functions of a source file use none of the disallowed constructs.

check('hog.py', 'free_bacon', ['While', 'For']) is True when free_bacon has no while or for loop;
otherwise it prints where each construct is used and is False. 'Recursion' disallows a call of the
function to itself.
"""

import ast


def _calls_itself(function):
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == function.name
               for node in ast.walk(function))


def check(source_file, checked_funcs, disallow, source=None):
    if source is None:
        with open(source_file) as f:
            source = f.read()
    if isinstance(checked_funcs, str):
        checked_funcs = [checked_funcs]
    tree = ast.parse(source, source_file)
    found = []
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef) and function.name in checked_funcs:
            for node in ast.walk(function):
                if type(node).__name__ in disallow:
                    found.append((function.name, type(node).__name__, node.lineno))
            if 'Recursion' in disallow and _calls_itself(function):
                found.append((function.name, 'Recursion', function.lineno))
    for name, construct, line in found:
        print('{} should not use {} (line {} of {})'.format(name, construct, line, source_file))
    return not found
