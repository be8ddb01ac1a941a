package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/conformance"
	exampletest "github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/internal/mocktest"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/program"
	"github.com/company/harness-platform/simulated"
)

// These tests run the program through the real Pulumi CLI, offline: the
// Automation API, a file:// backend and the simulated providers.

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Reset()
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type harnessSession struct {
	*Session
	state string
	out   *syncBuffer
}

// commandLog is the arguments of the CLI commands sessions ran.
type commandLog struct {
	sync.Mutex
	all []string
}

// commandLines records the arguments of every CLI command sessions run:
// another user of the machine can read them in the process list.
var commandLines = &commandLog{}

// recordingCLI is a CLI whose command lines are recorded in log.
type recordingCLI struct {
	auto.PulumiCommand
	log *commandLog
}

func (r recordingCLI) Run(ctx context.Context, workdir string, stdin io.Reader, out, errOut []io.Writer, env []string, args ...string) (string, string, int, error) {
	r.log.Lock()
	r.log.all = append(r.log.all, strings.Join(args, " "))
	r.log.Unlock()
	return r.PulumiCommand.Run(ctx, workdir, stdin, out, errOut, env, args...)
}

// recordedCLI is the pinned CLI, its command lines recorded.
func recordedCLI(t *testing.T) auto.PulumiCommand {
	t.Helper()
	cmd, err := FindCLI()
	if err != nil {
		t.Fatal(err)
	}
	return recordingCLI{cmd, commandLines}
}

func open(t *testing.T, state string, c *catalog.Catalog) harnessSession {
	t.Helper()
	return openWith(t, state, c, nil)
}

// openWith opens a session whose program registers through transform.
func openWith(t *testing.T, state string, c *catalog.Catalog, transform pulumi.ResourceTransform) harnessSession {
	t.Helper()
	return openEnv(t, state, c, transform, testEnv)
}

// testEnv is the CLI's environment in the engine tests' sessions: Pulumi
// writes a stack's state once, when each operation ends, instead of after
// every step as well (PULUMI_SKIP_CHECKPOINTS). What an operation leaves,
// succeeded, failed or refused, is the same, for half the CLI's time of a
// first up (BenchmarkUp at 100 services: 13 s instead of 27). The
// intermediate checkpoints exist for a run killed midway: the test that
// kills one (TestInterruptedUpConverges) keeps them (openCheckpointed),
// as every real run does.
var testEnv = map[string]string{"PULUMI_SKIP_CHECKPOINTS": "true"}

