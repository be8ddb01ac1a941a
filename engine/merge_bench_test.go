package engine

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
)

// BenchmarkOneServiceMerge measures, through the real CLI offline, the up
// of dev that applies a one-service change the way the merge workflow
// runs it (platformctl up --changed): dev deployed first, outside the
// timer, recording its commit; then one service's entry changes, and
// the up applies the stacks that change touches, the platform stack and
// the service's stack (what changedStacks gives for it,
// TestChangedStacks). It reports the up's time, its Harness and GitHub
// calls and the stacks it ran; the calls and time should not grow with
// the catalog.
//
// On the same state it then measures what does grow with the catalog,
// for the budgets of docs/operating.md: the drift check of every dev
// stack (refresh --preview-only --expect-no-changes) and a full re-apply
// (an up of every dev stack, as a change of the program makes it), each
// with its time, its calls and the least time the APIs' budgets allow
// them.
//
//	go test -run '^$' -bench BenchmarkOneServiceMerge -benchtime 1x ./engine
func BenchmarkOneServiceMerge(b *testing.B) {
	for _, n := range []int{100, 300, 1000} {
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			files, err := catalogtest.Synthetic("..", n)
			if err != nil {
				b.Fatal(err)
			}
			c, err := catalog.Parse(files)
			if err != nil {
				b.Fatal(err)
			}
			edited := maps.Clone(files)
			edited[catalog.ServicesFile] = []byte(strings.Replace(string(files[catalog.ServicesFile]),
				"  - name: svc-00010\n", "  - name: svc-00010\n    description: changed by the merge\n", 1))
			changed, err := catalog.Parse(edited)
			if err != nil {
				b.Fatal(err)
			}
			svc, _ := changed.Service("svc-00010")
			touched := []string{"dev", catalog.ServiceStackName("dev", svc.Stack)}
			ctx := context.Background()
			for i := 0; i < b.N; i++ {
				state := b.TempDir()
				s, err := benchSession(ctx, state, c)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.Up(ctx, "dev", UpOptions{Commit: "base"}); err != nil {
					b.Fatal(err)
				}
				s.Close()

				s, err = benchSession(ctx, state, changed)
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				if _, err := s.Up(ctx, "dev", UpOptions{Commit: "merge", Only: touched}); err != nil {
					b.Fatal(err)
				}
				took := time.Since(start)
				calls, err := s.APICalls()
				if err != nil {
					b.Fatal(err)
				}
				s.Close()
				b.ReportMetric(took.Seconds(), "merge-up-s")
				b.ReportMetric(float64(calls.Total.Harness()), "harness-calls")
				b.ReportMetric(float64(calls.Total.GitHub()), "github-calls")
				b.ReportMetric(apibudget.Least(calls.Total.Needs(apibudget.Budgets)).Minutes(), "least-min")
				b.ReportMetric(float64(len(touched)), "stacks-run")
				b.ReportMetric(float64(len(c.StacksOf("dev"))), "stacks")

				// The drift check, then the full re-apply, each in a
				// session of its own (its own count of calls).
				measure := func(what string, run func(s *Session) error) {
					s, err := benchSession(ctx, state, changed)
					if err != nil {
						b.Fatal(err)
					}
					defer s.Close()
					start := time.Now()
					if err := run(s); err != nil {
						b.Fatalf("%s: %v", what, err)
					}
					took := time.Since(start)
					calls, err := s.APICalls()
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(took.Seconds(), what+"-s")
					b.ReportMetric(float64(calls.Total.Harness()), what+"-harness-calls")
					b.ReportMetric(float64(calls.Total.GitHub()), what+"-github-calls")
					b.ReportMetric(apibudget.Least(calls.Total.Needs(apibudget.Budgets)).Minutes(), what+"-least-min")
				}
				measure("drift", func(s *Session) error {
					return s.Refresh(ctx, "dev", RefreshOptions{PreviewOnly: true, ExpectNoChanges: true})
				})
				measure("reapply", func(s *Session) error {
					_, err := s.Up(ctx, "dev", UpOptions{Commit: "program"})
					return err
				})
			}
		})
	}
}
