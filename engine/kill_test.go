package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
	exampletest "github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/internal/mocktest"
	"github.com/company/harness-platform/program"
	"github.com/company/harness-platform/simulated"
)

// A kill point: an up of dev killed (killCLI) right after the n-th step
// of one kind is done in a simulated cloud, before the CLI hears of it,
// so the object exists (or is changed, or gone) and the stack holds a
// pending operation for it. The points are placed by the steps the
// providers see, never by time, so a kill lands on the same step on any
// machine.
type killPoint struct {
	name string
	// deployed: the up starts from dev deployed (deployedDev), with the
	// catalog edited (edits: file, old, new); else from an empty state.
	deployed bool
	edits    [][3]string
	// The step: op by provider, of a type kind accepts (nil: any).
	op       apibudget.Op
	provider string
	kind     func(typ string) bool
	n        int
	// services: the step is in a service stack (they run two at once).
	services bool
	// pending is the pending operation the kill leaves.
	pending apitype.OperationType
}

const helmReleaseType = "kubernetes:helm.sh/v3:Release"

// An up interrupted midway, at any step, of any kind of resource of the
// dev stacks, is recovered: a create of each provider's objects (the
// rerun up is refused: the object exists), an update and a delete. Each
// time the killed run's lock refuses the next up until Unlock; Recover
// settles every pending operation the stacks hold; then up converges, a
// second up changes nothing, the simulated clouds hold exactly the
// objects the catalog declares, and Recover again settles nothing.
func TestInterruptedUpConverges(t *testing.T) {
	t.Parallel() // the kill takes only its own session's CLI (killCLI)
	c := example(t)
	isRelease := func(typ string) bool { return typ == helmReleaseType }
	notRelease := func(typ string) bool { return typ != helmReleaseType }
	// n of the first step of a kind in the service stacks (which run
	// two at once): the one after those of the platform stack.
	inServices := func(prefix string, kind func(string) bool) int {
		n := 0
		for _, typ := range mockTypes(t, c, "dev") {
			if strings.HasPrefix(typ, prefix) && (kind == nil || kind(typ)) {
				n++
			}
		}
		return n + 1
	}
	for _, k := range []killPoint{
		{name: "harness create", op: apibudget.Create, provider: "harness", n: 1, pending: apitype.OperationTypeCreating},
		{name: "aws create", op: apibudget.Create, provider: "aws", n: 1, pending: apitype.OperationTypeCreating},
		{name: "helm release create", op: apibudget.Create, provider: "kubernetes", kind: isRelease, n: 1, pending: apitype.OperationTypeCreating},
		{name: "kubernetes object create in a service stack", op: apibudget.Create, provider: "kubernetes", kind: notRelease,
			n: inServices("kubernetes:", notRelease), services: true, pending: apitype.OperationTypeCreating},
		{name: "github create in a service stack", op: apibudget.Create, provider: "github", n: inServices("github:", nil), services: true, pending: apitype.OperationTypeCreating},
		// The delegate's replicas (its Helm release) and a service's
		// description (a Harness service): killed at the first update.
		{name: "update", deployed: true, op: apibudget.Update, n: 1, pending: apitype.OperationTypeUpdating, edits: [][3]string{
			{"Pulumi.dev.yaml", "    replicas: 2\n", "    replicas: 3\n"},
			{catalog.ServicesFile, "description: Card and wallet payments.", "description: Card, wallet and voucher payments."},
		}},
		// promo-importer, a dev-only service, removed: killed at the
		// first delete.
		{name: "delete", deployed: true, op: apibudget.Delete, n: 1, pending: apitype.OperationTypeDeleting, edits: [][3]string{
			{catalog.ServicesFile, exampletest.L(t, "  - name: promo-importer\n    team: checkout\n    archetype: cron\n    repo: company/promotions\n") +
				exampletest.L(t, "    image: registry.company.io/checkout/promo-importer\n    environments: [dev]\n"), ""},
		}},
	} {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			interruptedUpConverges(t, c, k)
		})
	}
}

