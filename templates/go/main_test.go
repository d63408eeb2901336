// The program's tests (`go test ./...`), under Pulumi's mocks with the module's compute/testing
// mocks, which answer through pulumi-compute's provider plugin on an emulated account: what an
// `up` against the API would record, in seconds and without the engine.
package main

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"testing"

	computetesting "github.com/pulumi-compute/pulumi-compute/sdks/go/compute/testing"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// withMocks runs body with the program's resources under the mocks.
func withMocks(t *testing.T, body func(app *infra, wg *sync.WaitGroup)) {
	mocks, err := computetesting.NewMocks(computetesting.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer mocks.Close()
	var wg sync.WaitGroup
	err = pulumi.RunErr(func(ctx *pulumi.Context) error {
		app, err := newInfra(ctx)
		if err != nil {
			return err
		}
		body(app, &wg)
		return nil
	}, pulumi.WithMocks("${PROJECT}", "test", mocks))
	if err != nil {
		t.Fatal(err)
	}
	wg.Wait()
}

func TestTheDatabaseHasAHostNameAndPort3306AndAdmitsTheSubnetAndTheApp(t *testing.T) {
	withMocks(t, func(app *infra, wg *sync.WaitGroup) {
		wg.Add(1)
		pulumi.All(app.db.Hosts.Primary(), app.db.Port, app.db.AllowList, app.db.SslConnection).ApplyT(func(v []interface{}) error {
			defer wg.Done()
			if host := v[0].(string); !regexp.MustCompile(`^\S+\.\S+$`).MatchString(host) {
				t.Errorf("hosts.primary %q is not a host name", host)
			}
			if port := v[1].(float64); port != 3306 {
				t.Errorf("port %v, want 3306", port)
			}
			if allow := v[2].([]string); len(allow) != 3 || allow[0] != "10.0.2.0/24" || allow[1] != "10.0.1.11" || allow[2] != "10.0.1.12" {
				t.Errorf("allowList %v, want the data subnet's range and the app's addresses", allow)
			}
			if ssl := v[3].(bool); !ssl {
				t.Error("sslConnection is false, want true")
			}
			return nil
		})
	})
}

func TestTheAppRunsInTheWebSubnetAtItsAddressesBehindTheFirewallEachAtItsName(t *testing.T) {
	withMocks(t, func(app *infra, wg *sync.WaitGroup) {
		if len(app.apps) != 2 || len(app.appRecords) != 2 {
			t.Fatalf("%d instances and %d records, want 2 of each", len(app.apps), len(app.appRecords))
		}
		for n, instance := range app.apps {
			want := appAddresses[n]
			wg.Add(1)
			pulumi.All(instance.Status, instance.VpcIpv4, instance.Ipv4, instance.FirewallId, app.appFirewall.ID(),
				app.appRecords[n].Target, app.appRecords[n].Fqdn).ApplyT(func(v []interface{}) error {
				defer wg.Done()
				if status := v[0].(string); status != "running" {
					t.Errorf("status %q, want running", status)
				}
				if address, _ := v[1].(string); address != want {
					t.Errorf("vpcIpv4 %v, want %s", v[1], want)
				}
				ipv4 := v[2].([]string)
				if len(ipv4) != 1 || !regexp.MustCompile(`^\d+\.\d+\.\d+\.\d+$`).MatchString(ipv4[0]) {
					t.Errorf("ipv4 %v, want one public address", ipv4)
				}
				if firewall := idText(v[3]); firewall != string(v[4].(pulumi.ID)) {
					t.Errorf("firewallId %s, want the firewall's id %s", firewall, v[4])
				}
				if len(ipv4) == 1 && v[5].(string) != ipv4[0] {
					t.Errorf("record target %v, want the instance's public address %s", v[5], ipv4[0])
				}
				if fqdn := fmt.Sprintf("app-%d.app.example", n+1); v[6].(string) != fqdn {
					t.Errorf("record fqdn %v, want %s", v[6], fqdn)
				}
				return nil
			})
		}
	})
}

// idText is an id as the program reads it (a string) or as an output may hold it (a number), as text.
func idText(id interface{}) string {
	if number, ok := id.(float64); ok {
		return strconv.FormatFloat(number, 'f', -1, 64)
	}
	return fmt.Sprint(id)
}

func TestTheRootPasswordIsASecret(t *testing.T) {
	secret := make(chan bool, 1)
	withMocks(t, func(app *infra, _ *sync.WaitGroup) {
		// IsSecret waits for the output: off the program's goroutine, so the run goes on meanwhile.
		go func() { secret <- pulumi.IsSecret(app.db.RootPassword) }()
	})
	if !<-secret {
		t.Error("rootPassword is not secret")
	}
}
