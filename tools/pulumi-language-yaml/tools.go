//go:build tools

// The YAML language host's main package (github.com/pulumi/pulumi-yaml v1.38.1,
// cmd/pulumi-language-yaml), named here so `go mod tidy` keeps its dependencies. The setup builds
// it beside `pulumi`. No Pulumi source is copied.
package tools

import _ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
