"""The README's program in Python: a VPC, a subnet, a MySQL database that accepts connections
from the subnet, and a DNS name for the database's primary host."""

import pulumi
import pulumi_compute as compute

vpc = compute.Vpc("app", label="app-net", region="us-iad")
data = compute.VpcSubnet("data", vpc_id=vpc.id, label="data", ipv4="10.0.2.0/24")
db = compute.MysqlDatabase(
    "db",
    label="app-db",
    region="us-iad",
    type="g6-nanode-1",
    engine_id="mysql/8",
    allow_list=[data.ipv4],
)
zone = compute.Domain("zone", domain="app.example", type="master", soa_email="admin@app.example")
db_name = compute.DomainRecord("db-name", domain_id=zone.id, type="CNAME", name="db", target=db.hosts.primary)

pulumi.export("dbHost", db.hosts.primary)
pulumi.export("dbPort", db.port)
pulumi.export("dbPassword", db.root_password)  # a secret
