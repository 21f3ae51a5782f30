// rules-check validates Prometheus rule files as `promtool check rules` does (the rule file format, and every
// expression parsed as PromQL), for deploy/helm/folio/files/prometheus-rules.yaml. promtool itself takes about 19 minutes and
// 1.8 GB of modules to build on a 2-core machine; this is its rule-file check alone. deploy/check.sh builds and runs it.
//
//	rules-check deploy/helm/folio/files/prometheus-rules.yaml
package main

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: rules-check <rule file>...")
		os.Exit(2)
	}
	failed := false
	for _, file := range os.Args[1:] {
		groups, errs := rulefmt.ParseFile(file, false, model.UTF8Validation, parser.NewParser(parser.Options{}), slog.Default())
		for _, err := range errs {
			fmt.Fprintf(os.Stderr, "rules-check: %v\n", err)
			failed = true
		}
		if groups != nil {
			rules := 0
			for _, g := range groups.Groups {
				rules += len(g.Rules)
			}
			fmt.Printf("%s: %d groups, %d rules\n", file, len(groups.Groups), rules)
		}
	}
	if failed {
		os.Exit(1)
	}
}
