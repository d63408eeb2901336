"""Every reference page's example, built with this package's classes and functions under
``ComputeMocks``: each resource kind and data function of the schema, constructed in Python from
the page's Pulumi YAML program (``docs/reference/<page>.md``, the YAML form of the TypeScript
example), and answered by the provider plugin as an ``up`` would.

The pages are read from ``PULUMI_COMPUTE_REFERENCE`` (the folder ``docs/reference`` of the
repository; ``test/sdks/python.test.ts`` sets it). A YAML program becomes Python calls by the
package's own naming: ``compute:index:DomainRecord`` is ``compute.DomainRecord``,
``compute:index:getIps`` is ``compute.get_ips_output``, properties are snake_case keyword
arguments, and ``${zone.id}``, ``${web1[0].computeId}`` read the outputs they name.
"""

import gzip
import os
import re
from pathlib import Path

import pulumi
import pytest
import yaml

import pulumi_compute as compute
from pulumi_compute.testing import CheckFailedError, ComputeMocks

_REFERENCE = os.environ.get("PULUMI_COMPUTE_REFERENCE", "")


def _pages():
    if not _REFERENCE:
        raise RuntimeError("PULUMI_COMPUTE_REFERENCE must name the repository's docs/reference folder")
    pages = []
    for page in sorted(Path(_REFERENCE).glob("*.md")):
        blocks = re.findall(r"^```yaml\n(.*?)^```", page.read_text(), re.M | re.S)
        if blocks:
            pages.append(pytest.param(yaml.safe_load(blocks[0]), id=page.stem))
    return pages


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


_REF = re.compile(r"\$\{([^}]+)\}")
_STEP = re.compile(r"\.(\w+)|\[(\d+)\]|\[\"([^\"]+)\"\]")


class _Program:
    """A Pulumi YAML program, run with the package's classes: what each name stands for."""

    def __init__(self, program: dict, environment: dict):
        self.program = program
        self.environment = environment
        self.names: dict = {}
        # YAML has no order: each name is built when first read, its references before it.
        for section in ("config", "variables", "resources"):
            for key in program.get(section) or {}:
                self.get(key)
        self.outputs = {key: self.value(value) for key, value in (self.program.get("outputs") or {}).items()}

    def get(self, key: str):
        if key not in self.names:
            self.names[key] = self.build(key)
        return self.names[key]

    def build(self, key: str):
        program = self.program
        if key in (program.get("config") or {}):
            # The reference pages read the account's disk by config (`diskId`).
            assert key == "diskId", f"config {key} has no value in the emulated account"
            return self.environment["diskId"]
        if key in (program.get("variables") or {}):
            invoke = program["variables"][key]["fn::invoke"]
            function = getattr(compute, _snake(invoke["function"].split(":")[-1]) + "_output")
            result = function(**{_snake(k): self.value(v) for k, v in (invoke.get("arguments") or {}).items()})
            return getattr(result, invoke["return"]) if invoke.get("return") else result
        spec = program["resources"][key]
        kind = getattr(compute, spec["type"].split(":")[-1])
        options = spec.get("options") or {}
        opts = pulumi.ResourceOptions(depends_on=[self.value(d) for d in options.get("dependsOn", [])])
        args = {_snake(k): self.value(v, nested=True) for k, v in (spec.get("properties") or {}).items()}
        return kind(key, opts=opts, **args)

    def value(self, value, nested: bool = False):
        if isinstance(value, list):
            return [self.value(v, nested) for v in value]
        if isinstance(value, dict):
            # An object input: its keys in the Python names of its type.
            return {(_snake(k) if nested else k): self.value(v, nested) for k, v in value.items()}
        if not isinstance(value, str) or "${" not in value:
            return value
        whole = _REF.fullmatch(value)
        if whole:
            return self.reference(whole.group(1))
        parts = [self.reference(piece) if i % 2 else piece for i, piece in enumerate(_REF.split(value))]
        # YAML's interpolation writes a whole number without a fraction (`64`, not `64.0`).
        return pulumi.Output.all(*parts).apply(lambda values: "".join(_text(v) for v in values))

    def reference(self, text: str):
        name = re.match(r"\w+", text).group(0)
        current = self.get(name)
        for attribute, index, key in _STEP.findall(text[len(name) :]):
            if isinstance(current, pulumi.Resource):
                current = getattr(current, _snake(attribute))
            else:
                step = attribute or key or int(index)
                current = pulumi.Output.from_input(current).apply(lambda v, step=step: _step(v, step))
        return current


def _step(value, step):
    """One step of a reference into a value: an item, a property of an output type, a map's key."""
    if isinstance(step, int):
        return value[step]
    if isinstance(value, dict):
        # A map's key, or an output type's property (a dict of the Python names once lifted).
        for key in (step, _snake(step)):
            if key in value:
                return value[key]
    return getattr(value, _snake(step))


def _text(value) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


@pytest.mark.parametrize("program", _pages())
def test_the_pages_example_runs_under_the_mocks(program, tmp_path, monkeypatch):
    # An image uploaded from a file (`filePath`), relative to the folder the plugin runs in.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "disk.img.gz").write_bytes(gzip.compress(b"\0" * 4096))
    mocks = ComputeMocks()
    try:
        pulumi.runtime.set_mocks(mocks, project="reference", stack="test", preview=False)

        @pulumi.runtime.test
        def run():
            built = _Program(program, mocks.environment)
            resources = [r for r in built.names.values() if isinstance(r, pulumi.CustomResource)]
            return pulumi.Output.all(
                [r.id for r in resources], pulumi.Output.from_input(built.outputs)
            ).apply(lambda values: _check(values, resources))

        run()
    finally:
        mocks.close()


def _check(values, resources):
    ids, outputs = values
    for resource, id_ in zip(resources, ids):
        assert id_ and isinstance(id_, str), (resource, id_)
    for key, value in outputs.items():
        assert value is not None, key


def test_a_preview_creates_nothing_and_refuses_what_up_would_refuse():
    mocks = ComputeMocks(preview=True)
    try:
        pulumi.runtime.set_mocks(mocks, project="preview", stack="test", preview=True)

        @pulumi.runtime.test
        def plan():
            vpc = compute.Vpc("app", label="app-net", region="us-iad")

            async def seen():
                # The checked inputs are shown; the id only the API gives is unknown until `up`.
                return await vpc.id.is_known(), await vpc.label.future()

            return pulumi.Output.from_input(seen()).apply(lambda v: _equal(v, (False, "app-net")))

        plan()

        @pulumi.runtime.test
        def bad_plan():
            bad = compute.Vpc("bad", label="a label with spaces", region="us-iad")
            return bad.urn

        with pytest.raises(CheckFailedError) as refused:
            bad_plan()
        assert [prop for prop, _ in refused.value.failures] == ["label"]
    finally:
        mocks.close()


def _equal(a, b):
    assert a == b, (a, b)
