package components

import (
	"github.com/company/harness-platform/internal/catalogtest"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/mocktest"
)

func example(t *testing.T) *catalog.Catalog { return catalogtest.Example(t, "..") }

func refs() ProjectRefs {
	return ProjectRefs{OrgID: pulumi.String("default").ToStringOutput(), ProjectID: pulumi.String("platform").ToStringOutput()}
}

func run(t *testing.T, stack string, prog func(ctx *pulumi.Context) error, opts ...pulumi.RunOption) *mocktest.Recorder {
	t.Helper()
	rec := &mocktest.Recorder{StackOutputs: map[string]resource.PropertyMap{}}
	if err := mocktest.Run(prog, stack, rec, opts...); err != nil {
		t.Fatal(err)
	}
	return rec
}

func count(rec *mocktest.Recorder) map[string]int {
	n := map[string]int{}
	for _, r := range rec.Resources() {
		n[r.Type]++
	}
	return n
}

// children checks every non-component resource is parented to a component
// of the given type.
func children(t *testing.T, rec *mocktest.Recorder, componentType string) {
	for _, r := range rec.Resources() {
		if strings.HasPrefix(r.Type, "harness:") && !strings.Contains(r.Parent, componentType) {
			t.Errorf("%s %s is parented to %q, not the %s", r.Type, r.Name, r.Parent, componentType)
		}
	}
}

func TestFoundation(t *testing.T) {
	c := example(t)
	rec := run(t, "dev", func(ctx *pulumi.Context) error {
		_, err := NewFoundation(ctx, "foundation", &FoundationArgs{Catalog: c, Stack: c.Root(), GithubToken: pulumi.ToSecret(pulumi.String("tok")).(pulumi.StringOutput)})
		return err
	})
	n := count(rec)
	want := map[string]int{
		"harness:platform/project:Project":                 1,
		"harness:platform/usergroup:Usergroup":             len(c.Teams),
		"harness:platform/roleAssignments:RoleAssignments": len(c.Teams),
		"harness:platform/secretText:SecretText":           1,
		"harness:platform/githubConnector:GithubConnector": 1,
		"harness:platform/service:Service":                 len(c.Services),
	}
	for typ, w := range want {
		if n[typ] != w {
			t.Errorf("%s: %d, want %d", typ, n[typ], w)
		}
	}
	if n["harness:platform/organization:Organization"] != 0 {
		t.Error("organization created though org.create is false")
	}
	children(t, rec, FoundationType)
	for _, r := range rec.Resources() {
		protect := r.Type == "harness:platform/project:Project" || r.Type == "harness:platform/secretText:SecretText" || r.Type == "harness:platform/githubConnector:GithubConnector"
		if r.Protect != protect {
			t.Errorf("%s %s protect=%v, want %v", r.Type, r.Name, r.Protect, protect)
		}
	}

	c.Root().Foundation.Org.Create = true
	rec = run(t, "dev", func(ctx *pulumi.Context) error {
		_, err := NewFoundation(ctx, "foundation", &FoundationArgs{Catalog: c, Stack: c.Root(), GithubToken: pulumi.String("tok")})
		return err
	})
	if orgs := rec.OfType("harness:platform/organization:Organization"); len(orgs) != 1 || !orgs[0].Protect {
		t.Errorf("org.create: organizations %+v", orgs)
	}
}

func TestEnvironmentSlice(t *testing.T) {
	c := example(t)
	for _, stack := range c.Chain {
		st := c.Stacks[stack]
		rec := run(t, stack, func(ctx *pulumi.Context) error {
			_, err := NewEnvironmentSlice(ctx, "env", &EnvironmentSliceArgs{Stack: st, Refs: refs()})
			return err
		})
		n := count(rec)
		policies := 0
		if st.IsProduction() {
			policies = 1
		}
		if n["harness:platform/environment:Environment"] != 1 || n["harness:platform/kubernetesConnector:KubernetesConnector"] != len(st.Regions) ||
			n["harness:platform/infrastructure:Infrastructure"] != len(st.Regions) || n["harness:platform/policy:Policy"] != policies || n["harness:platform/policySet:PolicySet"] != policies {
			t.Errorf("%s: %v", stack, n)
		}
		children(t, rec, EnvironmentSliceType)
	}
}

func TestServiceDeployment(t *testing.T) {
	c := example(t)
	st := c.Stacks["production"]
	d := c.Deployments(st)[0]
	rec := run(t, "production", func(ctx *pulumi.Context) error {
		_, err := NewServiceDeployment(ctx, d.Service.Name, &ServiceDeploymentArgs{Deployment: d, Refs: refs()})
		return err
	})
	pipes, triggers := rec.OfType("harness:platform/pipeline:Pipeline"), rec.OfType("harness:platform/triggers:Triggers")
	if len(pipes) != 1 || len(triggers) != 1 {
		t.Fatalf("pipelines %d, triggers %d", len(pipes), len(triggers))
	}
	if triggers[0].Inputs["targetId"].StringValue() != "payment_service_prod" {
		t.Errorf("trigger target %v", triggers[0].Inputs["targetId"])
	}
	for _, want := range []string{"type: HarnessApproval", "type: Policy", "type: K8sCanaryDeploy", "type: K8sRollingRollback", "minimumCount: 2", "disallowPipelineExecutor: true"} {
		if !strings.Contains(pipes[0].Inputs["yaml"].StringValue(), want) {
			t.Errorf("production pipeline lacks %q", want)
		}
	}
	children(t, rec, ServiceDeploymentType)
}
