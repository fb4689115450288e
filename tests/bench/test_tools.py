"""The mock tool registry: valid schemas, strict validation, deterministic simulated results."""

from __future__ import annotations

import subprocess
import sys

import pytest
from jsonschema import Draft202012Validator

from ibachat.agent.execution.tools import (
    DOMAINS,
    REGISTRY,
    Tool,
    as_task_tool,
    confirmation_id,
    execute,
    get_tool,
    tools_for,
)
from ibachat.errors import IbachatError

FOOD = {"restaurant": "Thai Basil", "items": ["green curry"], "spice_level": "hot", "texture": "soft"}


def test_registry_covers_the_domains_with_valid_strict_schemas():
    assert len(REGISTRY) >= 16
    assert {t.domain for t in REGISTRY.values()} == set(DOMAINS)
    for tool in REGISTRY.values():
        assert isinstance(tool, Tool) and tool.name and tool.description
        Draft202012Validator.check_schema(tool.parameters)
        params = tool.parameters
        assert params["type"] == "object" and params["additionalProperties"] is False
        assert set(params["required"]) <= set(params["properties"])
        for name, prop in params["properties"].items():
            if prop.get("type") in ("integer", "number") and "enum" not in prop:
                assert "minimum" in prop and "maximum" in prop, f"{tool.name}.{name} has no bounds"
            if "default" in prop:  # a default must itself be a valid value
                assert not list(Draft202012Validator(prop).iter_errors(prop["default"])), (
                    f"{tool.name}.{name}"
                )


@pytest.mark.parametrize(
    ("tool", "param", "values"),
    [
        ("order_food", "spice_level", ["none", "mild", "medium", "hot"]),
        ("order_food", "texture", ["soft", "regular", "crunchy"]),
        ("book_flight", "seat", ["any", "window", "aisle", "middle"]),
        ("book_flight", "cabin", ["economy", "premium_economy", "business", "first"]),
        ("order_coffee", "caffeine", ["regular", "decaf", "half_caf"]),
    ],
)
def test_categorical_parameters_are_meaningful_enums(tool, param, values):
    assert REGISTRY[tool].parameters["properties"][param]["enum"] == values


def test_get_tool_names_close_matches_for_a_typo():
    assert get_tool("book_flight").name == "book_flight"
    with pytest.raises(IbachatError) as err:
        get_tool("book_fligt")
    message = str(err.value)
    assert "book_flight" in message and "\n" not in message
    with pytest.raises(IbachatError, match="known tools"):
        get_tool("zzzz")


def test_tools_for_filters_by_domain_and_rejects_unknown_domains():
    assert [t.name for t in tools_for()] == sorted(REGISTRY)
    medical = tools_for("medical")
    assert medical and all(t.domain == "medical" for t in medical)
    with pytest.raises(IbachatError, match="unknown domain"):
        tools_for("gardening")


def test_execute_returns_a_deterministic_confirmation_and_logs_the_call():
    log: list = []
    first = execute("order_food", dict(FOOD), log=log)
    second = execute("order_food", dict(FOOD))
    other = execute("order_food", {**FOOD, "spice_level": "mild"})
    assert first["status"] == "confirmed" and first["confirmation"] == second["confirmation"]
    assert first["confirmation"] != other["confirmation"]
    assert first["confirmation"] == confirmation_id("order_food", FOOD)
    assert log == [{"name": "order_food", "arguments": FOOD, "result": first}]
    drafted = execute("send_email", {"to": "Priya", "subject": "Hi", "body": "Hello", "mode": "draft"})
    assert drafted["status"] == "drafted"


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({**FOOD, "spice_level": "volcanic"}, "invalid spice_level: 'volcanic' is not one of"),
        ({**FOOD, "colour": "red"}, "'colour' was unexpected"),
        ({"items": ["soup"]}, "'restaurant' is a required property"),
        ({**FOOD, "tip_percent": 45}, "invalid tip_percent: 45 is greater than the maximum of 30"),
        ({**FOOD, "items": []}, "invalid items"),
        ({**FOOD, "dietary": ["paleo"]}, "invalid dietary.0"),
    ],
)
def test_execute_rejects_bad_arguments_with_one_clear_line(arguments, expected):
    log: list = []
    with pytest.raises(IbachatError) as err:
        execute("order_food", arguments, log=log)
    assert expected in str(err.value) and "\n" not in str(err.value)
    assert log == []  # nothing recorded for a rejected call


def test_execute_checks_formats_and_argument_type():
    with pytest.raises(IbachatError, match="invalid date"):
        execute("book_flight", {"origin": "LHR", "destination": "Rome", "date": "2025-13-40"})
    with pytest.raises(IbachatError, match="must be a JSON object"):
        execute("book_flight", ["LHR"])  # type: ignore[arg-type]


def test_as_task_tool_is_a_copy_in_the_task_shape():
    item = as_task_tool(get_tool("set_reminder"))
    assert set(item) == {"name", "description", "parameters"}
    item["parameters"]["properties"].clear()
    assert REGISTRY["set_reminder"].parameters["properties"]


def test_importing_tools_loads_no_validator_or_heavy_module():
    code = "import sys, ibachat.agent.execution.tools; print(sorted(m for m in ('jsonschema', 'torch', 'bench') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
