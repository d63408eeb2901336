// Package contract drives the emulator with the official Go client of the original API,
// github.com/linode/linodego, through the client's own methods and waiters, and asserts on what
// the client returns. test/contract/contract.test.ts starts the emulator, seeds what the test
// needs and runs `go test` here; this package is not meant to run on its own.
//
// The spec renames what carries the original provider's name (spec, first paragraph):
// `/linode/instances` is `/compute/instances`, `linode_id` is `compute_id`, the entity and device
// type `linode` is `compute`, the `linodes` lists are `computes`, the busy reason is `Compute busy.`.
// Where the client and the spec disagree the spec wins, and each test says so where it matters.
package contract

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/linode/linodego"
)

// seed is what contract.test.ts seeded through the emulator's control API before running us.
type seed struct {
	// A compute instance with a public IPv4 address, a SLAAC IPv6 address and one disk.
	ComputeID  int    `json:"computeId"`
	Region     string `json:"region"`
	PublicIPv4 string `json:"publicIpv4"`
	SLAAC      string `json:"slaac"`
	DiskID     int    `json:"diskId"`
	// A second instance, for a firewall with two devices.
	OtherComputeID int `json:"otherComputeId"`
}

// env reads a variable the jest wrapper must set; the test fails (never skips) without it.
func env(t *testing.T, name string) string {
	t.Helper()
	value := os.Getenv(name)
	if value == "" {
		t.Fatalf("%s is not set: run this through test/contract/contract.test.ts", name)
	}
	return value
}

// newClient is a linodego client pointed at the emulator the way any user would point it at
// another API host: UseURL sets the scheme, host and version segment (`/v4`).
func newClient(t *testing.T) *linodego.Client {
	t.Helper()
	client := linodego.NewClient(&http.Client{Timeout: 60 * time.Second, Transport: specPaths{}})
	if _, err := client.UseURL(env(t, "CONTRACT_API_URL")); err != nil {
		t.Fatalf("UseURL: %v", err)
	}
	client.SetToken(env(t, "CONTRACT_TOKEN"))
	// The emulator runs its clock fast (CONTRACT_TIME_SCALE), so waiters poll often.
	client.SetPollDelay(50 * time.Millisecond)
	client.SetRetryWaitTime(50 * time.Millisecond)
	client.UseCache(false)
	return &client
}

// specPaths sends the client's `/linode/instances…` and `/linode/types…` requests to the spec's
// `/compute/instances…` and `/compute/types…` (spec, first paragraph); nothing else changes.
type specPaths struct{}

var linodePaths = regexp.MustCompile(`/linode/(instances|types)(/|$)`)

func (specPaths) RoundTrip(r *http.Request) (*http.Response, error) {
	if linodePaths.MatchString(r.URL.Path) {
		r = r.Clone(r.Context())
		r.URL.Path = linodePaths.ReplaceAllString(r.URL.Path, "/compute/$1$2")
		r.URL.RawPath = ""
	}
	return http.DefaultTransport.RoundTrip(r)
}

func readSeed(t *testing.T) seed {
	t.Helper()
	var s seed
	if err := json.Unmarshal([]byte(env(t, "CONTRACT_SEED")), &s); err != nil {
		t.Fatalf("CONTRACT_SEED: %v", err)
	}
	return s
}

func ctxFor(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// must fails the test when err is set, naming what was being done.
func must(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// apiError is the client's own parse of an error answer: its status code and reasons.
func apiError(t *testing.T, what string, err error) *linodego.Error {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: expected an error, got none", what)
	}
	// Most answers come as *linodego.Error; the gateway's HTML 502 as a linodego.Error value.
	var e *linodego.Error
	if errors.As(err, &e) {
		return e
	}
	var v linodego.Error
	if errors.As(err, &v) {
		return &v
	}
	t.Fatalf("%s: not a linodego.Error: %T %v", what, err, err)
	return nil
}

func ptr[T any](v T) *T { return &v }
