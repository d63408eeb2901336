// Every reference page's Go example under Pulumi's Go mocks (pulumi.WithMocks) with the SDK's
// compute/testing mocks, which answer through pulumi-compute's provider plugin as an `up` would.
//
// test/sdks/go.test.ts writes this package in a module of its own: each page's ```go block as
// <page>.go, as the page has it but for three words (`package main` is this package, `func main`
// is the page's function, `pulumi.Run` is run below), and pages_test.go, the list of pages with
// how many resources each makes.
package examples

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	computetesting "github.com/pulumi-compute/pulumi-compute/sdks/go/compute/testing"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// page is one reference page's example.
type page struct {
	name string
	// main is the page's main function, which gives its program to run.
	main func()
	// resources is how many of the package's resources the program makes.
	resources int
}

// captured is the program the last page's main gave to run.
var captured pulumi.RunFunc

// run stands for pulumi.Run in the pages' programs: it keeps the program for the test to run.
func run(body pulumi.RunFunc, _ ...pulumi.RunOption) { captured = body }

// recording is the mocks, noting each resource the plugin made and the id it answered.
type recording struct {
	*computetesting.Mocks
	mu   sync.Mutex
	made map[string]string
}

func (r *recording) NewResource(args pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	id, state, err := r.Mocks.NewResource(args)
	if err == nil && strings.HasPrefix(args.TypeToken, "compute:index:") {
		r.mu.Lock()
		r.made[args.TypeToken+" "+args.Name] = id
		r.mu.Unlock()
	}
	return id, state, err
}

func TestReferenceExamples(t *testing.T) {
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) { runPage(t, p) })
	}
}

func runPage(t *testing.T, p page) {
	mocks, err := computetesting.NewMocks(computetesting.Options{Project: "reference", Stack: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = mocks.Close() }()
	// The disk a page's image is made from, from the stack's config as the page reads it.
	t.Setenv("PULUMI_CONFIG", fmt.Sprintf(`{"reference:diskId":"%d"}`, mocks.Environment.DiskID))
	captured = nil
	p.main()
	if captured == nil {
		t.Fatal("the page's main gave no program to pulumi.Run")
	}
	rec := &recording{Mocks: mocks, made: map[string]string{}}
	var names []string
	resolved := make(chan []interface{}, 1)
	err = pulumi.RunErr(func(ctx *pulumi.Context) error {
		if err := captured(ctx); err != nil {
			return err
		}
		exports := ctx.GetCurrentExportMap()
		for name := range exports {
			names = append(names, name)
		}
		sort.Strings(names)
		values := make([]interface{}, len(names))
		for i, name := range names {
			values[i] = exports[name]
		}
		pulumi.All(values...).ApplyT(func(v []interface{}) error {
			resolved <- v
			return nil
		})
		return nil
	}, pulumi.WithMocks("reference", "test", rec))
	if err != nil {
		t.Fatal(err)
	}
	var values []interface{}
	select {
	case values = <-resolved:
	case <-time.After(2 * time.Minute):
		t.Fatalf("the outputs %v never resolved", names)
	}
	for i, v := range values {
		if v == nil || (reflect.ValueOf(v).Kind() == reflect.Ptr && reflect.ValueOf(v).IsNil()) {
			t.Errorf("output %s has no value", names[i])
		}
	}
	if len(rec.made) != p.resources {
		t.Errorf("the plugin made %d resources (%v), the page makes %d", len(rec.made), rec.made, p.resources)
	}
	for name, id := range rec.made {
		if id == "" {
			t.Errorf("%s has no id", name)
		}
	}
}
