def square(x):
    return x * x


TOTAL = 1 / 0