// QuietCLILog keeps the CLI of an offline state's sessions from writing
// its automatic log, which it writes on every run since Pulumi v3.2xx
// (pulumi/pulumi#23731: every message of every verbosity, as JSON,
// gzipped, in $PULUMI_HOME/logs) with no setting to turn it off
// (pulumi/pulumi#22416 asks for one): a quarter of the CLI's CPU in these
// tests. A file where the log's directory would be makes the CLI go on
// without it (pkg/logging StartLogging fails, and "automatic logging
// unavailable" goes to its discarding default logger). Nothing a test
// checks is in that log; the benchmarks keep it, as real runs do.
func QuietCLILog(t testing.TB, state string) {
	t.Helper()
	home := filepath.Join(state, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	logs := filepath.Join(home, "logs")
	if info, err := os.Stat(logs); err == nil && !info.IsDir() {
		return
	}
	if err := os.RemoveAll(logs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(logs, []byte("The tests' CLI writes no automatic log (engine.QuietCLILog).\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// openCheckpointed opens a session whose CLI writes the state after
// every step, as outside the tests.
func openCheckpointed(t *testing.T, state string, c *catalog.Catalog) harnessSession {
	t.Helper()
	return openEnv(t, state, c, nil, nil)
}

func openEnv(t *testing.T, state string, c *catalog.Catalog, transform pulumi.ResourceTransform, env map[string]string) harnessSession {
	t.Helper()
	if _, err := FindCLI(); err != nil {
		t.Fatalf("%v (make test installs it)", err)
	}
	QuietCLILog(t, state)
	out := &syncBuffer{}
	s, err := Open(context.Background(), Options{ProjectDir: "..", Offline: true, Simulation: simulated.Simulation{}, StateDir: state, Stdout: out, Stderr: out, Catalog: c, Transform: transform, Env: env,
		CLI: recordedCLI(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return harnessSession{Session: s, state: state, out: out}
}

func example(t *testing.T) *catalog.Catalog { return catalogtest.Example(t, "..") }

// exampleEdited is the example catalog with the first old in file (one
// of catalog.ServicesFile, ...) replaced by new; the test fails if the
// example no longer holds old.
func exampleEdited(t *testing.T, file, old, new string) *catalog.Catalog {
	t.Helper()
	files, err := catalogtest.ExampleFiles("..")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(files[file], []byte(old)) {
		t.Fatalf("the example's %s no longer holds %q; update the test", file, old)
	}
	files[file] = bytes.Replace(files[file], []byte(old), []byte(new), 1)
	c, err := catalog.Parse(files)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// cloudRecords reads the simulated Harness cloud from disk.
func cloudRecords(t *testing.T, state string) map[string]simulated.Record {
	t.Helper()
	return providerRecords(t, state, "harness")
}

// providerRecords are the objects of one simulated provider's cloud.
func providerRecords(t *testing.T, state, provider string) map[string]simulated.Record {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(state, "cloud", provider+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var recs map[string]simulated.Record
	if err := json.Unmarshal(data, &recs); err != nil {
		t.Fatal(err)
	}
	return recs
}

func writeCloud(t *testing.T, state string, recs map[string]simulated.Record) {
	t.Helper()
	writeProvider(t, state, "harness", recs)
}

func writeProvider(t *testing.T, state, provider string, recs map[string]simulated.Record) {
	t.Helper()
	data, _ := json.MarshalIndent(recs, "", "  ")
	if err := os.WriteFile(filepath.Join(state, "cloud", provider+".json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func stateFile(t *testing.T, state, stack string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(state, "backend", ".pulumi", "stacks", "harness-platform", stack+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// stateURNs lists the resources the stack's state holds, each as its URN
// and its inputs and outputs, sorted (the engine may reorder them).
var ciphertext = regexp.MustCompile(`"ciphertext":"[^"]*"`)

func stateURNs(t *testing.T, state, stack string) []string {
	t.Helper()
	out := stateEntries(t, state, stack)
	if len(out) < 10 {
		t.Fatalf("the state of %s holds only %d resources", stack, len(out))
	}
	return out
}

// checkpointResource is a resource of a stack's checkpoint, as the tests
// read it.
type checkpointResource struct {
	URN, Type       string
	Custom          bool
	Inputs, Outputs map[string]any
}

// checkpointResources are the resources of stack's checkpoint.
func checkpointResources(t *testing.T, state, stack string) []checkpointResource {
	t.Helper()
	var cp struct {
		Checkpoint struct {
			Latest struct {
				Resources []checkpointResource
			}
		}
	}
	if err := json.Unmarshal(stateFile(t, state, stack), &cp); err != nil {
		t.Fatal(err)
	}
	return cp.Checkpoint.Latest.Resources
}

// stateEntries are the resources of a stack's state, each its URN, inputs
// and outputs, sorted.
func stateEntries(t *testing.T, state, stack string) []string {
	var out []string
	for _, r := range checkpointResources(t, state, stack) {
		in, _ := json.Marshal(r.Inputs)
		outs, _ := json.Marshal(r.Outputs)
		// The engine encrypts a secret again, with a fresh nonce, on every
		// write of the checkpoint: its ciphertext says nothing of change.
		line := ciphertext.ReplaceAllString(r.URN+" "+string(in)+" "+string(outs), `"ciphertext":"…"`)
		out = append(out, line)
	}
	sort.Strings(out)
	return out
}

// mockCount is how many resources the program registers for stack whose
// type starts with prefix ("" for all).
func mockCount(t *testing.T, c *catalog.Catalog, stack, prefix string, opts ...pulumi.RunOption) int {
	rec := &mocktest.Recorder{StackOutputs: map[string]resource.PropertyMap{}}
	if err := mocktest.Run(program.New(c.Files()), stack, rec, opts...); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range rec.Resources() {
		if strings.HasPrefix(r.Type, prefix) {
			n++
		}
	}
	return n
}

func opTypes(m map[string]int) map[apitype.OpType]int {
	out := map[apitype.OpType]int{}
	for k, v := range m {
		out[apitype.OpType(k)] = v
	}
	return out
}

func onlyOp(t *testing.T, what string, summary map[apitype.OpType]int, op apitype.OpType) int {
	t.Helper()
	for k, n := range summary {
		// Stacks read their contracts with an invoke: no read step either.
		if k != op && n > 0 {
			t.Errorf("%s: %d %s, want only %s: %v", what, n, k, op, summary)
		}
	}
	return summary[op]
}

// A preview of dev on an empty state creates everything, nothing else:
// its service stacks are previewed before their platform stack exists,
// against the contract it will export.
func TestFirstPreviewCreatesWhatTheProgramDeclares(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := example(t)
	s := open(t, t.TempDir(), c)
	pre, err := s.Preview(ctx, "dev", PreviewOptions{})
	if err != nil {
		t.Fatalf("preview dev: %v\n%s", err, s.out)
	}
	want := 0
	for _, stack := range c.StacksOf("dev") {
		want += mockCount(t, c, stack, "", mocktest.WithDryRun(true)) + 1 // the program's plus the stack
	}
	if got := onlyOp(t, "preview dev", pre.ChangeSummary, apitype.OpCreate); got != want {
		t.Errorf("preview of dev's %d stacks creates %d resources, want %d", len(c.StacksOf("dev")), got, want)
	}
	// The CLI wrote no automatic log (QuietCLILog).
	_ = filepath.WalkDir(filepath.Join(s.state, "home"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".log") {
			t.Errorf("the CLI wrote its automatic log: %s", path)
		}
		return nil
	})

}

// The chain's first up (dev, staging and production from an empty state,
// firstUpOfChain) is quiet: a drift check right after it finds nothing,
// and a second up changes nothing. The deployed chain's providers are at
// their pinned versions, production deploys what pre-stable deployed
// first, and stack references carry the foundation. (The tests of a
// deployed chain each start from a copy of it: Test*OnTheChain.)
func TestChainFirstUpIsQuiet(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := example(t)
	s, _ := onTheChain(t)
	// The drift check is quiet right after a first up: nothing the program
	// declares changes by being read back.
	for _, stack := range c.Chain {
		if err := s.Refresh(ctx, stack, RefreshOptions{PreviewOnly: true, ExpectNoChanges: true}); err != nil {
			t.Fatalf("drift check right after the first up of %s: %v", stack, err)
		}
	}
	for _, stack := range c.Chain {
		res, err := s.Up(ctx, stack, UpOptions{})
		if err != nil {
			t.Fatalf("second up %s: %v", stack, err)
		}
		onlyOp(t, "second up of "+stack, opTypes(*res.Summary.ResourceChanges), apitype.OpSame)
	}

	t.Run("default providers at pinned versions", func(t *testing.T) {
		for _, env := range c.Chain {
			found := map[string]int{}
			for _, stack := range c.StacksOf(env) {
				want := map[string]string{"harness": "0.16.0", "aws": "6.83.2", "kubernetes": "4.33.0", "github": "6.14.1"}
				for _, r := range checkpointResources(t, s.state, stack) {
					pkg, ok := strings.CutPrefix(r.Type, "pulumi:providers:")
					if !ok || pkg == "pulumi" { // the engine's built-in provider
						continue
					}
					found[pkg]++
					if v := r.Inputs["version"]; v != want[pkg] {
						t.Errorf("%s: %s provider %s at version %v, want %s", stack, pkg, r.URN, v, want[pkg])
					}
				}
			}
			regions, stacks := len(c.Stacks[env].Regions), len(c.StacksOf(env))
			// Every stack has its Harness provider; the platform stack an
			// AWS provider per region; every stack a Kubernetes provider per
			// region (the platform stack's delegates, the service stacks'
			// namespaces); the service stacks a GitHub provider for the
			// example's one owner (and dev's platform stack, for this
			// repository's environments).
			wantGithub := stacks - 1
			if env == c.Chain[0] {
				wantGithub++
			}
			if found["harness"] != stacks || found["aws"] != regions || found["kubernetes"] != regions*stacks || found["github"] != wantGithub {
				t.Errorf("%s: providers in the state %v: want %d harness, %d github, %d aws, %d kubernetes", env, found, stacks, wantGithub, regions, regions*stacks)
			}
		}
	})

	// What Harness now holds of issue 22: every Production pipeline runs,
	// as its first stage, a pre-stable pipeline that exists (the simulated
	// Harness refuses to save one whose child does not); each deployment
	// has its environment's Values file; the pipeline rules are evaluated
	// on save and run.
	t.Run("production deploys what pre-stable deployed first", func(t *testing.T) {
		cloud := s.servers().Cloud("harness")
		pipelines := map[string]string{}
		for _, r := range cloud.OfType("harness:platform/pipeline:Pipeline") {
			pipelines[r.Properties["identifier"].(string)] = r.Properties["yaml"].(string)
		}
		files := map[string]bool{}
		for _, r := range cloud.OfType("harness:platform/fileStoreFile:FileStoreFile") {
			files[r.Properties["identifier"].(string)] = true
		}
		chained := 0
		for id, y := range pipelines {
			if !strings.HasSuffix(id, "_prod") {
				continue
			}
			service := strings.TrimSuffix(id, "_prod")
			if !strings.Contains(y, "type: Pipeline\n") || !strings.Contains(y, "pipeline: "+service+"_pre_stable\n") || pipelines[service+"_pre_stable"] == "" {
				t.Errorf("%s does not run %s_pre_stable first", id, service)
			}
			if !files[service+"_prod_values"] {
				t.Errorf("%s has no Values file %s_prod_values", id, service)
			}
			chained++
		}
		if chained < 10 {
			t.Fatalf("only %d Production pipelines", chained)
		}
		sets := map[string]string{}
		for _, r := range cloud.OfType("harness:platform/policySet:PolicySet") {
			sets[r.Properties["identifier"].(string)] = r.Properties["action"].(string) + "/" + r.Properties["type"].(string)
		}
		if sets["pipeline_rules_onsave"] != "onsave/pipeline" || sets["pipeline_rules_onrun"] != "onrun/pipeline" {
			t.Errorf("policy sets %v", sets)
		}
	})

	// The offline stacks share one encryption salt (copyProject), so the
	// CLI derives the passphrase's key once per operation, not again for
	// each stack reference it reads.
	t.Run("one encryption salt", func(t *testing.T) {
		salts := map[string][]string{}
		for _, stack := range c.AllStacks() {
			var cp struct {
				Checkpoint struct {
					Latest struct {
						SecretsProviders struct {
							Type  string
							State struct{ Salt string }
						} `json:"secrets_providers"`
					}
				}
			}
			if err := json.Unmarshal(stateFile(t, s.state, stack), &cp); err != nil {
				t.Fatal(err)
			}
			p := cp.Checkpoint.Latest.SecretsProviders
			if p.Type != "passphrase" || p.State.Salt == "" {
				t.Fatalf("%s: secrets provider %+v, want passphrase with a salt", stack, p)
			}
			salts[p.State.Salt] = append(salts[p.State.Salt], stack)
		}
		if len(salts) != 1 {
			t.Errorf("the chain's stacks use %d salts, want one: %v", len(salts), salts)
		}
	})

	t.Run("stack references carry the foundation", func(t *testing.T) {
		for _, stack := range []string{"staging", "production"} {
			outs, err := s.Outputs(ctx, stack)
			if err != nil {
				t.Fatal(err)
			}
			f, _ := outs[program.OutFoundation].Value.(map[string]any)
			if f["ownerStack"] != "dev" || f["orgId"] != "default" || f["projectId"] != "platform" {
				t.Errorf("%s foundation output: %v", stack, f)
			}
		}
	})
}

// On the deployed chain, a pipeline edited in Harness is drift, reported
// without touching the state; a check that cannot read the cloud is a
// failure, not drift.
func TestDriftIsReportedWithoutTouchingStateOnTheChain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := onTheChain(t)
	check := RefreshOptions{PreviewOnly: true, ExpectNoChanges: true}
	if err := s.Refresh(ctx, "production", check); err != nil {
		t.Fatalf("drift check on a clean deployment: %v", err)
	}
	before := stateFile(t, s.state, "production")
	recs := cloudRecords(t, s.state)
	id := "Pipeline/default/platform/payment_service_prod"
	orig, ok := recs[id]
	if !ok {
		t.Fatalf("no %s in the simulated cloud", id)
	}
	edited := simulated.Record{Type: orig.Type, Name: orig.Name, Properties: map[string]any{}}
	for k, v := range orig.Properties {
		edited.Properties[k] = v
	}
	edited.Properties["yaml"] = orig.Properties["yaml"].(string) + "# edited in the Harness UI\n"
	recs[id] = edited
	writeCloud(t, s.state, recs)
	for i := 0; i < 2; i++ { // the drift stays visible: the check wrote nothing
		s.out.b.Reset()
		err := s.Refresh(ctx, "production", check)
		if err == nil {
			t.Fatal("drift check passed with an edited pipeline")
		}
		if !OnlyDrift(err) {
			t.Errorf("drift is reported as a failure to check: %v", err)
		}
		if !strings.Contains(s.out.String(), "payment_service_prod") {
			t.Errorf("drift output does not name the pipeline:\n%s", s.out)
		}
	}
	if !bytes.Equal(before, stateFile(t, s.state, "production")) {
		t.Error("the drift check changed the state file")
	}
	// A check that cannot run (here the cloud cannot be read, as
	// with an expired credential) is a failure, not drift.
	if err := os.WriteFile(filepath.Join(s.state, "cloud", "harness.json"), []byte("not JSON"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.Refresh(ctx, "production", check); err == nil || OnlyDrift(err) {
		t.Errorf("a check that could not read the cloud: %v, want a failure that is not drift", err)
	}
	recs[id] = orig
	writeCloud(t, s.state, recs)
	if err := s.Refresh(ctx, "production", check); err != nil {
		t.Fatalf("drift check after restoring: %v", err)
	}
}

// On the deployed chain, a delegate image changed in the cluster (the
// chart's upgrader) is drift naming the release.
func TestDelegateImageChangedOutOfBandIsDriftOnTheChain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := onTheChain(t)
	check := RefreshOptions{PreviewOnly: true, ExpectNoChanges: true}
	recs := providerRecords(t, s.state, "kubernetes")
	var id string
	for k, r := range recs {
		if r.Type == "kubernetes:helm.sh/v3:Release" && r.Name == "harness-delegate-prod-euw1" {
			id = k
		}
	}
	if id == "" {
		t.Fatal("no delegate release for prod/euw1 in the simulated cluster")
	}
	orig := recs[id]
	raw, _ := json.Marshal(orig)
	var edited simulated.Record
	_ = json.Unmarshal(raw, &edited)
	// What the chart's upgrader would do: kubectl set image.
	edited.Properties["values"].(map[string]any)["delegateDockerImage"] = "harness/delegate:26.01.88000"
	recs[id] = edited
	writeProvider(t, s.state, "kubernetes", recs)
	s.out.b.Reset()
	if err := s.Refresh(ctx, "production", check); err == nil {
		t.Fatal("drift check passed with the delegate image changed")
	}
	if !strings.Contains(s.out.String(), "harness-delegate-prod-euw1") {
		t.Errorf("drift output does not name the release:\n%s", s.out)
	}
	recs[id] = orig
	writeProvider(t, s.state, "kubernetes", recs)
	if err := s.Refresh(ctx, "production", check); err != nil {
		t.Fatalf("drift check after restoring the image: %v", err)
	}
}

// After the chain's first up, no secret is in plaintext: not in the
// state directory (backend, clouds, workspace), the engine's output, a
// command line or a stack's outputs.
func TestSecretsNeverInPlaintextOnTheChain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := example(t)
	s, ch := onTheChain(t)
	secrets := map[string]string{}
	for id, r := range cloudRecords(t, s.state) {
		if r.Type == "harness:platform/delegatetoken:Delegatetoken" {
			secrets["delegate token "+id] = simulated.DelegateToken(id)
		}
	}
	if len(secrets) != 2*len(c.Chain) {
		t.Errorf("%d secrets to look for, want a delegate token per cluster", len(secrets))
	}
	_ = filepath.Walk(s.state, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			data, _ := os.ReadFile(path)
			for what, secret := range secrets {
				if bytes.Contains(data, []byte(secret)) {
					t.Errorf("%s in plaintext in %s", what, path)
				}
			}
		}
		return nil
	})
	commandLines.Lock()
	lines := slices.Clone(commandLines.all)
	commandLines.Unlock()
	// Harness's connectors' credentials are not in any state: the
	// foundation's secrets are references to AWS Secrets Manager.
	wantReferenceSecrets(t, s.state)
	// The delegate tokens are in the credentials stacks alone, which no
	// preview and no other environment's deployer reads.
	checkStateReach(t, c, s.state)
	for what, secret := range secrets {
		if strings.Contains(ch.out, secret) {
			t.Errorf("%s in the engine output", what)
		}
		for _, l := range lines {
			if strings.Contains(l, secret) {
				t.Errorf("%s on a command line: %s", what, l)
			}
		}
		for _, stack := range c.Chain {
			outs, _ := s.Outputs(ctx, stack)
			js, _ := json.Marshal(outs)
			if bytes.Contains(js, []byte(secret)) {
				t.Errorf("%s in the outputs of %s", what, stack)
			}
		}
	}
}

// On the deployed chain, removing a production service that was not
// retired is refused by protection and the decommission guard, and the
// refused up changes nothing.
func TestRemovingAnUnretiredProductionServiceIsRefusedOnTheChain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	state := firstUpOfChain(t).state
	entry := exampletest.L(t, "  - name: refund-service\n    team: payments\n    archetype: api\n    repo: company/refunds\n    image: registry.company.io/payments/refund-service\n    regions: [euw1]\n")
	removed := exampleEdited(t, catalog.ServicesFile, entry, "")
	r := open(t, state, removed)
	// The guard warns on preview; the engine refuses to delete the
	// protected pipeline and trigger even in a preview.
	_, err := r.Preview(ctx, "production", PreviewOptions{})
	if err == nil || !strings.Contains(r.out.String(), "cannot be deleted") {
		t.Fatalf("preview must be refused by protection: %v", err)
	}
	want := "would delete the Production pipeline of refund-service, not retired in its last deployment"
	if !strings.Contains(r.out.String(), want) {
		t.Errorf("preview does not warn %q", want)
	}
	cloudBefore, err := os.ReadFile(filepath.Join(state, "cloud", "harness.json"))
	if err != nil {
		t.Fatal(err)
	}
	urnsBefore := stateURNs(t, state, "production")
	if _, err := r.Up(ctx, "production", UpOptions{}); err == nil || !strings.Contains(err.Error()+r.out.String(), want) {
		t.Fatalf("up must refuse: %v", err)
	}
	r.Close()
	// The refused up changed nothing: not the cloud, not the resources
	// the stack holds (the engine may record the failed update).
	if cloudAfter, _ := os.ReadFile(filepath.Join(state, "cloud", "harness.json")); !bytes.Equal(cloudBefore, cloudAfter) {
		t.Error("the refused up changed the simulated cloud")
	}
	if after := stateURNs(t, state, "production"); strings.Join(after, "\n") != strings.Join(urnsBefore, "\n") {
		t.Errorf("the refused up changed the stack's resources: %d before, %d after", len(urnsBefore), len(after))
	}
}

// basketService is the example's entry the decommissioning tests remove.
const basketService = "  - name: basket-service\n    team: checkout\n    archetype: api\n"

// decommissionStep is the example catalog with basket-service's entry
// edited, validated.
func decommissionStep(t *testing.T, edit func([]byte) []byte) *catalog.Catalog {
	t.Helper()
	files, err := catalogtest.ExampleFiles("..")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(files[catalog.ServicesFile], []byte(basketService)) {
		t.Fatal("example entry changed; update the test")
	}
	files[catalog.ServicesFile] = edit(files[catalog.ServicesFile])
	c, err := catalog.Parse(files)
	if err != nil {
		t.Fatalf("the step's catalog does not validate: %v", err)
	}
	return c
}

// basketWith adds lines to basket-service's entry.
func basketWith(lines string) func([]byte) []byte {
	return func(b []byte) []byte {
		return bytes.Replace(b, []byte(basketService), []byte(basketService+lines), 1)
	}
}

// basketRemoved removes basket-service's entry.
func basketRemoved(b []byte) []byte {
	i := bytes.Index(b, []byte(basketService))
	j := bytes.Index(b[i+len(basketService):], []byte("\n  - name: "))
	return append(b[:i:i], b[i+len(basketService)+j+1:]...)
}

// Removing a deployed service's entry at once is refused by the
// foundation stack, in the preview already, and the refused up changes
// nothing: the simulator, like Harness, would refuse to delete the service
// while other stacks' pipelines reference it (docs/contributing.md,
// the guards).
func TestRemovingAServiceAtOnceIsRefusedOnTheChain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	state := firstUpOfChain(t).state
	r := open(t, state, decommissionStep(t, basketRemoved))
	defer r.Close()
	cloudBefore, _ := os.ReadFile(filepath.Join(state, "cloud", "harness.json"))
	if _, err := r.Preview(ctx, "dev", PreviewOptions{}); err == nil || !strings.Contains(r.out.String(), `service "basket-service" leaves the catalog, but stack "staging.services" still deploys it`) {
		t.Fatalf("removing the entry at once must be refused: %v\n%s", err, r.out)
	}
	if _, err := r.Up(ctx, "dev", UpOptions{}); err == nil {
		t.Fatal("up removing the entry at once must be refused")
	}
	if after, _ := os.ReadFile(filepath.Join(state, "cloud", "harness.json")); !bytes.Equal(cloudBefore, after) {
		t.Fatal("the refused up changed the simulated cloud")
	}
}

// Decommissioning (docs/contributing.md): retire, leave every environment but
// the foundation's, then leave the catalog. Each step is what a pull
// request and its merge do: every environment previewed against the
// deployed chain (preview.yml; here at once), then each applied in chain
// order (up-stack.yml), cleanly.
func TestDecommissionSequenceOnTheChain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := onTheChain(t)
	applyInChainOrder := func(t *testing.T, c *catalog.Catalog) {
		t.Helper()
		r := open(t, s.state, c)
		defer r.Close()
		previews := make([]error, len(c.Chain))
		var wg sync.WaitGroup
		for i, stack := range c.Chain {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, previews[i] = r.Preview(ctx, stack, PreviewOptions{})
			}()
		}
		wg.Wait()
		for i, err := range previews {
			if err != nil {
				t.Fatalf("preview %s: %v\n%s", c.Chain[i], err, r.out)
			}
		}
		for _, stack := range c.Chain {
			if _, err := r.Up(ctx, stack, UpOptions{}); err != nil {
				t.Fatalf("up %s: %v\n%s", stack, err, r.out)
			}
		}
	}
	has := func(typ, id string) bool {
		for _, rec := range cloudRecords(t, s.state) {
			if rec.Type == typ && rec.Properties["identifier"] == id {
				return true
			}
		}
		return false
	}

	applyInChainOrder(t, decommissionStep(t, basketWith("    retired: true\n")))
	if !has("harness:platform/pipeline:Pipeline", "basket_service_prod") {
		t.Fatal("retiring deleted the production pipeline")
	}
	applyInChainOrder(t, decommissionStep(t, basketWith("    retired: true\n    environments: [dev]\n")))
	for _, id := range []string{"basket_service_pre_stable", "basket_service_prod"} {
		if has("harness:platform/pipeline:Pipeline", id) || has("harness:platform/monitoredService:MonitoredService", id) {
			t.Errorf("%s still has a pipeline or monitored service after leaving its environment", id)
		}
	}
	if !has("harness:platform/service:Service", "basket_service") {
		t.Fatal("the service left the foundation too early")
	}
	final := decommissionStep(t, basketRemoved)
	applyInChainOrder(t, final)
	for _, obj := range [][2]string{
		{"harness:platform/service:Service", "basket_service"},
		{"harness:platform/fileStoreFile:FileStoreFile", "basket_service_values"},
		{"harness:platform/pipeline:Pipeline", "basket_service_int_stable"},
	} {
		if has(obj[0], obj[1]) {
			t.Errorf("%s %s is still in Harness after decommissioning", obj[0], obj[1])
		}
	}
	if _, ok := final.Service("basket-service"); ok {
		t.Fatal("the final catalog still has the service")
	}
}

// On the deployed chain, destroying dev or production is refused by
// protection with nothing removed; destroying staging removes only its
// objects.
func TestProtectionAndDestroyOnTheChain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, ch := onTheChain(t)
	afterDev := ch.afterDev
	// Other sessions changed the cloud since s last read it.
	if err := s.servers().Cloud("harness").Reload(); err != nil {
		t.Fatal(err)
	}
	before := s.servers().Cloud("harness").IDs()
	if err := s.Destroy(ctx, "dev", DestroyOptions{}); err == nil || !strings.Contains(err.Error()+s.out.String(), "protect") {
		t.Fatalf("destroy of dev was not refused by protection: %v", err)
	}
	if err := s.servers().Cloud("harness").Reload(); err != nil {
		t.Fatal(err)
	}
	if got := s.servers().Cloud("harness").IDs(); len(got) != len(before) {
		t.Errorf("refused destroy of dev removed %d objects", len(before)-len(got))
	}
	// Production's pipelines and triggers are protected while their
	// services are not retired.
	if err := s.Destroy(ctx, "production", DestroyOptions{}); err == nil || !strings.Contains(err.Error()+s.out.String(), "protect") {
		t.Fatalf("destroy of production was not refused by protection: %v", err)
	}
	if got := s.servers().Cloud("harness").IDs(); len(got) != len(before) {
		t.Errorf("refused destroy of production removed %d objects", len(before)-len(got))
	}
	// Staging's are not: destroying it removes only its objects.
	if err := s.Destroy(ctx, "staging", DestroyOptions{}); err != nil {
		t.Fatalf("destroy staging: %v", err)
	}
	left := map[string]bool{}
	for _, id := range s.servers().Cloud("harness").IDs() {
		left[id] = true
	}
	for _, id := range afterDev {
		if !left[id] && slices.Contains(before, id) {
			t.Errorf("destroy of staging removed %s, a dev object", id)
		}
	}
	for id := range left {
		if strings.Contains(id, "pre_stable") {
			t.Errorf("destroy of staging left %s", id)
		}
	}
}

func TestPromotionAgainstDeployedUpstream(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	state := deployedDev(t)
	s := open(t, state, example(t))
	if _, err := s.Up(ctx, "staging", UpOptions{}); err != nil {
		t.Fatalf("up staging: %v", err)
	}
	s.Close()

	// The onboarding change: promo-importer, so far dev only, everywhere.
	onboarded := exampleEdited(t, catalog.ServicesFile, "    environments: [dev]\n", "")
	s = open(t, state, onboarded)
	if _, err := s.Preview(ctx, "production", PreviewOptions{}); err != nil {
		t.Fatalf("preview must only warn: %v", err)
	}
	want := `service "promo-importer" is not deployed in upstream stack "staging.services" yet`
	if !strings.Contains(s.out.String(), want) {
		t.Errorf("preview does not warn %q:\n%s", want, s.out)
	}
	_, err := s.Up(ctx, "production", UpOptions{})
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("up must fail with the promotion error, got %v", err)
	}
}

func TestUpstreamNeverDeployed(t *testing.T) {
	t.Parallel()
	s := open(t, t.TempDir(), example(t))
	_, err := s.Preview(context.Background(), "staging", PreviewOptions{})
	if !errors.Is(err, ErrUpstreamNotDeployed) || !strings.Contains(err.Error(), "deploy it first: platformctl up --stack dev --yes --offline") {
		t.Fatalf("want a message naming the stack to deploy first, got %v", err)
	}
}

// A value the provider refuses (a test-only catalog bypassing validation)
// fails preview with the provider's own message.
func TestProviderRejectsBadInput(t *testing.T) {
	t.Parallel()
	// What a faulty generator would register (the catalog refuses such an
	// identifier before the program runs): the environment's identifier
	// written as its name.
	s := openWith(t, t.TempDir(), example(t), func(_ context.Context, args *pulumi.ResourceTransformArgs) *pulumi.ResourceTransformResult {
		if args.Type != "harness:platform/environment:Environment" || args.Props["identifier"] != pulumi.String("int_stable") {
			return nil
		}
		args.Props["identifier"] = pulumi.String("int-stable")
		return &pulumi.ResourceTransformResult{Props: args.Props, Opts: args.Opts}
	})
	_, err := s.Preview(context.Background(), "dev", PreviewOptions{})
	if err == nil {
		t.Fatal("preview accepted an identifier Harness refuses")
	}
	if want := `invalid value for identifier ("int-stable")`; !strings.Contains(err.Error()+s.out.String(), want) {
		t.Errorf("want the provider's message %q, got %v\n%s", want, err, s.out)
	}
}

// A region whose name has a '-' works end to end: the stack applies, and
// every region a pipeline offers resolves to an infrastructure the
// simulated Harness holds.
func TestRegionWithDash(t *testing.T) {
	t.Parallel()
	c := catalogtest.ExampleWithRegionRenamed(t, "..", "euw2", "eu-w2")
	s := open(t, t.TempDir(), c)
	if _, err := s.Up(context.Background(), "dev", UpOptions{}); err != nil {
		t.Fatalf("up: %v\n%s", err, s.out)
	}
	recs := cloudRecords(t, s.state)
	infras := map[string]bool{}
	for _, r := range recs {
		if r.Type == "harness:platform/infrastructure:Infrastructure" {
			infras[r.Properties["identifier"].(string)] = true
		}
	}
	if !infras["int_stable_eu_w2_k8s"] {
		t.Fatalf("infrastructures %v", infras)
	}
	checked := 0
	for _, r := range recs {
		if r.Type != "harness:platform/pipeline:Pipeline" {
			continue
		}
		y := resolvedIn(t, recs, r.Properties["yaml"].(string))
		for _, region := range []string{"euw1", "eu-w2"} {
			if !strings.Contains(y, region) {
				continue
			}
			resolved := conformance.ResolveTargetRegion(y, region)
			id := "int_stable_" + strings.ReplaceAll(region, "-", "_") + "_k8s"
			if !strings.Contains(resolved, "- identifier: "+id+"\n") || !infras[id] {
				t.Errorf("%s: region %s does not resolve to a declared infrastructure", r.Name, region)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d pipeline regions", checked)
	}
}

// resolvedIn is a pipeline saved in the simulated Harness with the
// templates saved there applied to it, as YAML: what runs.
func resolvedIn(t *testing.T, recs map[string]simulated.Record, pipelineYAML string) string {
	t.Helper()
	var templates []plan.StageTemplate
	for _, r := range recs {
		if r.Type == "harness:platform/template:Template" {
			templates = append(templates, plan.StageTemplate{Identifier: r.Properties["identifier"].(string),
				Version: r.Properties["version"].(string), YAML: r.Properties["templateYaml"].(string)})
		}
	}
	doc, err := plan.Expanded(pipelineYAML, templates)
	if err != nil {
		t.Fatal(err)
	}
	b, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// servers is an offline session's simulated cloud.
func (s *Session) servers() *simulated.Servers { return s.cloud.(*simulated.Servers) }

// An upstream the backend cannot read (here a state store this CLI does
// not support; for real, a missing login) is reported with the
// backend's own error, not as an upstream never deployed with advice to
// deploy it.
func TestUpstreamUnreadableIsNotUndeployed(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	s := open(t, state, example(t))
	meta := filepath.Join(state, "backend", ".pulumi", "meta.yaml")
	if err := os.MkdirAll(filepath.Dir(meta), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(meta, []byte("version: 99\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := s.Preview(context.Background(), "staging", PreviewOptions{})
	if err == nil || errors.Is(err, ErrUpstreamNotDeployed) || strings.Contains(err.Error(), "platformctl up") ||
		!strings.Contains(err.Error(), `stack "staging" reads its upstream "dev", which could not be read`) || !strings.Contains(err.Error(), "state store unsupported") {
		t.Fatalf("want the backend's own error, got %v", err)
	}
}
