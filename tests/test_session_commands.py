"""The session's typed commands, handled pure: each names its permit command (one the table decides) and
turns into its events; what the command alone can refuse is refused with the form field."""
import pytest

from companion.domain.errors import RuleError
from companion.permit import COMMANDS, SESSION_COMMANDS, command_name
from companion.session_commands import AddPlayer, MarkPaid, RenameSession, ReplaceLink, SetBanker, Undo, handle

ALL = [RenameSession(" Friday "), AddPlayer("Zoe"), Undo(2, 7), SetBanker("Ane"), SetBanker(None),
       MarkPaid("Ane", "Bea", 350), MarkPaid("Ane", "Bea", 350, paid=False), ReplaceLink()]


@pytest.mark.parametrize("cmd", ALL, ids=repr)
def test_every_command_is_named_in_the_permission_table(cmd):
    assert command_name(cmd) in COMMANDS
    assert (command_name(cmd) in SESSION_COMMANDS) == (not isinstance(cmd, Undo))


def test_each_command_is_its_events():
    assert handle(RenameSession(" Friday ")).steps == [("rename", {"name": "Friday"})]
    assert handle(AddPlayer("Zoe")).steps == [("add_player", {"name": "Zoe"})]
    assert handle(Undo(2, 7)).steps == [("undo", {"game": 2, "target": 7})]
    assert handle(SetBanker("")).steps == [("banker", {"banker": None})]
    assert handle(MarkPaid("Ane", "Bea", 350, paid=False)).steps == [
        ("paid", {"payment": {"from": "Ane", "to": "Bea", "amount": 350}, "paid": False})]
    assert handle(ReplaceLink()).steps == []


@pytest.mark.parametrize("cmd,field", [(RenameSession(""), "name"), (AddPlayer("a\u202eb"), "name"),
                                       (MarkPaid("Ane", "Bea", None), "paid"), (MarkPaid("Ane", "Bea", 0), "paid"),
                                       (MarkPaid("Ane", "Bea", True), "paid")])
def test_what_the_command_alone_refuses(cmd, field):
    with pytest.raises(RuleError) as err:
        handle(cmd)
    assert err.value.path == field


def test_commands_are_frozen():
    with pytest.raises(AttributeError):
        AddPlayer("Zoe").name = "Ane"
    with pytest.raises(TypeError):
        handle({"type": "rename"})


def test_every_typed_command_class_names_a_command_of_the_table():
    import dataclasses
    import inspect

    from companion import session_commands
    from companion.club import commands as club

    classes = [c for mod in (session_commands, club) for _, c in inspect.getmembers(mod, inspect.isclass)
               if dataclasses.is_dataclass(c) and c.__module__ == mod.__name__ and "command" in vars(c)]
    assert len(classes) >= 13
    assert all(c.command in COMMANDS for c in classes), [c.__name__ for c in classes if c.command not in COMMANDS]
