"""What the Python template's program registers under ComputeMocks (each resource's type, name and
inputs), written to $PC_REGISTERED for test/sdks/templates.test.ts, which runs the compute-guardrails
policies on it: the engine runs the pack at preview, which a Python program reaches only through a
language host. Run by pytest from the project's folder, beside its own tests, not as one of them."""

import json
import os
import sys
import threading

import pulumi
from pulumi_compute.testing import ComputeMocks

registered = []
lock = threading.Lock()


class RecordingMocks(ComputeMocks):
    def new_resource(self, args):
        with lock:
            registered.append({"type": args.typ, "name": args.name, "inputs": args.inputs})
        return super().new_resource(args)


pulumi.runtime.set_mocks(RecordingMocks(), project=os.environ["PC_PROJECT"], stack="dev", preview=False)
sys.path.insert(0, os.getcwd())

import infra  # noqa: E402  (the project's program, once the mocks are set)


@pulumi.runtime.test
def test_record_what_the_program_registers():
    def write(_):
        with open(os.environ["PC_REGISTERED"], "w") as out:
            json.dump(registered, out)

    return pulumi.Output.all(
        infra.vpc.id,
        infra.data.id,
        infra.web.id,
        infra.app_firewall.id,
        *[app.id for app in infra.apps],
        infra.zone.id,
        *[record.id for record in infra.app_records],
        infra.db.id,
    ).apply(write)
