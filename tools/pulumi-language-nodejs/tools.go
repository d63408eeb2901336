//go:build tools

// The language host's own main package, named here so `go mod tidy` keeps its dependencies. The
// setup builds it to ../libexec beside the wrapper (main.go). No Pulumi source is copied.
package main

import _ "github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs"
