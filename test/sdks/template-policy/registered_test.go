// What the Go template's program registers under the compute/testing mocks (each resource's type,
// name and inputs), written to $PC_REGISTERED for test/sdks/templates.test.ts, which runs the
// compute-guardrails policies on it: the engine runs the pack at preview, which a Go program
// reaches only through a language host. Copied into the project's folder beside its own tests.
package main

import (
	"encoding/json"
	"os"
	"sync"
	"testing"

	computetesting "github.com/pulumi-compute/pulumi-compute/sdks/go/compute/testing"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

type recordingMocks struct {
	*computetesting.Mocks
	lock       sync.Mutex
	registered []map[string]interface{}
}

func (r *recordingMocks) NewResource(args pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	r.lock.Lock()
	r.registered = append(r.registered, map[string]interface{}{"type": args.TypeToken, "name": args.Name, "inputs": args.Inputs.Mappable()})
	r.lock.Unlock()
	return r.Mocks.NewResource(args)
}

func TestRecordWhatTheProgramRegisters(t *testing.T) {
	out := os.Getenv("PC_REGISTERED")
	if out == "" {
		t.Fatal("PC_REGISTERED names no file")
	}
	mocks, err := computetesting.NewMocks(computetesting.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer mocks.Close()
	recording := &recordingMocks{Mocks: mocks}
	err = pulumi.RunErr(func(ctx *pulumi.Context) error {
		_, err := newInfra(ctx)
		return err
	}, pulumi.WithMocks(os.Getenv("PC_PROJECT"), "dev", recording))
	if err != nil {
		t.Fatal(err)
	}
	text, err := json.Marshal(recording.registered)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, text, 0o644); err != nil {
		t.Fatal(err)
	}
}
