module ${PROJECT}

go 1.26.0

require github.com/pulumi-compute/pulumi-compute/sdks/go v0.1.0

// The module ships in the npm package (npm install pulumi-compute); `go mod tidy` adds the rest.
replace github.com/pulumi-compute/pulumi-compute/sdks/go => ./node_modules/pulumi-compute/sdks/go
