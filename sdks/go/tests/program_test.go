// The README's program under Pulumi's Go mocks, answered by pulumi-compute's provider plugin
// (compute/testing): what the API would record, not the program's inputs.
package tests

import (
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/pulumi-compute/pulumi-compute/sdks/go/compute"
	computetesting "github.com/pulumi-compute/pulumi-compute/sdks/go/compute/testing"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// program is the README's program: a VPC, a subnet, a MySQL database that accepts connections
// from the subnet, and a DNS name for the database's primary host.
type program struct {
	vpc    *compute.Vpc
	subnet *compute.VpcSubnet
	db     *compute.MysqlDatabase
	record *compute.DomainRecord
}

func (p *program) run(ctx *pulumi.Context) error {
	var err error
	if p.vpc, err = compute.NewVpc(ctx, "app", &compute.VpcArgs{Label: pulumi.String("app-net"), Region: pulumi.String("us-iad")}); err != nil {
		return err
	}
	if p.subnet, err = compute.NewVpcSubnet(ctx, "data", &compute.VpcSubnetArgs{
		VpcId: p.vpc.ID(), Label: pulumi.String("data"), Ipv4: pulumi.String("10.0.2.0/24"),
	}); err != nil {
		return err
	}
	if p.db, err = compute.NewMysqlDatabase(ctx, "db", &compute.MysqlDatabaseArgs{
		Label: pulumi.String("app-db"), Region: pulumi.String("us-iad"), Type: pulumi.String("g6-nanode-1"),
		EngineId: pulumi.String("mysql/8"), AllowList: pulumi.StringArray{p.subnet.Ipv4},
	}); err != nil {
		return err
	}
	zone, err := compute.NewDomain(ctx, "zone", &compute.DomainArgs{
		Domain: pulumi.String("app.example"), Type: pulumi.String("master"), SoaEmail: pulumi.String("admin@app.example"),
	})
	if err != nil {
		return err
	}
	if p.record, err = compute.NewDomainRecord(ctx, "db-name", &compute.DomainRecordArgs{
		DomainId: zone.ID(), Type: pulumi.String("CNAME"), Name: pulumi.String("db"), Target: p.db.Hosts.Primary(),
	}); err != nil {
		return err
	}
	ctx.Export("dbHost", p.db.Hosts.Primary())
	ctx.Export("dbPort", p.db.Port)
	ctx.Export("dbPassword", p.db.RootPassword)
	return nil
}

func mocks(t *testing.T) *computetesting.Mocks {
	m, err := computetesting.NewMocks(computetesting.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	return m
}

func TestProgramAnswersAsTheAPIDoes(t *testing.T) {
	p := &program{}
	var wg sync.WaitGroup
	err := pulumi.RunErr(func(ctx *pulumi.Context) error {
		if err := p.run(ctx); err != nil {
			return err
		}
		wg.Add(1)
		pulumi.All(p.vpc.ID(), p.db.ID(), p.db.Hosts.Primary(), p.db.Port, p.db.Status, p.db.AllowList, p.record.Target, p.record.Fqdn).
			ApplyT(func(v []interface{}) error {
				defer wg.Done()
				digits := regexp.MustCompile(`^\d+$`)
				if id := string(v[0].(pulumi.ID)); !digits.MatchString(id) {
					t.Errorf("VPC id %q is not the API's", id)
				}
				if id := string(v[1].(pulumi.ID)); !digits.MatchString(id) {
					t.Errorf("database id %q is not the API's", id)
				}
				primary := v[2].(string)
				if !strings.Contains(primary, ".") {
					t.Errorf("hosts.primary %q is not a host name", primary)
				}
				if port := v[3].(float64); port != 3306 {
					t.Errorf("port %v, want 3306", port)
				}
				if status := v[4].(string); status != "active" {
					t.Errorf("status %q, want active", status)
				}
				if allow := v[5].([]string); len(allow) != 1 || allow[0] != "10.0.2.0/24" {
					t.Errorf("allowList %v, want the subnet's range", allow)
				}
				if target := v[6].(string); target != primary {
					t.Errorf("record target %q, want the primary host %q", target, primary)
				}
				if fqdn := v[7].(string); fqdn != "db.app.example" {
					t.Errorf("record fqdn %q", fqdn)
				}
				return nil
			})
		wg.Add(1)
		p.db.RootPassword.ToStringOutput().ApplyT(func(password string) error {
			defer wg.Done()
			if len(password) < 8 {
				t.Errorf("root password %q too short", password)
			}
			return nil
		})
		return nil
	}, pulumi.WithMocks("my-infra", "test", mocks(t)))
	if err != nil {
		t.Fatal(err)
	}
	wg.Wait()
}

func TestRootPasswordIsSecret(t *testing.T) {
	p := &program{}
	secret := make(chan bool, 1)
	err := pulumi.RunErr(func(ctx *pulumi.Context) error {
		if err := p.run(ctx); err != nil {
			return err
		}
		// IsSecret waits for the output: off the program's goroutine, so the run goes on meanwhile.
		go func() { secret <- pulumi.IsSecret(p.db.RootPassword) }()
		return nil
	}, pulumi.WithMocks("my-infra", "test", mocks(t)))
	if err != nil {
		t.Fatal(err)
	}
	if !<-secret {
		t.Error("rootPassword is not secret")
	}
}

func TestARefusedInputIsRefused(t *testing.T) {
	err := pulumi.RunErr(func(ctx *pulumi.Context) error {
		_, err := compute.NewMysqlDatabase(ctx, "bad", &compute.MysqlDatabaseArgs{
			Label: pulumi.String("bad-db"), Region: pulumi.String("us-iad"), Type: pulumi.String("g6-nanode-1"),
			EngineId: pulumi.String("mysql/8.0.99"),
		})
		return err
	}, pulumi.WithMocks("my-infra", "test", mocks(t)))
	if err == nil || !strings.Contains(err.Error(), "engineId") {
		t.Fatalf("want a refusal naming engineId, got %v", err)
	}
}

func TestDataFunctionsAskTheSameAccount(t *testing.T) {
	m := mocks(t)
	if len(m.Environment.ComputeIDs) != 2 || m.Environment.DiskID == 0 {
		t.Errorf("the account's environment: %+v", m.Environment)
	}
	err := pulumi.RunErr(func(ctx *pulumi.Context) error {
		regions, err := compute.GetRegions(ctx, &compute.GetRegionsArgs{})
		if err != nil {
			return err
		}
		for _, r := range regions.Items {
			if r.Id == "us-iad" {
				return nil
			}
		}
		t.Errorf("us-iad not among %d regions", len(regions.Items))
		return nil
	}, pulumi.WithMocks("my-infra", "test", m))
	if err != nil {
		t.Fatal(err)
	}
}
