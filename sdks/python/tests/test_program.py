"""The README's program under Pulumi's Python mocks, answered by pulumi-compute's provider plugin
(``pulumi_compute.testing.ComputeMocks``): what the API would record, not the program's inputs."""

import re
from pathlib import Path

import pulumi
import pytest

from pulumi_compute.testing import CheckFailedError, ComputeMocks

pulumi.runtime.set_mocks(ComputeMocks(), project="my-infra", stack="test", preview=False)

import program  # noqa: E402  (the mocks are set before the program runs)
import pulumi_compute as compute  # noqa: E402


@pulumi.runtime.test
def test_ids_are_the_apis():
    def check(ids):
        vpc_id, subnet_id, db_id = ids
        assert re.fullmatch(r"\d+", vpc_id), vpc_id
        assert re.fullmatch(r"\d+", subnet_id), subnet_id
        assert re.fullmatch(r"\d+", db_id), db_id

    return pulumi.Output.all(program.vpc.id, program.data.id, program.db.id).apply(check)


@pulumi.runtime.test
def test_database_answers_hosts_and_port_as_the_api_does():
    def check(values):
        primary, port, status, allow_list = values
        assert re.fullmatch(r"[a-z0-9-]+(\.[a-z0-9-]+)+", primary), primary
        assert port == 3306
        assert status == "active"
        assert allow_list == ["10.0.2.0/24", "10.0.1.11"]

    return pulumi.Output.all(program.db.hosts.primary, program.db.port, program.db.status, program.db.allow_list).apply(check)


@pulumi.runtime.test
def test_record_reads_the_primary_host():
    return pulumi.Output.all(program.db_name.target, program.db.hosts.primary, program.db_name.fqdn).apply(
        lambda v: (_equal(v[0], v[1]), _equal(v[2], "db.app.example"))
    )


@pulumi.runtime.test
def test_the_app_runs_at_its_addresses_behind_its_firewall_and_answers_at_its_name():
    def check(values):
        status, vpc_ipv4, ipv4, firewall_id, firewall, target, fqdn = values
        assert status == "running"
        assert vpc_ipv4 == "10.0.1.11"
        assert len(ipv4) == 1 and re.fullmatch(r"\d+\.\d+\.\d+\.\d+", ipv4[0]), ipv4
        assert int(float(firewall_id)) == int(firewall)
        _equal(target, ipv4[0])
        _equal(fqdn, "app-1.app.example")

    return pulumi.Output.all(
        program.app.status,
        program.app.vpc_ipv4,
        program.app.ipv4,
        program.app.firewall_id,
        program.app_firewall.id,
        program.app_name.target,
        program.app_name.fqdn,
    ).apply(check)


@pulumi.runtime.test
def test_root_password_is_secret():
    async def secret():
        return await program.db.root_password.is_secret()

    def check(password):
        assert isinstance(password, str) and len(password) >= 8

    return pulumi.Output.from_input(secret()).apply(lambda is_secret: _equal(is_secret, True)).apply(
        lambda _: program.db.root_password.apply(check)
    )


def test_a_refused_input_is_refused():
    @pulumi.runtime.test
    def a_database_of_an_engine_that_does_not_exist():
        bad = compute.MysqlDatabase("bad", label="bad-db", region="us-iad", type="g6-nanode-1", engine_id="mysql/8.0.99")
        return bad.id

    with pytest.raises(CheckFailedError) as refused:
        a_database_of_an_engine_that_does_not_exist()
    assert [prop for prop, _ in refused.value.failures] == ["engineId"]
    assert "compute:index:MysqlDatabase resource 'bad': property engineId has a problem" in str(refused.value)


@pulumi.runtime.test
def test_data_functions_ask_the_same_account():
    regions = compute.get_regions()
    assert any(r.id == "us-iad" for r in regions.items), [r.id for r in regions.items]


def test_the_package_is_the_installed_wheel():
    # Not a copy beside the tests: the package pip installed, with its type information.
    root = Path(compute.__file__).parent
    assert "site-packages" in root.parts, root
    assert (root / "py.typed").is_file() and (root / "pulumi-plugin.json").is_file()


def _equal(a, b):
    assert a == b, (a, b)
