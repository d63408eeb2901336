// Package testing offers Pulumi mocks (pulumi.WithMocks) whose answers are what an `up` against
// the API records.
//
// Each of the package's resources goes through pulumi-compute's provider plugin itself, over its
// gRPC protocol: the plugin's Check (what a preview refuses is refused, with the engine's message)
// and Create, against an emulated account the plugin serves (`pulumi-resource-compute --mocks`:
// the emulator in the plugin's process, seeded with two instances, a disk and a nodebalancer, on a
// clock that only the provider's waits move). A test therefore sees ids in the API's form,
// `hosts.primary`, `port`, secret outputs kept secret and the API's refusals, rather than its own
// inputs back. Data functions ask the same account; other providers' resources go to a fallback.
//
// The plugin is the one a project names in its Pulumi.yaml (`plugins: providers:`, the installed
// npm package pulumi-compute's plugins/ folder); it needs Node.js 24 on PATH.
//
//	mocks, err := computetesting.NewMocks(computetesting.Options{})
//	defer mocks.Close()
//	err = pulumi.RunErr(program, pulumi.WithMocks("my-infra", "test", mocks))
package testing

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"
	"gopkg.in/yaml.v3"
)

const (
	typePrefix = "compute:index:"
	launcher   = "pulumi-resource-compute"
)

// Options of NewMocks.
type Options struct {
	// Plugins is the plugins/ folder of the installed pulumi-compute npm package (default: FindPlugins).
	Plugins string
	// Fallback answers every other provider's resources and functions (default: Pulumi's documented
	// example mocks: outputs are the inputs, ids `<name>_id`).
	Fallback pulumi.MockResourceMonitor
	// Project and Stack name the URNs the plugin sees (default: my-infra, test).
	Project, Stack string
	// Preview answers as a preview does: a create shows its checked inputs, nothing is created.
	Preview bool
}

// Environment is what the emulated account holds besides what the program makes, as
// `compute-emulator --demo-environment` seeds it.
type Environment struct {
	// ComputeIDs are two instances with public addresses in us-iad.
	ComputeIDs []int `json:"computeIds"`
	// NodebalancerID is a nodebalancer in us-iad.
	NodebalancerID int `json:"nodebalancerId"`
	// DiskID is the first instance's disk.
	DiskID int `json:"diskId"`
}

// Mocks answer through pulumi-compute's provider plugin against an emulated account.
type Mocks struct {
	// Environment is what the account holds before the program runs.
	Environment Environment
	options     Options
	process     *exec.Cmd
	conn        *grpc.ClientConn
	client      pulumirpc.ResourceProviderClient
}

// CheckFailedError is the plugin's Check refusing a resource's inputs, as `pulumi preview` does.
type CheckFailedError struct {
	Type, Name string
	// Failures are each input refused (Property empty for the resource as a whole) and why.
	Failures []*pulumirpc.CheckFailure
}

func (e *CheckFailedError) Error() string {
	lines := make([]string, 0, len(e.Failures))
	for _, f := range e.Failures {
		if f.Property == "" {
			lines = append(lines, fmt.Sprintf("%s resource '%s' has a problem: %s", e.Type, e.Name, f.Reason))
		} else {
			lines = append(lines, fmt.Sprintf("%s resource '%s': property %s has a problem: %s", e.Type, e.Name, f.Property, f.Reason))
		}
	}
	return strings.Join(lines, "\n")
}

