package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"

	"github.com/company/harness-platform/adopt"
	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/simulated"
)

// BenchmarkUp runs, through the real CLI offline, `up --stack dev` of a
// generated catalog (dev's platform stack, then its service stacks of
// about 40 services, two at once), then an archetype change (every
// archetype's step timeout), then a preview that must be clean. It
// reports the time per resource of the first up (flat from 100 to 1,000
// services when the up is linear), the time of the change and the objects
// it writes (a new version of each deploy template and the old one
// deleted: the same at every size, no pipeline), and the checkpoint bytes
// per resource and per pipeline.
//
//	go test -run '^$' -bench BenchmarkUp -benchtime 1x ./engine
func BenchmarkUp(b *testing.B) {
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
			// The template change: every archetype's step timeout.
			changed := maps.Clone(files)
			arch := bytes.ReplaceAll(files[catalog.ArchetypesFile], []byte("    verification: true\n"), []byte("    verification: true\n    stepTimeout: 12m\n"))
			changed[catalog.ArchetypesFile] = bytes.ReplaceAll(arch, []byte("stepTimeout: 15m"), []byte("stepTimeout: 16m"))
			template, err := catalog.Parse(changed)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			for i := 0; i < b.N; i++ {
				state := b.TempDir()
				s, err := benchSession(ctx, state, c)
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				res, err := s.Up(ctx, "dev", UpOptions{})
				if err != nil {
					b.Fatal(err)
				}
				up := time.Since(start)
				resources := (*res.Summary.ResourceChanges)[string(apitype.OpCreate)]
				upCalls, err := s.APICalls()
				if err != nil {
					b.Fatal(err)
				}
				s.Close()

				s, err = benchSession(ctx, state, template)
				if err != nil {
					b.Fatal(err)
				}
				start = time.Now()
				res, err = s.Up(ctx, "dev", UpOptions{})
				if err != nil {
					b.Fatal(err)
				}
				change := time.Since(start)
				changeCalls, err := s.APICalls()
				if err != nil {
					b.Fatal(err)
				}
				written := 0
				for op, k := range *res.Summary.ResourceChanges {
					if op != string(apitype.OpSame) {
						written += k
					}
				}
				// Every template changes: a version created, one deleted;
				// no pipeline is written.
				if tp, err := plan.Build(template, "dev"); err != nil || written != 2*len(tp.Templates) {
					b.Fatalf("the archetype change wrote %d objects (%v), want a new version of each of dev's templates and the old one deleted (%v)", written, *res.Summary.ResourceChanges, err)
				}
				pre, err := s.Preview(ctx, "dev", PreviewOptions{})
				if err != nil {
					b.Fatal(err)
				}
				for op, k := range pre.ChangeSummary {
					if op != apitype.OpSame && k > 0 {
						b.Fatalf("the second preview is not clean: %v", pre.ChangeSummary)
					}
				}
				s.Close()

				bytes, pipelineBytes, pipelines := 0, 0, 0
				for _, stack := range c.StacksOf("dev") {
					data, err := os.ReadFile(filepath.Join(state, "backend", ".pulumi", "stacks", "harness-platform", stack+".json"))
					if err != nil {
						continue
					}
					bytes += len(data)
					var cp struct {
						Checkpoint struct {
							Latest struct {
								Resources []json.RawMessage
							}
						}
					}
					if err := json.Unmarshal(data, &cp); err != nil {
						b.Fatal(err)
					}
					for _, r := range cp.Checkpoint.Latest.Resources {
						if bytesContains(r, `"type": "harness:platform/pipeline:Pipeline"`) || bytesContains(r, `"type":"harness:platform/pipeline:Pipeline"`) {
							pipelineBytes += len(r)
							pipelines++
						}
					}
				}
				b.ReportMetric(up.Seconds(), "up-s")
				b.ReportMetric(float64(up.Milliseconds())/float64(resources), "up-ms/resource")
				b.ReportMetric(float64(resources), "resources")
				b.ReportMetric(change.Seconds(), "change-s")
				b.ReportMetric(float64(written), "change-writes")
				b.ReportMetric(float64(bytes)/float64(resources), "checkpoint-B/resource")
				if pipelines > 0 {
					b.ReportMetric(float64(pipelineBytes)/float64(pipelines), "checkpoint-B/pipeline")
				}
				b.ReportMetric(float64(len(c.StacksOf("dev"))), "stacks")
				// The calls the simulated Harness and GitHub answered, as
				// the real providers would send them, and the least real
				// time they need under one key and one App installation.
				for _, m := range []struct {
					name  string
					calls apibudget.Calls
				}{{"up", upCalls.Total}, {"change", changeCalls.Total}} {
					b.ReportMetric(float64(m.calls.Harness()), m.name+"-harness-calls")
					b.ReportMetric(float64(m.calls.GitHub()), m.name+"-github-calls")
					b.ReportMetric(apibudget.Least(m.calls.Needs(apibudget.Budgets)).Minutes(), m.name+"-least-min")
				}
			}
		})
	}
}

// benchSession is an offline session of the project on state with
// catalog c, as a run opens it (no test environment), its output dropped.
func benchSession(ctx context.Context, state string, c *catalog.Catalog) (*Session, error) {
	return Open(ctx, Options{ProjectDir: "..", Offline: true, Simulation: simulated.Simulation{}, StateDir: state, Catalog: c, Stdout: io.Discard, Stderr: io.Discard})
}

func bytesContains(b []byte, s string) bool { return bytes.Contains(b, []byte(s)) }

// BenchmarkImport adopts, through the real CLI offline, the Harness
// objects of dev made by an up in another state, at the example catalog
// and at 300 services: the time of `platformctl import --stack dev --yes`
// and the provider calls it makes (a lookup per object the stacks would
// create, a page per listing of what exists, a read per object adopted;
// Harness allows about 1,000 API calls a minute per key).
//
//	go test -run '^$' -bench BenchmarkImport -benchtime 1x ./engine
func BenchmarkImport(b *testing.B) {
	for _, n := range []int{0, 300} {
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			var c *catalog.Catalog
			if n == 0 {
				c = catalogtest.Example(b, "..")
			} else {
				c = catalogtest.SyntheticCatalog(b, "..", n)
			}
			ctx := context.Background()
			made := b.TempDir()
			s, err := benchSession(ctx, made, c)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.Up(ctx, "dev", UpOptions{}); err != nil {
				b.Fatal(err)
			}
			s.Close()
			account, err := os.ReadFile(filepath.Join(made, "cloud", "harness.json"))
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				state := b.TempDir()
				s, err := benchSession(ctx, state, c)
				if err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(state, "cloud", "harness.json"), account, 0o600); err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				found, err := s.Import(ctx, "dev", ImportOptions{Yes: true, Stdout: io.Discard, Stderr: io.Discard})
				if err != nil {
					b.Fatal(err)
				}
				took := time.Since(start)
				s.Close()
				adopted, undeclared := 0, 0
				for _, a := range found.Objects {
					switch a.Status {
					case adopt.Adopted, adopt.Different:
						adopted++
					case adopt.NotDeclared:
						undeclared++
					}
				}
				b.ReportMetric(took.Seconds(), "import-s")
				b.ReportMetric(float64(adopted), "adopted")
				b.ReportMetric(float64(undeclared), "not-declared")
				b.ReportMetric(float64(found.Calls), "provider-calls")
			}
		})
	}
}
