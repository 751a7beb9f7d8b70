"""A bot chosen by name plus settings, or by one entry (bots.choice): the same reading for the CLI,
flows and benchmarks, and the one-line refusals naming the bad part and what is accepted."""

import pytest

from bots.choice import choose, entry
from bots.twocarddraw import BOTS as TCD
from engine.core.errors import UnknownName
from engine.core.settings import ConfigError
from tests.flows.toy_game import BOT as COIN

TOY = {"coin": COIN}


def test_a_bot_by_name_takes_its_settings():
    chosen = choose(TOY, "coin", ["edge=0.75"])
    assert (chosen.label, chosen.spec.name, chosen.config.edge, chosen.settings) == ("coin", "coin", 0.75,
                                                                                    (("edge", "0.75"),))
    assert chosen.make() == chosen.config  # the toy bot is its config


def test_an_unknown_bot_names_the_accepted_ones():
    with pytest.raises(UnknownName) as refused:
        choose(TOY, "robot", option="--opponent", game="toy")
    assert str(refused.value) == "--opponent 'robot': unknown bot for toy; accepted: coin"


def test_a_setting_without_a_key_names_the_bots_keys():
    with pytest.raises(ConfigError, match=r"^--set 'edge': not key=value; accepted: key=value with a key of "
                                          r"crash_file, crash_unit, edge, label$"):
        choose(TOY, "coin", ["edge"])
    with pytest.raises(ConfigError, match="edge='lots' is not a number"):  # the bot's own value check
        choose(TOY, "coin", ["edge=lots"])


@pytest.mark.parametrize(("text", "sep", "settings_sep", "label", "settings"), [
    ("coin", ":", ":", "coin", ()),
    ("coin:edge=0.6:label=x", ":", ":", "coin:edge=0.6:label=x", (("edge", "0.6"), ("label", "x"))),
    ("coin:edge=0.6,label=x", ":", ",", "coin:edge=0.6,label=x", (("edge", "0.6"), ("label", "x"))),
    ("  coin   edge=0.6  label=x ", None, None, "coin edge=0.6 label=x", (("edge", "0.6"), ("label", "x"))),
])
def test_one_entry_is_a_name_then_settings(text, sep, settings_sep, label, settings):
    chosen = entry(TOY, text, sep=sep, settings_sep=settings_sep)
    assert (chosen.spec.name, chosen.label, chosen.settings) == ("coin", label, settings)


def test_an_entry_is_refused_naming_the_entry():
    with pytest.raises(ConfigError, match=r"^--bot '   ': no bot name; accepted: NAME or NAME k=v k=v\.\.\. "
                                          r"with NAME one of .*learner"):
        entry(TCD, "   ", sep=None, settings_sep=None)
    with pytest.raises(ConfigError, match=r"^BOTS 'coin:edge' setting 'edge': not key=value; accepted"):
        entry(TOY, "coin:edge", option="BOTS")
    with pytest.raises(UnknownName, match=r"^entrant a 'nobody': unknown bot for twocarddraw; accepted: "):
        entry(TCD, "nobody:x=1", option="entrant a", game="twocarddraw")