func interruptedUpConverges(t *testing.T, example *catalog.Catalog, k killPoint) {
	if runtime.GOOS != "linux" {
		t.Skip("killing the session's CLI reads /proc: Linux only (killCLI)")
	}
	ctx := context.Background()
	start := time.Now()
	step := func(what string) { t.Logf("%6.1fs %s", time.Since(start).Seconds(), what) }
	c, state := example, t.TempDir()
	if k.deployed {
		state = deployedDev(t)
		c = exampleEdits(t, k.edits...)
		step("dev deployed")
	}
	s := openCheckpointed(t, state, c)
	var seen atomic.Int32
	var killed atomic.Value // the step killed at: "provider key type"
	s.servers().Observe(simulated.StepFunc(func(op apibudget.Op, provider, key string) {
		if op != k.op || k.provider != "" && provider != k.provider {
			return
		}
		typ := ""
		if rec, ok := s.servers().Cloud(provider).Get(key); ok {
			typ = rec.Type
		}
		if k.kind != nil && !k.kind(typ) {
			return
		}
		if seen.Add(1) == int32(k.n) {
			// Done in the cloud; the runner dies before the CLI hears
			// so (a cancelled context would let the CLI finish its
			// in-flight steps and record them).
			killed.Store(provider + " " + key + " " + typ)
			killCLI(t, s.state)
		}
	}))
	_, err := s.Up(ctx, "dev", UpOptions{Parallel: 2})
	s.servers().Observe(nil)
	if killed.Load() == nil {
		t.Fatalf("the up made %d steps of the kind, not %d: the kill point is not reached (%v)", seen.Load(), k.n, err)
	}
	if err == nil {
		t.Fatal("the killed up succeeded; the test did not interrupt it")
	}
	step("killed after " + killed.Load().(string))
	stacks := append([]string{catalog.CredentialsStackName("dev")}, c.StacksOf("dev")...)
	left := pendingOps(t, s.state, stacks)
	if !slices.ContainsFunc(left, func(p pendingOp) bool {
		return p.Type == k.pending && (k.provider == "" || strings.HasPrefix(p.ResourceType, k.provider+":")) &&
			(k.kind == nil || k.kind(p.ResourceType)) && (!k.services || p.Stack != "dev")
	}) {
		t.Fatalf("the kill left no pending %s of the kind: %v", k.pending, left)
	}
	if _, err := s.Up(ctx, "dev", UpOptions{}); err == nil || !strings.Contains(err.Error(), "locked") {
		t.Fatalf("the killed run's lock must refuse the next up, got %v", err)
	}
	if _, err := s.Unlock(ctx, "dev"); err != nil {
		t.Fatal(err)
	}
	if k.pending == apitype.OperationTypeCreating {
		// The object exists: creating it again is refused, as Harness
		// (and, in the simulation, every service) refuses a duplicate; a
		// delegate token in Harness's own words, and the advice is to
		// recover, not to rotate (the token is active).
		if _, err := s.Up(ctx, "dev", UpOptions{}); err == nil || !strings.Contains(err.Error()+s.out.String(), "DUPLICATE_FIELD") &&
			!(strings.Contains(err.Error(), "Token with given name already exists") && strings.Contains(err.Error(), "platformctl recover --stack")) {
			t.Fatalf("rerunning up over an object the interrupted up created must be refused as a duplicate, got %v", err)
		}
		step("rerun refused")
	}
	left = pendingOps(t, s.state, stacks)
	settled, err := s.Recover(ctx, "dev", RepairOptions{})
	if err != nil {
		t.Fatalf("recover: %v\n%s", err, s.out)
	}
	step("recovered")
	for _, p := range left {
		if !slices.ContainsFunc(settled, func(got optrefresh.PendingCreate) bool { return got.URN == p.URN }) {
			t.Errorf("recover did not settle the pending %s of %s", p.Type, p.URN)
		}
	}
	if after := pendingOps(t, s.state, stacks); len(after) != 0 {
		t.Errorf("after recover the stacks hold pending operations: %v", after)
	}
	if _, err := s.Up(ctx, "dev", UpOptions{}); err != nil {
		t.Fatalf("up after recover: %v\n%s", err, s.out)
	}
	step("up")
	res, err := s.Up(ctx, "dev", UpOptions{})
	if err != nil {
		t.Fatal(err)
	}
	step("quiet up")
	onlyOp(t, "up after convergence", opTypes(*res.Summary.ResourceChanges), apitype.OpSame)
	for _, provider := range []string{"harness", "aws", "kubernetes", "github"} {
		want := 0
		for _, stack := range stacks {
			want += mockCount(t, c, stack, provider+":", mocktest.WithDryRun(true))
		}
		if got := len(s.servers().Cloud(provider).IDs()); got != want {
			t.Errorf("after the interrupted up, recover and up the simulated %s holds %d objects, want %d", provider, got, want)
		}
	}
	if again, err := s.Recover(ctx, "dev", RepairOptions{}); err != nil || len(again) != 0 {
		t.Errorf("recover on a settled stack: %v, settled %v", err, again)
	}
}

// pendingOp is a pending operation a stack's checkpoint holds.
type pendingOp struct {
	Stack, URN, ResourceType string
	Type                     apitype.OperationType
}

// pendingOps are the pending operations the checkpoints of stacks hold,
// as the CLI wrote them (a stack never created holds none).
func pendingOps(t *testing.T, state string, stacks []string) []pendingOp {
	t.Helper()
	var out []pendingOp
	for _, stack := range stacks {
		data, err := os.ReadFile(filepath.Join(state, "backend", ".pulumi", "stacks", "harness-platform", stack+".json"))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var cp struct {
			Checkpoint struct {
				Latest struct {
					PendingOperations []struct {
						Type     apitype.OperationType `json:"type"`
						Resource struct{ URN, Type string }
					} `json:"pending_operations"`
				}
			}
		}
		if err := json.Unmarshal(data, &cp); err != nil {
			t.Fatal(err)
		}
		for _, op := range cp.Checkpoint.Latest.PendingOperations {
			out = append(out, pendingOp{Stack: stack, URN: op.Resource.URN, ResourceType: op.Resource.Type, Type: op.Type})
		}
	}
	return out
}

// mockTypes are the types of the resources the program registers for
// stack (a preview's), one entry per resource.
func mockTypes(t *testing.T, c *catalog.Catalog, stack string) []string {
	t.Helper()
	rec := &mocktest.Recorder{StackOutputs: map[string]resource.PropertyMap{}}
	if err := mocktest.Run(program.New(c.Files()), stack, rec, mocktest.WithDryRun(true)); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rec.Resources() {
		out = append(out, r.Type)
	}
	return out
}

// exampleEdits is the example catalog with each edit (file, old, new)
// made: the first old in file replaced by new; the test fails if the
// example no longer holds old.
func exampleEdits(t *testing.T, edits ...[3]string) *catalog.Catalog {
	t.Helper()
	files, err := catalogtest.ExampleFiles("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		file, old, new := e[0], e[1], e[2]
		if !bytes.Contains(files[file], []byte(old)) {
			t.Fatalf("the example's %s no longer holds %q; update the test", file, old)
		}
		files[file] = bytes.Replace(files[file], []byte(old), []byte(new), 1)
	}
	c, err := catalog.Parse(files)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
