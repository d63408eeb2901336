"""Every reference page's Python example, run as the page has it under ``ComputeMocks``: each
resource kind and data function of the schema, constructed by the page's ```python block
(``docs/reference/<page>.md``, written from the same program as its TypeScript and Pulumi YAML
forms), and answered by the provider plugin as an ``up`` would.

The pages are read from ``PULUMI_COMPUTE_REFERENCE`` (the folder ``docs/reference`` of the
repository; ``test/sdks/python.test.ts`` sets it). Each block runs as a program's ``__main__``;
what it exports (``pulumi.export``) is kept for the test, and every resource it makes must get the
API's id, every output a value.
"""

import gzip
import os
import re
import threading
from pathlib import Path

import pulumi
import pytest

import pulumi_compute as compute
from pulumi_compute.testing import CheckFailedError, ComputeMocks

_REFERENCE = os.environ.get("PULUMI_COMPUTE_REFERENCE", "")


def _pages():
    if not _REFERENCE:
        raise RuntimeError("PULUMI_COMPUTE_REFERENCE must name the repository's docs/reference folder")
    pages = []
    for page in sorted(Path(_REFERENCE).glob("*.md")):
        blocks = re.findall(r"^```python\n(.*?)^```", page.read_text(), re.M | re.S)
        if blocks:
            pages.append(pytest.param(page.name, blocks[0], id=page.stem))
    return pages


class _Recording(ComputeMocks):
    """The mocks, noting the id the plugin answered for each resource of the package."""

    def __init__(self):
        super().__init__()
        self.made: dict = {}
        self._lock = threading.Lock()

    def new_resource(self, args: pulumi.runtime.MockResourceArgs):
        id_, state = super().new_resource(args)
        if args.typ.startswith("compute:index:"):
            with self._lock:
                self.made[f"{args.typ} {args.name}"] = id_
        return id_, state


@pytest.mark.parametrize("page,code", _pages())
def test_the_pages_example_runs_under_the_mocks(page, code, tmp_path, monkeypatch):
    # An image uploaded from a file (`filePath`), relative to the folder the plugin runs in.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "disk.img.gz").write_bytes(gzip.compress(b"\0" * 4096))
    exported: dict = {}
    monkeypatch.setattr(pulumi, "export", lambda name, value: exported.__setitem__(name, value))
    mocks = _Recording()
    try:
        pulumi.runtime.set_mocks(mocks, project="reference", stack="test", preview=False)
        # The disk a page's image is made from, from the stack's config as the page reads it.
        pulumi.runtime.set_all_config({"reference:diskId": str(mocks.environment["diskId"])})

        @pulumi.runtime.test
        def run():
            exec(compile(code, f"docs/reference/{page}", "exec"), {"__name__": "__main__"})
            return pulumi.Output.from_input(exported).apply(_check_outputs)

        run()
    finally:
        mocks.close()
    # Every resource the page makes went through the plugin, and got the API's id.
    assert len(mocks.made) == len(re.findall(r"\bcompute\.[A-Z]\w*\(", code)), mocks.made
    for resource, id_ in mocks.made.items():
        assert id_ and isinstance(id_, str), (resource, id_)


def _check_outputs(outputs):
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
