"""The README's program in Python: a VPC, a subnet, a MySQL database that accepts connections
from the subnet and the app, and a DNS name for the database's primary host; the app: an instance
in a web subnet behind a firewall, at a VPC address the program names, with a DNS name of its own."""

import pulumi
import pulumi_compute as compute

vpc = compute.Vpc("app", label="app-net", region="us-iad")
data = compute.VpcSubnet("data", vpc_id=vpc.id, label="data", ipv4="10.0.2.0/24")
web = compute.VpcSubnet("web", vpc_id=vpc.id, label="web", ipv4="10.0.1.0/24")
app_firewall = compute.Firewall(
    "app-fw",
    label="app-fw",
    inbound_policy="DROP",
    outbound_policy="ACCEPT",
    inbound=[
        {
            "label": "allow-web",
            "action": "ACCEPT",
            "protocol": "TCP",
            "ports": "80, 443",
            "addresses": {"ipv4": ["0.0.0.0/0"], "ipv6": ["::/0"]},
        },
    ],
)
app_address = "10.0.1.11"  # the app's VPC address, named so the allow list is known at preview
app = compute.Instance(
    "app-1",
    label="app-1",
    region="us-iad",
    type="g6-nanode-1",
    image="public/debian12",
    root_pass="an-example-root-password",  # from the stack's secret config in a real program
    firewall_id=app_firewall.id,
    interfaces=[{"purpose": "public"}, {"purpose": "vpc", "subnet_id": web.id, "ipv4": {"vpc": app_address}}],
)
db = compute.MysqlDatabase(
    "db",
    label="app-db",
    region="us-iad",
    type="g6-nanode-1",
    engine_id="mysql/8",
    allow_list=[data.ipv4, app_address],
)
zone = compute.Domain("zone", domain="app.example", type="master", soa_email="admin@app.example")
db_name = compute.DomainRecord("db-name", domain_id=zone.id, type="CNAME", name="db", target=db.hosts.primary)
app_name = compute.DomainRecord(
    "app-1", domain_id=zone.id, type="A", name="app-1", target=app.ipv4.apply(lambda addresses: addresses[0])
)

pulumi.export("dbHost", db.hosts.primary)
pulumi.export("dbPort", db.port)
pulumi.export("dbPassword", db.root_password)  # a secret
