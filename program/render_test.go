package program

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/calendar"
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/mocktest"
	"github.com/company/harness-platform/plan"
)

// kinds maps the resource types whose yaml input (a file's content) is a
// plan document.
var kinds = map[string]plan.Kind{
	tService: plan.KindService, tInfra: plan.KindInfrastructure, tPipeline: plan.KindPipeline, tTrigger: plan.KindTrigger,
	tFile: plan.KindFile, tTemplate: plan.KindTemplate,
}

// planDocument is the input of r that holds its plan document.
func planDocument(r mocktest.Registered) string {
	if r.Type == tFile {
		return str(r, "content")
	}
	if r.Type == tTemplate {
		return str(r, "templateYaml")
	}
	return str(r, "yaml")
}

// The YAML the program registers is byte for byte what `render` prints,
// for every stack of the example catalog and of a generated 100-service
// catalog: both come from one plan.
func TestRegisteredYAMLIsRendered(t *testing.T) {
	synthetic := catalogtest.SyntheticCatalog(t, "..", 100)
	for name, c := range map[string]*catalog.Catalog{"example": example(t), "synthetic": synthetic} {
		for _, stack := range c.AllStacks() {
			p, err := plan.Build(c, stack)
			if err != nil {
				t.Fatal(err)
			}
			var rendered bytes.Buffer
			if err := plan.Render(&rendered, p, plan.RenderOptions{}); err != nil {
				t.Fatal(err)
			}
			// Registrations arrive concurrently: reassemble them in the
			// plan's document order, then compare the bytes.
			byRef := map[plan.Ref]string{}
			for _, r := range mustRunOne(t, c, stack).Resources() {
				if kind, ok := kinds[r.Type]; ok {
					byRef[plan.Ref{Kind: kind, Identifier: str(r, "identifier")}] = planDocument(r)
				}
			}
			docs := p.Documents()
			if len(byRef) != len(docs) || len(docs) < len(p.Deployments)*2 || len(docs) == 0 {
				t.Fatalf("%s/%s: %d documents registered, the plan has %d", name, stack, len(byRef), len(docs))
			}
			var registered bytes.Buffer
			for _, d := range docs {
				registered.WriteString("---\n# " + stack + ": " + string(d.Kind) + " " + d.Identifier + "\n" + byRef[plan.Ref{Kind: d.Kind, Identifier: d.Identifier}])
			}
			if !bytes.Equal(rendered.Bytes(), registered.Bytes()) {
				t.Errorf("%s/%s: the registered YAML (%d bytes) differs from the rendering (%d bytes)", name, stack, registered.Len(), rendered.Len())
			}
		}
	}
}

// Each stack reads every contract it needs once, before registering
// anything: a platform stack its upstream platform stack's and, when it
// declares EKS clusters, its own last (the versions they run); a service
// stack its platform stack's, the upstream environment's (its platform
// stack and service stacks: promotion holds across them) and its own last.
func TestContractsAreReadOnce(t *testing.T) {
	c := example(t)
	org := "organization/harness-platform/"
	want := map[string][]string{
		"dev":                 {"dev"},
		"dev.services":        {"dev", "dev.services"},
		"staging":             {"dev", "staging"},
		"staging.services":    {"staging", "dev", "dev.services", "staging.services"},
		"production":          {"staging", "production"},
		"production.services": {"production", "staging", "staging.services", "production.services"},
	}
	if got := c.AllStacks(); len(got) != len(want) {
		t.Fatalf("stacks %v, want %d", got, len(want))
	}
	for stack, names := range want {
		rec := &mocktest.Recorder{StackOutputs: deployedChain(c)}
		if err := mocktest.Run(New(c.Files()), stack, rec); err != nil {
			t.Fatal(err)
		}
		var w []string
		for _, n := range names {
			w = append(w, org+n)
		}
		if got := strings.Join(rec.Reads(), ","); got != strings.Join(w, ",") {
			t.Errorf("%s read %q, want %q", stack, got, strings.Join(w, ","))
		}
	}
}

// A cluster upgrade EKS would refuse (more than one minor version, or
// down) is refused before anything is registered, in a preview too: the
// versions the clusters run come from the stack's own last contract.
func TestUpgradeGuard(t *testing.T) {
	c := example(t)
	want := c.Stacks["production"].Cluster.KubernetesVersion
	for _, tc := range []struct {
		deployed string
		refusal  string
	}{
		{fmt.Sprintf("1.%d", calendar.Minor(want)-1), ""},
		{want, ""},
		{fmt.Sprintf("1.%d", calendar.Minor(want)-2), fmt.Sprintf(
			"upgrade check failed: cluster prod-euw1 runs Kubernetes 1.%d, and Pulumi.production.yaml:45:5 (production) asks for %s: EKS would refuse the update (InvalidParameterException: Unsupported Kubernetes minor version update from 1.%[1]d to %[2]s); set kubernetesVersion \"1.%d\", up, and repeat until %[2]s",
			calendar.Minor(want)-2, want, calendar.Minor(want)-1)},
		{fmt.Sprintf("1.%d", calendar.Minor(want)+1), "EKS never downgrades"},
	} {
		outputs := deployedChain(c)
		outputs["production"][OutKubernetesVersions] = resource.NewObjectProperty(resource.NewPropertyMapFromMap(map[string]any{"euw1": tc.deployed, "euw2": want}))
		for _, preview := range []bool{true, false} {
			rec := &mocktest.Recorder{StackOutputs: outputs}
			err := mocktest.Run(New(c.Files()), "production", rec, mocktest.WithDryRun(preview))
			switch {
			case tc.refusal == "" && err != nil:
				t.Errorf("deployed %s, preview=%v: %v", tc.deployed, preview, err)
			case tc.refusal != "" && (err == nil || !strings.Contains(err.Error(), tc.refusal)):
				t.Errorf("deployed %s, preview=%v: want %q, got %v", tc.deployed, preview, tc.refusal, err)
			case tc.refusal != "" && len(rec.Resources()) != 0:
				t.Errorf("deployed %s: the refused run registered %d resources", tc.deployed, len(rec.Resources()))
			}
		}
	}
}

