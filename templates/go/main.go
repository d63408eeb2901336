package main

import (
	"github.com/pulumi-compute/pulumi-compute/sdks/go/compute"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// infra is the program's resources: a VPC, a subnet, and a MySQL database that accepts
// connections from the subnet, over TLS only.
type infra struct {
	vpc  *compute.Vpc
	data *compute.VpcSubnet
	db   *compute.MysqlDatabase
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
	db, err := compute.NewMysqlDatabase(ctx, "db", &compute.MysqlDatabaseArgs{
		Label: pulumi.String("app-db"), Region: pulumi.String("us-iad"), Type: pulumi.String("g6-nanode-1"),
		EngineId: pulumi.String("mysql/8"),
		// TLS only (the API records an absent value as false; changing it later replaces the database).
		SslConnection: pulumi.Bool(true),
		AllowList:     pulumi.StringArray{data.Ipv4},
	})
	if err != nil {
		return nil, err
	}
	return &infra{vpc: vpc, data: data, db: db}, nil
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
