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
        assert allow_list == ["10.0.2.0/24", "10.0.1.11"]
        assert ssl_connection is True

    return pulumi.Output.all(infra.db.hosts.primary, infra.db.port, infra.db.allow_list, infra.db.ssl_connection).apply(check)


@pulumi.runtime.test
def test_the_app_runs_in_the_web_subnet_at_its_address_behind_the_firewall():
    def check(values):
        status, vpc_ipv4, ipv4, firewall_id, app_firewall_id = values
        assert status == "running"
        assert vpc_ipv4 == "10.0.1.11"
        assert len(ipv4) == 1 and re.fullmatch(r"\d+\.\d+\.\d+\.\d+", ipv4[0]), ipv4
        assert int(float(firewall_id)) == int(app_firewall_id)

    return pulumi.Output.all(
        infra.app.status, infra.app.vpc_ipv4, infra.app.ipv4, infra.app.firewall_id, infra.app_firewall.id
    ).apply(check)


@pulumi.runtime.test
def test_the_root_password_is_a_secret():
    async def is_secret():
        return await infra.db.root_password.is_secret()

    def check(secret):
        assert secret is True

    return pulumi.Output.from_input(is_secret()).apply(check)
