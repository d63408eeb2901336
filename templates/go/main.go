package main

import (
	"fmt"

	"github.com/pulumi-compute/pulumi-compute/sdks/go/compute"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// appAddresses are the app's instances' addresses in the web subnet: named by the program, so the
// database's allow list names them too and previews are exact.
var appAddresses = []string{"10.0.1.11", "10.0.1.12"}

// infra is the program's resources: a VPC with a data and a web subnet; the app, two instances in
// the web subnet behind a firewall, each with an A record in the zone app.example; and a MySQL
// database that accepts connections, over TLS only, from the data subnet and the app's instances.
type infra struct {
	vpc         *compute.Vpc
	data        *compute.VpcSubnet
	web         *compute.VpcSubnet
	appFirewall *compute.Firewall
	apps        []*compute.Instance
	zone        *compute.Domain
	appRecords  []*compute.DomainRecord
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
	// The app: two instances, each with a public interface behind the firewall and a VPC interface
	// at its address in appAddresses.
	var apps []*compute.Instance
	for n, address := range appAddresses {
		name := fmt.Sprintf("app-%d", n+1)
		app, err := compute.NewInstance(ctx, name, &compute.InstanceArgs{
			Label: pulumi.String(name), Region: pulumi.String("us-iad"), Type: pulumi.String("g6-nanode-1"),
			Image: pulumi.String("public/debian12"),
			// From the stack's secret config in a real program.
			RootPass:   pulumi.String("an-example-root-password"),
			FirewallId: appFirewall.ID(),
			Interfaces: compute.InstanceInterfacesArray{
				&compute.InstanceInterfacesArgs{Purpose: pulumi.String("public")},
				&compute.InstanceInterfacesArgs{
					Purpose: pulumi.String("vpc"), SubnetId: web.ID(),
					Ipv4: &compute.InstanceInterfacesIpv4Args{Vpc: pulumi.String(address)},
				},
			},
		})
		if err != nil {
			return nil, err
		}
		apps = append(apps, app)
	}
	// DNS: each app instance answers at a name of its own, an A record at its public address.
	zone, err := compute.NewDomain(ctx, "zone", &compute.DomainArgs{
		Domain: pulumi.String("app.example"), Type: pulumi.String("master"), SoaEmail: pulumi.String("hostmaster@app.example"),
	})
	if err != nil {
		return nil, err
	}
	var appRecords []*compute.DomainRecord
	for n, app := range apps {
		name := fmt.Sprintf("app-%d", n+1)
		record, err := compute.NewDomainRecord(ctx, name, &compute.DomainRecordArgs{
			DomainId: zone.ID(), Type: pulumi.String("A"), Name: pulumi.String(name), Target: app.Ipv4.Index(pulumi.Int(0)),
			TtlSec: pulumi.Float64(300),
		})
		if err != nil {
			return nil, err
		}
		appRecords = append(appRecords, record)
	}
	allowList := pulumi.StringArray{data.Ipv4}
	for _, address := range appAddresses {
		allowList = append(allowList, pulumi.String(address))
	}
	db, err := compute.NewMysqlDatabase(ctx, "db", &compute.MysqlDatabaseArgs{
		Label: pulumi.String("app-db"), Region: pulumi.String("us-iad"), Type: pulumi.String("g6-nanode-1"),
		EngineId: pulumi.String("mysql/8"),
		// TLS only (the API records an absent value as false; changing it later replaces the database).
		SslConnection: pulumi.Bool(true),
		AllowList:     allowList,
	})
	if err != nil {
		return nil, err
	}
	return &infra{
		vpc: vpc, data: data, web: web, appFirewall: appFirewall, apps: apps, zone: zone, appRecords: appRecords, db: db,
	}, nil
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
