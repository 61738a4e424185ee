"""Defines names that shadow builtins."""


def square(x):
    return x * x


def sum(values):
    return "student sum"


def len(value):
    return -1


print = "not a function"
