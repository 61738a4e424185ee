def square(x):
    return x * x


while True:
    pass
