// sdkgen writes the Python and Go SDKs of the provider plugin's schema with Pulumi's own code
// generators (pkg/v3 codegen/python and codegen/go, at the engine's version), the way
// `pulumi package gen-sdk` would if the language hosts it delegates to could be built here.
//
//	sdkgen [--check] <schema.json> <python-dir> <go-dir>
//
// Each folder holds the generated files and the files written by hand beside them (the mocks, the
// tests, the Go module's go.mod and go.sum: keptPaths). A generation writes every generated file
// and removes a file no longer generated; --check writes nothing and fails naming each file that
// differs, is missing or is left over, so a test holds the committed SDKs to a fresh generation.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// The Go module the SDK is (sdks/go/go.mod says the same), and the PyPI release of Pulumi's Python
// SDK at the engine's version, the oldest the package is tested with.
const (
	goModule       = "github.com/pulumi-compute/pulumi-compute/sdks/go"
	pythonPulumi   = ">=3.259.0,<4.0.0"
	generatorLabel = "pulumi-compute sdkgen"
)

// Language options the schema leaves to each SDK; kept here so the schema stays the provider's.
var languages = map[string]any{
	"python": map[string]any{
		"packageName":          "pulumi_compute",
		"requires":             map[string]string{"pulumi": pythonPulumi},
		"pyproject":            map[string]any{"enabled": true},
		"respectSchemaVersion": true,
		"readme":               pythonReadme,
	},
	"go": map[string]any{
		"importBasePath":       goModule + "/compute",
		"respectSchemaVersion": true,
	},
}

const pythonReadme = `The Python SDK of pulumi-compute: resources and data functions for the compute cloud's REST API v4.

The resources are served by pulumi-compute's provider plugin, a Node.js program (Node 24) shipped in
the npm package ` + "`pulumi-compute`" + `; a project names its ` + "`plugins/`" + ` folder in Pulumi.yaml:

    plugins:
      providers:
        - name: compute
          path: node_modules/pulumi-compute/plugins

Unit tests run under Pulumi's mocks with ` + "`pulumi_compute.testing.ComputeMocks`" + `, which answer through the
plugin against an emulated account. See docs/guides/python.md in the repository.
`

// Files written by hand inside the SDK folders, which a generation neither writes nor removes.
var keptPaths = map[string][]string{
	"python": {"README.md", "pulumi_compute/testing/", "tests/"},
	"go":     {"go.mod", "go.sum", "compute/testing/", "tests/"},
}

func main() {
	args := os.Args[1:]
	check := len(args) > 0 && args[0] == "--check"
	if check {
		args = args[1:]
	}
	if len(args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: sdkgen [--check] <schema.json> <python-dir> <go-dir>")
		os.Exit(64)
	}
	if err := run(check, args[0], map[string]string{"python": args[1], "go": args[2]}); err != nil {
		fmt.Fprintln(os.Stderr, "sdkgen:", err)
		os.Exit(1)
	}
}

func run(check bool, schemaPath string, dirs map[string]string) error {
	generated := map[string]map[string][]byte{}
	for _, language := range []string{"python", "go"} {
		// Each generator imports its language's options into the package it is given: one package each.
		pkg, err := bind(schemaPath)
		if err != nil {
			return err
		}
		var files map[string][]byte
		if language == "python" {
			files, err = pygen.GeneratePackage(generatorLabel, pkg, nil, noPackages{})
		} else {
			files, err = gogen.GeneratePackage(generatorLabel, pkg, nil)
		}
		if err != nil {
			return fmt.Errorf("generating the %s SDK: %w", language, err)
		}
		generated[language] = files
	}
	var problems []string
	for _, language := range []string{"python", "go"} {
		found, err := sync(check, dirs[language], generated[language], keptPaths[language])
		if err != nil {
			return err
		}
		problems = append(problems, found...)
	}
	if len(problems) > 0 {
		return fmt.Errorf("the SDKs are not what %s generates (run `npm run generate`):\n  %s", schemaPath, strings.Join(problems, "\n  "))
	}
	return nil
}

func bind(schemaPath string) (*schema.Package, error) {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return nil, fmt.Errorf("reading %s: %w", schemaPath, err)
	}
	spec.Language = map[string]schema.RawMessage{}
	for name, options := range languages {
		raw, err := json.Marshal(options)
		if err != nil {
			return nil, err
		}
		spec.Language[name] = raw
	}
	pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
	if err != nil {
		return nil, fmt.Errorf("binding %s: %w", schemaPath, err)
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("binding %s: %s", schemaPath, diags.Error())
	}
	return pkg, nil
}

// sync makes dir hold exactly files besides its kept paths; with check, it only reports the differences.
func sync(check bool, dir string, files map[string][]byte, kept []string) ([]string, error) {
	var problems []string
	isKept := func(rel string) bool {
		for _, k := range kept {
			if rel == k || (strings.HasSuffix(k, "/") && strings.HasPrefix(rel, k)) {
				return true
			}
		}
		return false
	}
	var leftovers []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if os.IsNotExist(err) {
			return nil
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			// Build output and caches of the tests, ignored by git.
			if d.Name() == "__pycache__" || d.Name() == ".pytest_cache" || strings.HasSuffix(d.Name(), ".egg-info") || rel == "build" || rel == "dist" {
				return filepath.SkipDir
			}
			return nil
		}
		if _, ok := files[rel]; !ok && !isKept(rel) {
			leftovers = append(leftovers, rel)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, rel := range leftovers {
		if check {
			problems = append(problems, filepath.Join(dir, rel)+": not generated any more")
		} else if err := os.Remove(filepath.Join(dir, rel)); err != nil {
			return nil, err
		}
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(dir, filepath.FromSlash(name))
		have, err := os.ReadFile(path)
		if err == nil && bytes.Equal(have, files[name]) {
			continue
		}
		if check {
			if err != nil {
				problems = append(problems, path+": missing")
			} else {
				problems = append(problems, path+": differs")
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return nil, err
		}
	}
	return problems, nil
}

// noPackages is the loader of a schema that refers to no other package: asked for one, it says so.
type noPackages struct{}

func (noPackages) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %s; it should refer to no other package", name)
}

func (l noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, nil)
}

func (l noPackages) LoadPackageReference(name string, v *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("the schema refers to package %s; it should refer to no other package", name)
}

func (l noPackages) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, nil)
}
