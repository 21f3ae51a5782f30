// compose-check loads a Compose file the way `docker compose config` does (compose-go: the Compose specification's
// schema, interpolation, merge keys, depends_on and the rest of its checks) and prints the resolved project, so the
// compose file is validated where no Docker CLI with the compose plugin is installed. deploy/check.sh builds and runs it.
//
//	compose-check deploy/compose.yaml
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: compose-check <compose file>")
		os.Exit(2)
	}
	options, err := cli.NewProjectOptions([]string{os.Args[1]}, cli.WithOsEnv, cli.WithConsistency(true), cli.WithResolvedPaths(true))
	if err != nil {
		fail(err)
	}
	project, err := options.LoadProject(context.Background())
	if err != nil {
		fail(err)
	}
	out, err := project.MarshalYAML()
	if err != nil {
		fail(err)
	}
	os.Stdout.Write(out)
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "compose-check: %v\n", err)
	os.Exit(1)
}
