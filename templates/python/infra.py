"""A VPC, a subnet, and a MySQL database that accepts connections from the subnet, over TLS only."""

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
    ssl_connection=True,  # TLS only (the API records an absent value as false; changing it later replaces the database)
    allow_list=[data.ipv4],
)

pulumi.export("dbHost", db.hosts.primary)
pulumi.export("dbPort", db.port)
pulumi.export("dbPassword", db.root_password)  # a secret
