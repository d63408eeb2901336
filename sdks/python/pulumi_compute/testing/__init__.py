"""Pulumi mocks whose answers are what an ``up`` against the API records.

``ComputeMocks`` is a ``pulumi.runtime.Mocks`` for ``pulumi.runtime.set_mocks``. Each of the
package's resources goes through pulumi-compute's provider plugin itself, over its gRPC protocol:
the plugin's Check (what a preview refuses is refused, with the engine's message) and Create,
against an emulated account the plugin serves (``pulumi-resource-compute --mocks``: the emulator in
the plugin's process, seeded with two instances, a disk and a nodebalancer, on a clock that only
the provider's waits move). A test therefore sees ids in the API's form, ``hosts.primary``, ``port``,
secret outputs kept secret, and the API's refusals, rather than its own inputs back. Data functions
ask the same account. Other providers' resources and functions go to ``fallback``.

The plugin is the one a project names in its ``Pulumi.yaml`` (``plugins: providers:``, the installed
npm package ``pulumi-compute``'s ``plugins/`` folder); it needs Node.js 24 on ``PATH``.

Example::

    import pulumi
    from pulumi_compute.testing import ComputeMocks

    pulumi.runtime.set_mocks(ComputeMocks(), project="my-infra", stack="test", preview=False)
    import __main__  # then load the program, and assert on its outputs
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Optional

import grpc
import pulumi
import yaml
from google.protobuf import struct_pb2
from pulumi.runtime import rpc
from pulumi.runtime.proto import provider_pb2, provider_pb2_grpc

__all__ = ["ComputeMocks", "CheckFailedError", "find_plugins"]

_PREFIX = "compute:index:"
_LAUNCHER = "pulumi-resource-compute"


class CheckFailedError(Exception):
    """The plugin's Check refused a resource's inputs, as ``pulumi preview`` refuses them.

    ``failures`` holds each failure as ``(property, reason)``, the property empty for the resource
    as a whole; the message has one line per failure, in the engine's words.
    """

    def __init__(self, typ: str, name: str, failures: list[tuple[str, str]]):
        self.type = typ
        self.resource_name = name
        self.failures = failures
        lines = [
            f"{typ} resource '{name}': property {prop} has a problem: {reason}"
            if prop
            else f"{typ} resource '{name}' has a problem: {reason}"
            for prop, reason in failures
        ]
        super().__init__("\n".join(lines))


def find_plugins(start: Optional[str] = None) -> Path:
    """The ``plugins/`` folder of the installed ``pulumi-compute`` package.

    In order: ``PULUMI_COMPUTE_PLUGINS``; the ``compute`` entry of ``plugins: providers:`` in the
    nearest ``Pulumi.yaml`` (as the engine reads it); ``node_modules/pulumi-compute/plugins`` in
    the folder or a parent.
    """
    named = os.environ.get("PULUMI_COMPUTE_PLUGINS")
    if named:
        return _checked(Path(named), "PULUMI_COMPUTE_PLUGINS")
    here = Path(start or os.getcwd()).resolve()
    for folder in [here, *here.parents]:
        project = folder / "Pulumi.yaml"
        if project.is_file():
            text = yaml.safe_load(project.read_text()) or {}
            for entry in ((text.get("plugins") or {}).get("providers") or []):
                if entry.get("name") == "compute" and entry.get("path"):
                    return _checked(folder / entry["path"], f"plugins: providers: in {project}")
        candidate = folder / "node_modules" / "pulumi-compute" / "plugins"
        if (candidate / _LAUNCHER).is_file():
            return candidate
    raise FileNotFoundError(
        "pulumi_compute.testing needs pulumi-compute's provider plugin: install the npm package "
        "(npm install pulumi-compute) and name its plugins/ folder in Pulumi.yaml "
        "(plugins: providers: - name: compute, path: node_modules/pulumi-compute/plugins), "
        "or set PULUMI_COMPUTE_PLUGINS to that folder"
    )


def _checked(folder: Path, where: str) -> Path:
    if not (folder / _LAUNCHER).is_file():
        raise FileNotFoundError(f"{where} names {folder}, which has no {_LAUNCHER}")
    return folder


class _Plugin:
    """``pulumi-resource-compute --mocks``, running until the test process ends or ``close``."""

    def __init__(self, plugins: Path):
        if shutil.which("node") is None:
            raise FileNotFoundError("pulumi-compute's provider plugin needs Node.js 24 (`node` on PATH)")
        self._log = tempfile.TemporaryFile()
        self._process = subprocess.Popen(
            [str(plugins / _LAUNCHER), "--mocks"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
        )
        assert self._process.stdout is not None
        line = self._process.stdout.readline().decode().strip()
        if not line.isdigit():
            self._process.wait(timeout=10)
            self._log.seek(0)
            raise RuntimeError(f"{_LAUNCHER} --mocks did not start: {self._log.read().decode().strip()}")
        # The second line: what the account holds (the instances, nodebalancer and disk it was seeded with).
        self.environment = json.loads(self._process.stdout.readline().decode())["environment"]
        self.channel = grpc.insecure_channel(f"127.0.0.1:{line}")
        self.stub = provider_pb2_grpc.ResourceProviderStub(self.channel)
        atexit.register(self.close)

    def close(self) -> None:
        if self._process.poll() is None:
            self.channel.close()
            assert self._process.stdin is not None
            self._process.stdin.close()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()


class _DocumentedMocks(pulumi.runtime.Mocks):
    """Pulumi's documented example mocks: outputs are the inputs, ids ``<name>_id``."""

    def new_resource(self, args: pulumi.runtime.MockResourceArgs):
        return (f"{args.name}_id" if args.custom else None), args.inputs

    def call(self, args: pulumi.runtime.MockCallArgs):
        return args.args


