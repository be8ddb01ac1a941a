package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"

	"github.com/company/harness-platform/adopt"
)

// Adoption through the session: package adopt says what to ask the
// providers and what their answers mean; Import runs the stack's preview,
// the probe's preview and `pulumi import --file`.

// ImportOptions configure Import.
type ImportOptions struct {
	// Yes adopts; without it Import only reports.
	Yes bool
	// Stdout and Stderr receive the progress of the import itself.
	Stdout, Stderr io.Writer
}

// Import finds and (with Yes) adopts the existing objects of one stack,
// or of every stack of an environment in dependency order. Running it
// again finds nothing new: what it adopted is in the state.
//
// Imported as a whole, an environment's report also lists the objects
// that exist where the catalog declares objects and that no stack of it
// declares (adopt.NotDeclared). A single service stack declares only its
// share of its projects' objects, so its import does not list them.
func (s *Session) Import(ctx context.Context, name string, o ImportOptions) (adopt.Report, error) {
	if o.Yes {
		if err := s.checkDelivery(name); err != nil {
			return adopt.Report{}, err
		}
	}
	waves, err := Waves(s.Catalog, name)
	if err != nil {
		return adopt.Report{}, err
	}
	waves = WithCredentials(waves, name)
	_, shard, _ := s.Catalog.EnvironmentOf(name)
	run := adopt.NewRun(shard == "")
	var out adopt.Report
	for _, wave := range waves {
		for _, stack := range wave {
			found, calls, err := s.importStack(ctx, stack, o, run)
			out.Objects = append(out.Objects, found...)
			out.Calls += calls
			if err != nil {
				return out, err
			}
		}
	}
	out.Objects = append(out.Objects, run.Undeclared()...)
	return out, nil
}

// importStack finds, and with Yes adopts, the existing objects of one
// stack; it returns the provider calls made.
func (s *Session) importStack(ctx context.Context, name string, o ImportOptions, run *adopt.Run) ([]adopt.Adoption, int, error) {
	defer s.flush()
	// An import reads; it needs no upstream deployed (a service stack's
	// platform stack may be adopted in the same run, its contract not yet
	// exported).
	stack, err := s.stack(ctx, name, true)
	if err != nil {
		return nil, 0, err
	}
	plan, err := declaredBy(ctx, stack)
	if err != nil {
		return nil, 0, err
	}
	probe, err := run.Probe(plan)
	if err != nil || probe == nil {
		return nil, 0, err
	}
	// The program runs the probe first (adopt.Probes).
	s.probes.Store(name, probe)
	_, err = stack.Preview(ctx, optpreview.ProgressStreams(io.Discard), optpreview.ErrorProgressStreams(io.Discard))
	s.probes.Delete(name)
	calls := probe.Calls()
	if err != nil {
		return nil, calls, fmt.Errorf("looking up the objects of %s: %w", name, err)
	}
	found := probe.Findings(name)
	adopting := 0
	for _, a := range found {
		if a.Status.Adopts() {
			adopting++
		}
	}
	if !o.Yes || adopting == 0 {
		return found, calls, nil
	}
	return found, calls + adopting, s.adoptExisting(ctx, stack, plan, found, o)
}

// declaredBy previews the stack and returns what it declares.
func declaredBy(ctx context.Context, stack auto.Stack) ([]adopt.Declared, error) {
	ch := make(chan events.EngineEvent)
	var out []adopt.Declared
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range ch {
			if d, ok := adopt.DeclaredBy(e.EngineEvent); ok {
				out = append(out, d)
			}
		}
	}()
	_, err := stack.Preview(ctx, optpreview.EventStreams(ch), optpreview.ProgressStreams(io.Discard), optpreview.ErrorProgressStreams(io.Discard))
	<-done
	if err != nil {
		return nil, fmt.Errorf("the preview of %s before the import failed: %w", stack.Name(), err)
	}
	return out, nil
}

// adoptExisting imports the existing objects among found into the stack's
// state with `pulumi import --file` (adopt.Imports), after a backup.
// Nothing in the account changes: import only reads.
func (s *Session) adoptExisting(ctx context.Context, stack auto.Stack, plan []adopt.Declared, found []adopt.Adoption, o ImportOptions) error {
	name := stack.Name()
	file, unreadable := adopt.Imports(plan, found)
	if err := s.backupBefore(ctx, stack, "import"); err != nil {
		return err
	}
	dir, err := s.importDir(name)
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	data, err := json.Marshal(file)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "import.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return err
	}
	host, err := buildCached(s.opts.ProjectDir, LanguageHostPackage, LanguageHostBinary, "import-host")
	if err != nil {
		return err
	}
	env := append(slices.Clone(s.env), "PATH="+filepath.Dir(host)+string(os.PathListSeparator)+os.Getenv("PATH"))
	stdout, stderr := runOptions{Stdout: o.Stdout, Stderr: o.Stderr}.streams(s)
	outText, errText, _, err := s.cli.Run(ctx, dir, nil, []io.Writer{stdout}, []io.Writer{stderr}, env,
		"import", "--stack", name, "--file", path, "--yes", "--skip-preview", "--non-interactive",
		"--generate-code=false", "--protect=false")
	s.deployedOutputs(name, nil)
	if err != nil {
		return fmt.Errorf("importing into %s: %w: %s%s", name, err, outText, errText)
	}
	if len(unreadable) == 0 {
		return nil
	}
	return s.adoptThroughState(ctx, stack, unreadable, stdout, stderr)
}

// adoptThroughState adopts objects the provider's import cannot read back
// as recover does (adopt.IntoState), then refreshes them.
func (s *Session) adoptThroughState(ctx context.Context, stack auto.Stack, objects []adopt.Declared, stdout, stderr io.Writer) error {
	var targets []string
	err := s.editState(ctx, stack, func(deployment map[string]any) (bool, error) {
		var err error
		targets, err = adopt.IntoState(deployment, objects)
		return err == nil, err
	})
	if err != nil {
		return err
	}
	_, err = stack.Refresh(ctx, optrefresh.Target(targets), optrefresh.ProgressStreams(stdout), optrefresh.ErrorProgressStreams(stderr), optrefresh.ShowSecrets(false))
	return err
}

// LanguageHostPackage is the language host `pulumi import` asks which
// packages the program needs (see its command's comment).
const (
	LanguageHostPackage = "./cmd/pulumi-language-harness-platform"
	LanguageHostBinary  = "pulumi-language-harness-platform"
)

// importDir is a directory from which `pulumi import` works on the stack:
// the project under the runtime of the import's language host, and the
// stack's settings file (its config, the provider's settings and the
// secrets' salt).
func (s *Session) importDir(name string) (string, error) {
	dir, err := os.MkdirTemp("", "harness-platform-import-")
	if err != nil {
		return "", err
	}
	project := fmt.Sprintf("name: %s\nruntime: harness-platform\n", s.project)
	if err := os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), []byte(project), 0o600); err != nil {
		return "", err
	}
	file := "Pulumi." + name + ".yaml"
	settings, err := os.ReadFile(filepath.Join(s.workspace.WorkDir(), file))
	if err != nil && !os.IsNotExist(err) {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, file), settings, 0o600)
}
