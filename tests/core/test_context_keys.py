"""``set_context`` / ``get_context`` know their keys: MindSpore 2.10's (captured from the real package) and
mslab's own; any other key raises MindSpore's ValueError, so a typo does not go unnoticed."""
import pytest

import mslab as ms
from mslab.core import context as core_context

# MindSpore 2.10 CPU, observed: ms.set_context(fast=False) / ms.get_context("fast")
SET_MESSAGE = ("For 'context.set_context', the keyword argument fast is not recognized! For detailed usage of "
               "'set_context', please refer to the Mindspore official website.")
GET_MESSAGE = ("For 'context.get_context', the argument fast is not recognized! For detailed usage of "
               "'get_context', please refer to the Mindspore official website.")


@pytest.fixture
def restore_context():
    saved = dict(core_context._context)
    yield
    core_context._context.clear()
    core_context._context.update(saved)


def test_an_unknown_key_raises_mindsporess_value_error_listing_mslabs_own_keys(restore_context):
    with pytest.raises(ValueError) as e:
        ms.set_context(fast=False)
    assert str(e.value).startswith(SET_MESSAGE)
    assert "mslab also has its own keys: graph_cache_size" in str(e.value)
    with pytest.raises(ValueError) as e:
        ms.get_context("fast")
    assert str(e.value).startswith(GET_MESSAGE)
    with pytest.raises(ValueError, match="the keyword argument fast is not recognized"):
        ms.context.set_context(fast=False)  # the 1.x path is the same function


def test_keys_before_the_unknown_one_are_set_as_in_mindspore(restore_context):
    # MindSpore 2.10 applies the keys in order and stops at the unknown one
    with pytest.raises(ValueError):
        ms.set_context(max_call_depth=500, fast=1)
    assert ms.get_context("max_call_depth") == 500


def test_every_mindspore_key_is_accepted_and_kept(restore_context):
    ms.set_context(pynative_synchronize=True, op_timeout=60)
    assert ms.get_context("pynative_synchronize") is True and ms.get_context("op_timeout") == 60


def test_a_mindspore_key_never_set_has_mindspores_cpu_value(restore_context):
    # MindSpore 2.10 CPU, fresh process: get_context("op_timeout") == 900, ("pynative_synchronize") is False
    assert ms.get_context("op_timeout") == 900
    assert ms.get_context("pynative_synchronize") is False


def test_mslabs_own_key_is_still_accepted(restore_context):
    ms.set_context(graph_cache_size=3)
    assert ms.get_context("graph_cache_size") == 3


def test_a_key_mindspore_sends_to_ascend_config(restore_context):
    # MindSpore 2.10 CPU: set_context(precision_mode="x") -> ValueError with these words
    with pytest.raises(ValueError, match=r"^Please set 'precision_mode' through parameter ascend_config$"):
        ms.set_context(precision_mode="x")
