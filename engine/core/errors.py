"""The project's user-facing errors: a problem the user caused or can fix (a bad name, key, value,
file or spec, a busy resource). The CLI prints these as one line; any other exception is a bug
and keeps its traceback.

They live at the lowest layer that raises them (engine imports nothing of bots/flows). Each
subclass also derives from the built-in type callers caught before, so `except ValueError`
and the like keep working."""


class UserError(Exception):
    """A problem the user caused or can fix; str() is the message alone (no KeyError quotes)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class BadValue(UserError, ValueError):
    """A value given by the user is outside what is accepted."""


class UnknownName(UserError, KeyError):
    """A name the user gave (bot, opponent, table, league) is not one we know."""


class NotFound(UserError, LookupError):
    """What the user asked for (a match, a sweep) is not in the hand log."""


class MissingFile(UserError, FileNotFoundError):
    """A file the user named, or one a command needs first, does not exist."""


class Unavailable(UserError, RuntimeError):
    """A resource is busy or a run failed for a reason the message names and the user can act on."""


class IllegalMove(ValueError):
    """A move the game's rules refuse at this point (every game raises this one type; judges catch it
    and apply their contest's treatment). Not a UserError: a bot's bad answer is not the user's typo.
    str() and ``reason`` are the refusal in the game's own words."""

    @property
    def reason(self) -> str:
        return str(self.args[0]) if self.args else ""
