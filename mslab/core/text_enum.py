"""TextEnum: a declared set of names whose members are also plain strings (phases, value kinds, step stages).

The engine labels things with a few fixed words: a node's phase ("forward", "backward", ...), a value's kind
("input", "param", ...), a training step's stages. An enum declares each set in one place, and because every
member *is* its string (``str`` is a base class), code and learners can keep writing ``node.phase ==
"backward"``. Python 3.11's ``enum.StrEnum`` is the same idea; mslab also runs on 3.10, so it is spelt out here.

``str()``, f-strings and ``repr()`` of a member give its string, exactly as before the enum existed: printed
graphs, notebooks and error messages stay word for word the same (``Phase.BACKWARD`` prints as ``backward``).
"""
import enum


class TextEnum(str, enum.Enum):
    """An enum whose members compare, hash and print as their string values."""

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    def __repr__(self) -> str:
        return repr(self.value)
