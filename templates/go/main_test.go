// The program's tests (`go test ./...`), under Pulumi's mocks with the module's compute/testing
// mocks, which answer through pulumi-compute's provider plugin on an emulated account: what an
// `up` against the API would record, in seconds and without the engine.
package main

import (
	"regexp"
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

func TestTheDatabaseHasAHostNameAndPort3306AndAdmitsTheSubnet(t *testing.T) {
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
			if allow := v[2].([]string); len(allow) != 1 || allow[0] != "10.0.2.0/24" {
				t.Errorf("allowList %v, want the subnet's range", allow)
			}
			if ssl := v[3].(bool); !ssl {
				t.Error("sslConnection is false, want true")
			}
			return nil
		})
	})
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