// NewMocks starts the plugin (`pulumi-resource-compute --mocks`); Close stops it.
func NewMocks(options Options) (*Mocks, error) {
	if options.Plugins == "" {
		found, err := FindPlugins("")
		if err != nil {
			return nil, err
		}
		options.Plugins = found
	}
	if options.Project == "" {
		options.Project = "my-infra"
	}
	if options.Stack == "" {
		options.Stack = "test"
	}
	if _, err := exec.LookPath("node"); err != nil {
		return nil, errors.New("pulumi-compute's provider plugin needs Node.js 24 (`node` on PATH)")
	}
	cmd := exec.Command(filepath.Join(options.Plugins, launcher), "--mocks")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s --mocks: %w", launcher, err)
	}
	// The plugin keeps its stdin open while it should run; closing it (Close, or the test's end) stops it.
	_ = stdin
	lines := bufio.NewReader(stdout)
	port, err := lines.ReadString('\n')
	port = strings.TrimSpace(port)
	if err != nil || port == "" {
		_ = cmd.Wait()
		return nil, fmt.Errorf("%s --mocks did not start: %s", launcher, strings.TrimSpace(stderr.String()))
	}
	// The second line: what the account holds.
	var held struct {
		Environment Environment `json:"environment"`
	}
	line, err := lines.ReadString('\n')
	if err == nil {
		err = json.Unmarshal([]byte(line), &held)
	}
	if err != nil {
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("%s --mocks: reading its account: %w", launcher, err)
	}
	conn, err := grpc.NewClient("127.0.0.1:"+port, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		_ = cmd.Process.Kill()
		return nil, err
	}
	return &Mocks{Environment: held.Environment, options: options, process: cmd, conn: conn, client: pulumirpc.NewResourceProviderClient(conn)}, nil
}

// Close stops the plugin.
func (m *Mocks) Close() error {
	_ = m.conn.Close()
	_ = m.process.Process.Kill()
	_ = m.process.Wait()
	return nil
}

// NewResource answers the package's resources through the plugin's Check and Create (a read, with
// an ID, through its Read), and any other resource through the fallback.
func (m *Mocks) NewResource(args pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	if !args.Custom || !strings.HasPrefix(args.TypeToken, typePrefix) {
		return m.fallback().NewResource(args)
	}
	ctx := context.Background()
	urn := fmt.Sprintf("urn:pulumi:%s::%s::%s::%s", m.options.Stack, m.options.Project, args.TypeToken, args.Name)
	values, secrets := programInputs(args.Inputs)
	news, err := marshal(values)
	if err != nil {
		return "", nil, err
	}
	if args.ID != "" {
		read, err := m.client.Read(ctx, &pulumirpc.ReadRequest{Id: args.ID, Urn: urn, Type: args.TypeToken, Name: args.Name, Properties: news})
		if err != nil {
			return "", nil, engineError(err)
		}
		if read.Id == "" {
			return "", nil, fmt.Errorf("%s resource '%s': no object %s", args.TypeToken, args.Name, args.ID)
		}
		state, err := outputs(read.Properties, secrets)
		return read.Id, state, err
	}
	checked, err := m.client.Check(ctx, &pulumirpc.CheckRequest{Urn: urn, Type: args.TypeToken, Name: args.Name, News: news})
	if err != nil {
		return "", nil, engineError(err)
	}
	if len(checked.Failures) > 0 {
		return "", nil, &CheckFailedError{Type: args.TypeToken, Name: args.Name, Failures: checked.Failures}
	}
	if m.options.Preview {
		state, err := outputs(checked.Inputs, secrets)
		return "", state, err
	}
	created, err := m.client.Create(ctx, &pulumirpc.CreateRequest{Urn: urn, Type: args.TypeToken, Name: args.Name, Properties: checked.Inputs})
	if err != nil {
		return "", nil, engineError(err)
	}
	state, err := outputs(created.Properties, secrets)
	return created.Id, state, err
}

// Call answers the package's data functions through the plugin's Invoke, any other through the fallback.
func (m *Mocks) Call(args pulumi.MockCallArgs) (resource.PropertyMap, error) {
	if !strings.HasPrefix(args.Token, typePrefix) {
		return m.fallback().Call(args)
	}
	values, _ := programInputs(args.Args)
	request, err := marshal(values)
	if err != nil {
		return nil, err
	}
	answer, err := m.client.Invoke(context.Background(), &pulumirpc.InvokeRequest{Tok: args.Token, Args: request})
	if err != nil {
		return nil, engineError(err)
	}
	if len(answer.Failures) > 0 {
		return nil, &CheckFailedError{Type: args.Token, Name: args.Token, Failures: answer.Failures}
	}
	return outputs(answer.Return, nil)
}

