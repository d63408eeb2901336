package main

import (
	"github.com/pulumi-compute/pulumi-compute/sdks/go/compute"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// appAddress is the app's address in the web subnet: named by the program, so the database's allow
// list names it too and previews are exact.
const appAddress = "10.0.1.11"

// infra is the program's resources: a VPC with a data and a web subnet; the app, an instance in the
// web subnet behind a firewall; and a MySQL database that accepts connections, over TLS only, from
// the data subnet and the app.
type infra struct {
	vpc         *compute.Vpc
	data        *compute.VpcSubnet
	web         *compute.VpcSubnet
	appFirewall *compute.Firewall
	app         *compute.Instance
	db          *compute.MysqlDatabase
}

func newInfra(ctx *pulumi.Context) (*infra, error) {
	vpc, err := compute.NewVpc(ctx, "app", &compute.VpcArgs{Label: pulumi.String("app-net"), Region: pulumi.String("us-iad")})
	if err != nil {
		return nil, err
	}
	data, err := compute.NewVpcSubnet(ctx, "data", &compute.VpcSubnetArgs{
		VpcId: vpc.ID(), Label: pulumi.String("data"), Ipv4: pulumi.String("10.0.2.0/24"),
	})
	if err != nil {
		return nil, err
	}
	web, err := compute.NewVpcSubnet(ctx, "web", &compute.VpcSubnetArgs{
		VpcId: vpc.ID(), Label: pulumi.String("web"), Ipv4: pulumi.String("10.0.1.0/24"),
	})
	if err != nil {
		return nil, err
	}
	// The app's firewall: web from everyone, everything else dropped.
	appFirewall, err := compute.NewFirewall(ctx, "app-fw", &compute.FirewallArgs{
		Label: pulumi.String("app-fw"), InboundPolicy: pulumi.String("DROP"), OutboundPolicy: pulumi.String("ACCEPT"),
		Inbound: compute.FirewallInboundArray{
			&compute.FirewallInboundArgs{
				Label: pulumi.String("allow-web"), Action: pulumi.String("ACCEPT"), Protocol: pulumi.String("TCP"),
				Ports: pulumi.String("80, 443"),
				Addresses: &compute.FirewallInboundAddressesArgs{
					Ipv4: pulumi.StringArray{pulumi.String("0.0.0.0/0")}, Ipv6: pulumi.StringArray{pulumi.String("::/0")},
				},
			},
		},
	})
	if err != nil {
		return nil, err
	}
	// The app: a public interface behind the firewall, and a VPC interface at appAddress.
	app, err := compute.NewInstance(ctx, "app-1", &compute.InstanceArgs{
		Label: pulumi.String("app-1"), Region: pulumi.String("us-iad"), Type: pulumi.String("g6-nanode-1"),
		Image: pulumi.String("public/debian12"),
		// From the stack's secret config in a real program.
		RootPass:   pulumi.String("an-example-root-password"),
		FirewallId: appFirewall.ID(),
		Interfaces: compute.InstanceInterfacesArray{
			&compute.InstanceInterfacesArgs{Purpose: pulumi.String("public")},
			&compute.InstanceInterfacesArgs{
				Purpose: pulumi.String("vpc"), SubnetId: web.ID(),
				Ipv4: &compute.InstanceInterfacesIpv4Args{Vpc: pulumi.String(appAddress)},
			},
		},
	})
	if err != nil {
		return nil, err
	}
	db, err := compute.NewMysqlDatabase(ctx, "db", &compute.MysqlDatabaseArgs{
		Label: pulumi.String("app-db"), Region: pulumi.String("us-iad"), Type: pulumi.String("g6-nanode-1"),
		EngineId: pulumi.String("mysql/8"),
		// TLS only (the API records an absent value as false; changing it later replaces the database).
		SslConnection: pulumi.Bool(true),
		AllowList:     pulumi.StringArray{data.Ipv4, pulumi.String(appAddress)},
	})
	if err != nil {
		return nil, err
	}
	return &infra{vpc: vpc, data: data, web: web, appFirewall: appFirewall, app: app, db: db}, nil
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		app, err := newInfra(ctx)
		if err != nil {
			return err
		}
		ctx.Export("dbHost", app.db.Hosts.Primary())
		ctx.Export("dbPort", app.db.Port)
		ctx.Export("dbPassword", app.db.RootPassword) // a secret
		return nil
	})
}
