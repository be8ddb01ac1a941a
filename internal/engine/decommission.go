package engine

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/program"
)

// checkDecommission enforces the explicit decommission path in Production:
// a service the last deployment ran may leave the catalog only if that
// deployment already had it retired (its trigger disabled). Otherwise
// removing a catalog entry would silently delete a Production pipeline.
//
// It runs before the engine, from the stack's last outputs, rather than in
// the program: a stack reference of the program to its own stack would be
// refreshed, and its outputs change with every up, so the drift check
// would never be quiet.
func (s *Session) checkDecommission(ctx context.Context, stack auto.Stack, st *catalog.Stack, preview bool) error {
	if !st.IsProduction() {
		return nil
	}
	outs, err := stack.Outputs(ctx)
	if err != nil {
		return err
	}
	var current []string
	for _, d := range s.Catalog.Deployments(st) {
		current = append(current, d.Service.Name)
	}
	removed := RemovedWithoutRetiring(outputList(outs[program.OutServices]), outputList(outs[program.OutRetired]), current)
	if len(removed) == 0 {
		return nil
	}
	msg := fmt.Sprintf("%s would delete the Production pipeline of %s, not retired in its last deployment: "+
		"set `retired: true` in %s and deploy, then remove the entry", st.Name, strings.Join(removed, ", "), catalog.ServicesFile)
	if preview {
		fmt.Fprintf(s.opts.Stderr, "warning: %s\n", msg)
		return nil
	}
	return fmt.Errorf("decommission check failed: %s", msg)
}

// RemovedWithoutRetiring lists the services of the last deployment that
// are gone from current without having been retired first.
func RemovedWithoutRetiring(previous, retired, current []string) []string {
	var removed []string
	for _, svc := range previous {
		if !slices.Contains(current, svc) && !slices.Contains(retired, svc) {
			removed = append(removed, svc)
		}
	}
	sort.Strings(removed)
	return removed
}

func outputList(v auto.OutputValue) []string {
	list, _ := v.Value.([]any)
	out := make([]string, 0, len(list))
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