class ComputeMocks(pulumi.runtime.Mocks):
    """Mocks that answer through pulumi-compute's provider plugin against an emulated account.

    :param plugins: the ``plugins/`` folder of the installed ``pulumi-compute`` npm package
        (default: ``find_plugins()``).
    :param fallback: the mocks of every other provider (default: Pulumi's documented example mocks).
    :param preview: answer as a preview does (a create shows its checked inputs, the id and what
        only the API computes unknown, nothing created); give the same as to ``set_mocks``, since
        Pulumi calls the mocks on a thread of its own, where ``is_dry_run()`` does not reach.
    """

    def __init__(
        self, plugins: Optional[str] = None, fallback: Optional[pulumi.runtime.Mocks] = None, preview: bool = False
    ):
        self._plugin = _Plugin(Path(plugins) if plugins else find_plugins())
        self._fallback = fallback or _DocumentedMocks()
        self._preview = preview

    @property
    def environment(self) -> dict:
        """What the emulated account holds besides what the program makes: ``computeIds`` (two
        instances with public addresses in ``us-iad``), ``nodebalancerId`` and ``diskId`` (the
        first instance's disk), as ``compute-emulator --demo-environment`` seeds them."""
        return self._plugin.environment

    def close(self) -> None:
        """Stops the plugin (it stops by itself when the test process ends)."""
        self._plugin.close()

    def new_resource(self, args: pulumi.runtime.MockResourceArgs):
        if not args.custom or not args.typ.startswith(_PREFIX):
            return self._fallback.new_resource(args)
        stub = self._plugin.stub
        # The plugin reads the type and the name of a URN, not its stack or project.
        urn = f"urn:pulumi:test::test::{args.typ}::{args.name}"
        values, secrets = _program_inputs(args.inputs)
        if args.resource_id:
            # `Vpc.get(name, id)`: a read of an existing object, as the engine's read step makes it.
            read = _rpc(stub.Read, provider_pb2.ReadRequest(id=args.resource_id, urn=urn, type=args.typ, name=args.name, properties=_struct(values)))
            if not read.id:
                raise LookupError(f"{args.typ} resource '{args.name}': no object {args.resource_id}")
            return read.id, _state(read.properties, secrets)
        checked = _rpc(
            stub.Check,
            provider_pb2.CheckRequest(urn=urn, type=args.typ, name=args.name, olds=struct_pb2.Struct(), news=_struct(values)),
        )
        if checked.failures:
            raise CheckFailedError(args.typ, args.name, [(f.property, f.reason) for f in checked.failures])
        if self._preview:
            # A preview's create shows the checked inputs; what only the API computes is unknown until `up`.
            return None, _state(checked.inputs, secrets)
        created = _rpc(stub.Create, provider_pb2.CreateRequest(urn=urn, type=args.typ, name=args.name, properties=checked.inputs))
        return created.id, _state(created.properties, secrets)

    def call(self, args: pulumi.runtime.MockCallArgs):
        if not args.token.startswith(_PREFIX):
            return self._fallback.call(args)
        values, _ = _program_inputs(args.args)
        answer = _rpc(self._plugin.stub.Invoke, provider_pb2.InvokeRequest(tok=args.token, args=_struct(values)))
        failures = [(f.property, f.reason) for f in answer.failures]
        return rpc.deserialize_properties(getattr(answer, "return")), failures


def _rpc(method: Any, request: Any) -> Any:
    try:
        return method(request)
    except grpc.RpcError as error:
        # The engine's message (in the program's names), not gRPC's envelope.
        raise RuntimeError(error.details()) from None


def _program_inputs(raw: dict) -> tuple[dict, set[str]]:
    """The inputs as the plugin receives them (plain values), and which of them were secret."""
    values: dict = {}
    secrets: set[str] = set()
    for key, value in (raw or {}).items():
        if rpc.is_rpc_secret(value):
            secrets.add(key)
            value = rpc.unwrap_rpc_secret(value)
        values[key] = value
    return values, secrets


def _struct(values: dict) -> struct_pb2.Struct:
    out = struct_pb2.Struct()
    out.update({k: v for k, v in values.items() if v is not None})
    return out


def _state(properties: struct_pb2.Struct, secret_inputs: set[str]) -> dict:
    """Outputs as the engine records them: the plugin's secrets, and outputs named like a secret input, secret."""
    state = rpc.deserialize_properties(properties)
    for key in secret_inputs:
        if key in state and not rpc.is_rpc_secret(state[key]):
            state[key] = rpc.wrap_rpc_secret(state[key])
    return state
