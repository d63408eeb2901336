// Command pulumi-language-nodejs starts the Node.js language host with the project's runtime
// options turned into command-line flags.
//
// The host itself (installed beside this wrapper, in ../libexec) is the one in
// github.com/pulumi/pulumi/sdk/v3@v3.68.0, the last release whose module contains it; the module
// proxy serves no later copy. That host reads `typescript`, `tsconfig` and `nodeargs` only as
// flags, while today's CLI starts it with nothing but the engine's address and sends the options
// of Pulumi.yaml over gRPC, which the old host ignores. So a precompiled program with
// `typescript: false` would still be run through ts-node. This wrapper reads the options from the
// project file the CLI is using and passes them as the flags the host understands.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"gopkg.in/yaml.v3"
)

// projectFiles are the names the CLI accepts for a project file, in its order of preference.
var projectFiles = []string{"Pulumi.yaml", "Pulumi.yml", "Pulumi.json"}

type project struct {
	Runtime runtime `yaml:"runtime"`
}

// runtime is `runtime: nodejs` or `runtime: {name: nodejs, options: {...}}`.
type runtime struct {
	Options map[string]any
}

func (r *runtime) UnmarshalYAML(node *yaml.Node) error {
	if node.Kind != yaml.MappingNode {
		return nil // the plain form carries no options
	}
	var full struct {
		Options map[string]any `yaml:"options"`
	}
	if err := node.Decode(&full); err != nil {
		return err
	}
	r.Options = full.Options
	return nil
}

func main() {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		fail("cannot locate itself: %v", err)
	}
	host := filepath.Join(filepath.Dir(exe), "..", "libexec", "pulumi-language-nodejs")
	// Flags first: Go's flag parsing stops at the engine address, the first positional argument.
	args := append([]string{host}, flags(optionsOf(findProject(startDir())))...)
	args = append(args, os.Args[1:]...)
	if err := syscall.Exec(host, args, os.Environ()); err != nil {
		fail("cannot start %s: %v", host, err)
	}
}

// startDir is where the CLI looked for the project: its own working directory (it changes into
// `--cwd` first). The host runs in the directory of the program's `main`, which may lie outside
// the project (`main: ../../dist/…`), so the wrapper's own directory is only the fallback.
func startDir() string {
	if dir, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", os.Getppid())); err == nil {
		return dir
	}
	dir, _ := os.Getwd()
	return dir
}

// findProject walks up from dir to the nearest project file, as the CLI does.
func findProject(dir string) string {
	for dir != "" {
		for _, name := range projectFiles {
			path := filepath.Join(dir, name)
			if info, err := os.Stat(path); err == nil && !info.IsDir() {
				return path
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return ""
}

// optionsOf reads the runtime options of a project file. A file it cannot read yields none: the
// CLI has already loaded it and reports its errors better than this wrapper could.
func optionsOf(path string) map[string]any {
	if path == "" {
		return nil
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var p project
	if yaml.Unmarshal(text, &p) != nil { // YAML is a superset of JSON: Pulumi.json parses too
		return nil
	}
	return p.Runtime.Options
}

// flags maps the options the old host knows to its flags; others (such as `packagemanager`,
// which only matters to `pulumi install`) have no flag and are left out.
func flags(options map[string]any) []string {
	var out []string
	if v, ok := options["typescript"]; ok {
		if b, ok := asBool(v); ok {
			out = append(out, "-typescript="+strconv.FormatBool(b))
		}
	}
	for _, name := range []string{"tsconfig", "nodeargs"} {
		if v, ok := options[name].(string); ok {
			out = append(out, "-"+name+"="+v)
		}
	}
	return out
}

// asBool accepts `false` and the string `"false"`, as the CLI's own option parsing does.
func asBool(v any) (bool, bool) {
	switch b := v.(type) {
	case bool:
		return b, true
	case string:
		parsed, err := strconv.ParseBool(b)
		return parsed, err == nil
	}
	return false, false
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: "+format+"\n", args...)
	os.Exit(1)
}