// Decommissioning: a plain `pulumi up` that would delete a Production
// pipeline whose service was not retired first is refused before anything
// is registered; a preview warns.
func TestDecommissionGuard(t *testing.T) {
	c := example(t)
	outputs := deployedChain(c)
	stack := catalogtest.OnlyServiceStack(t, c, "production")
	previous := upstreamOutputs(c, stack, append(planServices(t, c, stack), "old-service"))
	outputs[stack] = previous
	rec := &mocktest.Recorder{StackOutputs: outputs}
	err := mocktest.Run(New(c.Files()), stack, rec, mocktest.WithDryRun(false))
	if err == nil || !strings.Contains(err.Error(), "would delete the Production pipeline of old-service, not retired in its last deployment") {
		t.Fatalf("up: %v", err)
	}
	if n := len(rec.Resources()); n != 0 {
		t.Errorf("the refused update registered %d resources", n)
	}
	rec = &mocktest.Recorder{StackOutputs: outputs}
	if err := mocktest.Run(New(c.Files()), stack, rec, mocktest.WithDryRun(true)); err != nil {
		t.Fatalf("preview must only warn: %v", err)
	}
	// Retired in the last deployment: its removal is the documented path.
	previous[OutRetired] = resource.NewArrayProperty([]resource.PropertyValue{resource.NewStringProperty("old-service")})
	rec = &mocktest.Recorder{StackOutputs: outputs}
	if err := mocktest.Run(New(c.Files()), stack, rec, mocktest.WithDryRun(false)); err != nil {
		t.Fatalf("removing a retired service: %v", err)
	}
}

// Decommissioning: the root environment's service stacks (which own the
// Harness services) refuse, in a preview too, to delete a service another
// environment's service stack still deploys (Harness would refuse the
// deletion halfway through the update); once no other stack deploys it,
// the entry may go.
func TestFoundationKeepsServicesOthersDeploy(t *testing.T) {
	c := example(t)
	outputs := deployedChain(c)
	for _, name := range c.AllStacks() {
		if _, shard := catalog.SplitStack(name); shard != "" {
			outputs[name] = upstreamOutputs(c, name, append(planServices(t, c, name), "old-service"))
		}
	}
	owner := catalogtest.OnlyServiceStack(t, c, "dev")
	for _, preview := range []bool{true, false} {
		rec := &mocktest.Recorder{StackOutputs: outputs}
		err := mocktest.Run(New(c.Files()), owner, rec, mocktest.WithDryRun(preview))
		want := `service "old-service" leaves the catalog, but stack "staging.services" still deploys it`
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `stack "production.services" still deploys it`) {
			t.Fatalf("preview=%v: want %q, got %v", preview, want, err)
		}
		if n := len(rec.Resources()); n != 0 {
			t.Errorf("the refused run registered %d resources", n)
		}
	}
	// Removed from staging and production first: the entry may go.
	for _, name := range []string{"staging.services", "production.services"} {
		outputs[name] = upstreamOutputs(c, name, planServices(t, c, name))
	}
	rec := &mocktest.Recorder{StackOutputs: outputs}
	if err := mocktest.Run(New(c.Files()), owner, rec, mocktest.WithDryRun(false)); err != nil {
		t.Fatalf("removing a service no other stack deploys: %v", err)
	}
	if got := strings.Join(rec.Reads(), ","); !strings.Contains(got, "staging.services") || !strings.Contains(got, "production.services") {
		t.Errorf("the foundation read %q, want the other stacks' contracts", got)
	}
}

// An upstream deployed with another org or project than the foundation
// stack file names is refused, in a preview too.
func TestFoundationMismatch(t *testing.T) {
	c := example(t)
	up := upstreamOutputs(c, "dev", nil)
	up[OutFoundation].ObjectValue()[FoundationProjectID] = resource.NewStringProperty("elsewhere")
	rec := &mocktest.Recorder{StackOutputs: map[string]resource.PropertyMap{"dev": up}}
	err := mocktest.Run(New(c.Files()), "staging", rec, mocktest.WithDryRun(true))
	if err == nil || !strings.Contains(err.Error(), `deploys into org "default" project "elsewhere"`) {
		t.Fatalf("want a foundation mismatch, got %v", err)
	}
}

func planServices(t *testing.T, c *catalog.Catalog, stack string) []string {
	p, err := plan.Build(c, stack)
	if err != nil {
		t.Fatal(err)
	}
	return p.Services()
}
