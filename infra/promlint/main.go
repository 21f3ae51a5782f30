// promlint: what `promtool check metrics` does (with its default lint), alone: the exposition on stdin is parsed
// and linted by client_golang's promlint, the very package promtool calls; each problem on stderr as promtool
// prints it, exit 3 when there are problems, 1 when the input does not parse. Built by infra/bootstrap.mjs from the
// Go module proxy: all of promtool (Prometheus' whole module) took 19 minutes and 1.8 GB of modules to build here,
// this takes seconds.
package main

import (
	"fmt"
	"os"

	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
)

func main() {
	problems, err := promlint.New(os.Stdin).Lint()
	if err != nil {
		fmt.Fprintln(os.Stderr, "error while linting:", err)
		os.Exit(1)
	}
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, p.Metric, p.Text)
	}
	if len(problems) > 0 {
		os.Exit(3)
	}
}