func (m *Mocks) fallback() pulumi.MockResourceMonitor {
	if m.options.Fallback != nil {
		return m.options.Fallback
	}
	return documentedMocks{}
}

// documentedMocks are Pulumi's documented example mocks: outputs are the inputs, ids `<name>_id`.
type documentedMocks struct{}

func (documentedMocks) NewResource(args pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	return args.Name + "_id", args.Inputs, nil
}

func (documentedMocks) Call(args pulumi.MockCallArgs) (resource.PropertyMap, error) {
	return args.Args, nil
}

// programInputs are the inputs as the plugin receives them (plain), and which of them were secret.
func programInputs(inputs resource.PropertyMap) (resource.PropertyMap, map[resource.PropertyKey]bool) {
	values := resource.PropertyMap{}
	secrets := map[resource.PropertyKey]bool{}
	for key, value := range inputs {
		if value.IsSecret() {
			secrets[key] = true
			value = value.SecretValue().Element
		}
		values[key] = value
	}
	return values, secrets
}

func marshal(values resource.PropertyMap) (*structpb.Struct, error) {
	return plugin.MarshalProperties(values, plugin.MarshalOptions{KeepUnknowns: true, SkipNulls: true})
}

// outputs are the plugin's answer as the engine records it: its secrets, and outputs named like a secret input, secret.
func outputs(properties *structpb.Struct, secretInputs map[resource.PropertyKey]bool) (resource.PropertyMap, error) {
	state, err := plugin.UnmarshalProperties(properties, plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true})
	if err != nil {
		return nil, err
	}
	for key := range secretInputs {
		if value, ok := state[key]; ok && !value.IsSecret() {
			state[key] = resource.MakeSecret(value)
		}
	}
	return state, nil
}

// engineError is the engine's message (in the program's names), not gRPC's envelope.
func engineError(err error) error {
	if s, ok := status.FromError(err); ok {
		return errors.New(s.Message())
	}
	return err
}

// FindPlugins finds the plugins/ folder of the installed pulumi-compute package: PULUMI_COMPUTE_PLUGINS;
// the `compute` entry of `plugins: providers:` in the nearest Pulumi.yaml (as the engine reads it);
// node_modules/pulumi-compute/plugins in the folder (default: the working directory) or a parent.
func FindPlugins(start string) (string, error) {
	if named := os.Getenv("PULUMI_COMPUTE_PLUGINS"); named != "" {
		return checked(named, "PULUMI_COMPUTE_PLUGINS")
	}
	if start == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		start = wd
	}
	folder, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	for {
		project := filepath.Join(folder, "Pulumi.yaml")
		if text, err := os.ReadFile(project); err == nil {
			var parsed struct {
				Plugins struct {
					Providers []struct{ Name, Path string } `yaml:"providers"`
				} `yaml:"plugins"`
			}
			if err := yaml.Unmarshal(text, &parsed); err != nil {
				return "", fmt.Errorf("reading %s: %w", project, err)
			}
			for _, p := range parsed.Plugins.Providers {
				if p.Name == "compute" && p.Path != "" {
					path := p.Path
					if !filepath.IsAbs(path) {
						path = filepath.Join(folder, path)
					}
					return checked(path, "plugins: providers: in "+project)
				}
			}
		}
		candidate := filepath.Join(folder, "node_modules", "pulumi-compute", "plugins")
		if _, err := os.Stat(filepath.Join(candidate, launcher)); err == nil {
			return candidate, nil
		}
		parent := filepath.Dir(folder)
		if parent == folder {
			break
		}
		folder = parent
	}
	return "", errors.New("compute/testing needs pulumi-compute's provider plugin: install the npm package " +
		"(npm install pulumi-compute) and name its plugins/ folder in Pulumi.yaml " +
		"(plugins: providers: - name: compute, path: node_modules/pulumi-compute/plugins), " +
		"or set PULUMI_COMPUTE_PLUGINS to that folder")
}

func checked(folder, where string) (string, error) {
	if _, err := os.Stat(filepath.Join(folder, launcher)); err != nil {
		return "", fmt.Errorf("%s names %s, which has no %s", where, folder, launcher)
	}
	return folder, nil
}
