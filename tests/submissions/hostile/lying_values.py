"""Values whose __eq__ always says yes and whose __repr__ lies."""


def square(x):
    return x * x


class Sneaky(int):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __hash__(self):
        return 0

    def __repr__(self):
        return "6"

    __str__ = __repr__


class SneakyText(str):
    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0

    def __repr__(self):
        return "'right answer'"


class SneakyTuple(tuple):
    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0

    def __repr__(self):
        return "(6, 6)"


def roll():
    return Sneaky(1)


def word():
    return SneakyText("wrong")


def pair():
    return SneakyTuple((1, 2))


def nested():
    return [1, (2, {"k": Sneaky(3)})]


def explode_on_repr():
    class Loud:
        def __repr__(self):
            raise SystemExit("repr was called")
    return Loud()


POSED = []


class PosingAsInt(type):
    """A metaclass whose classes claim to be equal to int and to hash like it."""

    def __eq__(cls, other):
        POSED.append(other)
        return True

    def __hash__(cls):
        POSED.append("hash")
        return hash(int)


class Impostor(metaclass=PosingAsInt):
    pass


def table():
    """A table of numbers with one impostor among them."""
    return [1, 2, Impostor(), 4]


def posed():
    """Whether the grader's sandbox ever ran the impostor's metaclass."""
    return POSED != []
