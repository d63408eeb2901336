"""A VPC with a data and a web subnet; the app, two instances in the web subnet behind a firewall,
each with an A record in the zone app.example; and a MySQL database that accepts connections, over
TLS only, from the data subnet and the app's instances."""

import pulumi
import pulumi_compute as compute

vpc = compute.Vpc("app", label="app-net", region="us-iad")
data = compute.VpcSubnet("data", vpc_id=vpc.id, label="data", ipv4="10.0.2.0/24")
web = compute.VpcSubnet("web", vpc_id=vpc.id, label="web", ipv4="10.0.1.0/24")

# The app's firewall: web from everyone, everything else dropped.
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
# The app: two instances, each with a public interface behind the firewall and a VPC interface at
# an address the program names (the database's allow list names them too, so previews are exact).
app_addresses = ["10.0.1.11", "10.0.1.12"]
apps = [
    compute.Instance(
        f"app-{n}",
        label=f"app-{n}",
        region="us-iad",
        type="g6-nanode-1",
        image="public/debian12",
        root_pass="an-example-root-password",  # from the stack's secret config in a real program
        firewall_id=app_firewall.id,
        interfaces=[{"purpose": "public"}, {"purpose": "vpc", "subnet_id": web.id, "ipv4": {"vpc": address}}],
    )
    for n, address in enumerate(app_addresses, start=1)
]
# DNS: each app instance answers at a name of its own, an A record at its public address.
zone = compute.Domain("zone", domain="app.example", type="master", soa_email="hostmaster@app.example")
app_records = [
    compute.DomainRecord(
        f"app-{n}",
        domain_id=zone.id,
        type="A",
        name=f"app-{n}",
        target=app.ipv4.apply(lambda addresses: addresses[0]),
        ttl_sec=300,
    )
    for n, app in enumerate(apps, start=1)
]
db = compute.MysqlDatabase(
    "db",
    label="app-db",
    region="us-iad",
    type="g6-nanode-1",
    engine_id="mysql/8",
    ssl_connection=True,  # TLS only (the API records an absent value as false; changing it later replaces the database)
    allow_list=[data.ipv4, *app_addresses],
)

pulumi.export("dbHost", db.hosts.primary)
pulumi.export("dbPort", db.port)
pulumi.export("dbPassword", db.root_password)  # a secret
