"""The program's tests (`venv/bin/pytest`), under Pulumi's mocks with pulumi_compute.testing's
ComputeMocks, which answer through pulumi-compute's provider plugin on an emulated account: what an
`up` against the API would record, in seconds and without the engine."""

import re

import pulumi
from pulumi_compute.testing import ComputeMocks

pulumi.runtime.set_mocks(ComputeMocks(), project="${PROJECT}", stack="test", preview=False)

import infra  # noqa: E402  (imported once the mocks are set, so its resources go to them)


@pulumi.runtime.test
def test_the_database_has_a_host_name_and_port_3306_and_admits_the_subnet_and_the_app():
    def check(values):
        host, port, allow_list, ssl_connection = values
        assert re.fullmatch(r"\S+\.\S+", host), host
        assert port == 3306
        assert allow_list == ["10.0.2.0/24", "10.0.1.11", "10.0.1.12"]
        assert ssl_connection is True

    return pulumi.Output.all(infra.db.hosts.primary, infra.db.port, infra.db.allow_list, infra.db.ssl_connection).apply(check)


@pulumi.runtime.test
def test_the_app_runs_in_the_web_subnet_at_its_addresses_behind_the_firewall_each_at_its_name():
    assert len(infra.apps) == 2 and len(infra.app_records) == 2

    def check(values):
        n, status, vpc_ipv4, ipv4, firewall_id, app_firewall_id, target, fqdn = values
        assert status == "running"
        assert vpc_ipv4 == infra.app_addresses[n - 1]
        assert len(ipv4) == 1 and re.fullmatch(r"\d+\.\d+\.\d+\.\d+", ipv4[0]), ipv4
        assert int(float(firewall_id)) == int(app_firewall_id)
        assert target == ipv4[0]
        assert fqdn == f"app-{n}.app.example"

    return pulumi.Output.all(
        *[
            pulumi.Output.all(
                n, app.status, app.vpc_ipv4, app.ipv4, app.firewall_id, infra.app_firewall.id, record.target, record.fqdn
            ).apply(check)
            for n, (app, record) in enumerate(zip(infra.apps, infra.app_records), start=1)
        ]
    )


@pulumi.runtime.test
def test_the_root_password_is_a_secret():
    async def is_secret():
        return await infra.db.root_password.is_secret()

    def check(secret):
        assert secret is True

    return pulumi.Output.from_input(is_secret()).apply(check)
