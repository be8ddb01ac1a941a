package components

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/internal/mocktest"
	"github.com/company/harness-platform/plan"
)

func build(t *testing.T, stack string) (*catalog.Catalog, *plan.Plan) {
	c := catalogtest.Example(t, "..")
	p, err := plan.Build(c, stack)
	if err != nil {
		t.Fatal(err)
	}
	return c, p
}

func run(t *testing.T, stack string, prog func(ctx *pulumi.Context) error) *mocktest.Recorder {
	t.Helper()
	rec := &mocktest.Recorder{StackOutputs: map[string]resource.PropertyMap{}}
	if err := mocktest.Run(prog, stack, rec); err != nil {
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

// children checks every Harness resource is parented to a component of the
// given type.
func children(t *testing.T, rec *mocktest.Recorder, componentType string) {
	for _, r := range rec.Resources() {
		if strings.HasPrefix(r.Type, "harness:") && !strings.Contains(r.Parent, componentType) {
			t.Errorf("%s %s is parented to %q, not the %s", r.Type, r.Name, r.Parent, componentType)
		}
	}
}

func foundation(p *plan.Plan) func(ctx *pulumi.Context) error {
	return func(ctx *pulumi.Context) error {
		_, err := NewFoundation(ctx, "foundation", &FoundationArgs{Plan: p.Foundation, Scope: p.Scope})
		return err
	}
}

func TestFoundation(t *testing.T) {
	c, p := build(t, "dev")
	rec := run(t, "dev", foundation(p))
	n := count(rec)
	want := map[string]int{
		"harness:platform/project:Project":                                     1,
		"harness:platform/usergroup:Usergroup":                                 len(c.Teams),
		"harness:platform/roleAssignments:RoleAssignments":                     len(c.Teams),
		"harness:platform/secretText:SecretText":                               2, // GitHub App key, registry password: references
		"harness:platform/awsSecretManagerConnector:AwsSecretManagerConnector": 1,
		"harness:platform/githubConnector:GithubConnector":                     2, // manifests, this repository (the CI pipeline's codebase)
		"harness:platform/dockerConnector:DockerConnector":                     1,
		"harness:platform/pipeline:Pipeline":                                   1, // the CI pipeline that runs this program
		"harness:platform/triggers:Triggers":                                   2, // its pull request and push triggers
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
		protect := r.Type == "harness:platform/project:Project" || r.Type == "harness:platform/secretText:SecretText" ||
			r.Type == "harness:platform/awsSecretManagerConnector:AwsSecretManagerConnector" ||
			r.Type == "harness:platform/githubConnector:GithubConnector" || r.Type == "harness:platform/dockerConnector:DockerConnector"
		if r.Protect != protect {
			t.Errorf("%s %s protect=%v, want %v", r.Type, r.Name, r.Protect, protect)
		}
	}
	// No credential reaches Harness or the state: each secret is a
	// reference to its name in the AWS Secrets Manager connector, and the
	// GitHub connectors authenticate as the App with its key's secret.
	for _, r := range rec.OfType("harness:platform/secretText:SecretText") {
		v := r.Inputs["value"]
		for v.IsSecret() {
			v = v.SecretValue().Element
		}
		if r.Inputs["valueType"].StringValue() != "Reference" || r.Inputs["secretManagerIdentifier"].StringValue() != p.Foundation.SecretManager.Identifier ||
			(v.StringValue() != "harness-platform/harness/github-app-key" && v.StringValue() != "harness-platform/harness/registry-password") {
			t.Errorf("secret %s: %v", r.Name, r.Inputs)
		}
	}
	for _, r := range rec.OfType("harness:platform/githubConnector:GithubConnector") {
		http := r.Inputs["credentials"].ObjectValue()["http"].ObjectValue()
		api := r.Inputs["apiAuthentication"].ObjectValue()
		for _, auth := range []resource.PropertyMap{http, api} {
			app := auth["githubApp"].ObjectValue()
			if app["privateKeyRef"].StringValue() != plan.GithubAppKeySecretID || app["applicationId"].StringValue() != example.L(t, "1000003") || auth.HasValue("tokenRef") || auth.HasValue("username") {
				t.Errorf("connector %s authenticates with %v", r.Name, auth)
			}
		}
	}
	// The CI pipeline is registered as planned, its triggers target it,
	// and both wait for this repository's connector.
	ci := p.Foundation.CI
	pipelines := rec.OfType("harness:platform/pipeline:Pipeline")
	if len(pipelines) != 1 || pipelines[0].Inputs["yaml"].StringValue() != ci.Pipeline.YAML || pipelines[0].Inputs["identifier"].StringValue() != ci.Pipeline.Identifier {
		t.Errorf("CI pipeline registered as %+v", pipelines)
	} else if !dependsOn(pipelines[0].Dependencies, ci.Connector.Identifier) {
		t.Errorf("the CI pipeline does not wait for its codebase's connector: %v", pipelines[0].Dependencies)
	}
	planned := map[string]string{}
	for _, tr := range ci.Triggers {
		planned[tr.Identifier] = tr.YAML
	}
	for _, tr := range rec.OfType("harness:platform/triggers:Triggers") {
		if tr.Inputs["targetId"].StringValue() != ci.Pipeline.Identifier || tr.Inputs["yaml"].StringValue() != planned[tr.Name] ||
			!dependsOn(tr.Dependencies, ci.Pipeline.Identifier) {
			t.Errorf("trigger %s: target %v, depends on %v", tr.Name, tr.Inputs["targetId"], tr.Dependencies)
		}
	}
	p.Foundation.Organization = &plan.Organization{Identifier: "default", Name: "default"}
	rec = run(t, "dev", foundation(p))
	if orgs := rec.OfType("harness:platform/organization:Organization"); len(orgs) != 1 || !orgs[0].Protect {
		t.Errorf("org.create: organizations %+v", orgs)
	}
}

// dependsOn reports whether deps holds the URN of a resource named name.
func dependsOn(deps []string, name string) bool {
	for _, d := range deps {
		if strings.HasSuffix(d, "::"+name) {
			return true
		}
	}
	return false
}

// What an object needs becomes its DependsOn: the connector needs the
// token secret, each service the connector.
func TestFoundationDependencies(t *testing.T) {
	_, p := build(t, "dev")
	rec := run(t, "dev", foundation(p))
	deps := map[string][]string{}
	for _, r := range rec.Resources() {
		deps[r.Name] = r.Dependencies
	}
	has := func(name, dep string) {
		for _, d := range deps[name] {
			if strings.HasSuffix(d, "::"+dep) {
				return
			}
		}
		t.Errorf("%s depends on %v, not on %s", name, deps[name], dep)
	}
	has("github_platform_next_cross_org", "github_app_private_key")
	has("github_app_private_key", "aws_secrets_manager")
	has("docker_registry_password", "aws_secrets_manager")
	has("github_platform_next_cross_org", "platform")
	has("company_registry", "docker_registry_password")
	has("payments_team-_pipeline_executor", "payments_team")
}

// A service stack of the root environment declares its services' Harness
// services at the stack's root (where a state move puts them); their
// Values files are each environment's (TestServiceDeployment).
func TestCatalogServices(t *testing.T) {
	c, p := build(t, "dev.services")
	rec := run(t, "dev.services", func(ctx *pulumi.Context) error {
		return DeclareCatalogServices(ctx, p.Scope, p.CatalogServices, Resources{})
	})
	n := count(rec)
	if n["harness:platform/service:Service"] != len(c.Services) || len(n) != 1 {
		t.Errorf("declared %v, want a service for each of %d services", n, len(c.Services))
	}
	for _, r := range rec.Resources() {
		if !strings.HasSuffix(r.Parent, "pulumi:pulumi:Stack::harness-platform-dev.services") {
			t.Errorf("%s %s is parented to %q, not the stack", r.Type, r.Name, r.Parent)
		}
	}
}

func TestEnvironmentSlice(t *testing.T) {
	c := catalogtest.Example(t, "..")
	for _, stack := range c.Chain {
		_, p := build(t, stack)
		rec := run(t, stack, func(ctx *pulumi.Context) error {
			_, err := NewEnvironmentSlice(ctx, "env", &EnvironmentSliceArgs{Scope: p.Scope, Environment: p.Environment, Clusters: p.Clusters, ChangeWindow: p.ChangeWindow})
			return err
		})
		n := count(rec)
		policies := 0
		if p.Production {
			policies = 1
		}
		regions := len(c.Stacks[stack].Regions)
		if n["harness:platform/environment:Environment"] != 1 || n["harness:platform/kubernetesConnector:KubernetesConnector"] != regions ||
			n["harness:platform/infrastructure:Infrastructure"] != regions || n["harness:platform/policy:Policy"] != policies || n["harness:platform/policySet:PolicySet"] != policies {
			t.Errorf("%s: %v", stack, n)
		}
		children(t, rec, EnvironmentSliceType)
	}
}

func TestServiceDeployment(t *testing.T) {
	_, p := build(t, "production.services")
	d := p.Deployments[0]
	rec := run(t, "production", func(ctx *pulumi.Context) error {
		_, err := NewServiceDeployment(ctx, d.Service, &ServiceDeploymentArgs{Scope: p.Scope, Deployment: d})
		return err
	})
	pipes, triggers := rec.OfType("harness:platform/pipeline:Pipeline"), rec.OfType("harness:platform/triggers:Triggers")
	if len(pipes) != 1 || len(triggers) != 1 {
		t.Fatalf("pipelines %d, triggers %d", len(pipes), len(triggers))
	}
	if triggers[0].Inputs["targetId"].StringValue() != "payment_service_prod" {
		t.Errorf("trigger target %v", triggers[0].Inputs["targetId"])
	}
	if pipes[0].Inputs["yaml"].StringValue() != d.Pipeline.YAML || triggers[0].Inputs["yaml"].StringValue() != d.Trigger.YAML {
		t.Error("the registered YAML is not the plan's")
	}
	if len(triggers[0].Dependencies) != 1 || !strings.HasSuffix(triggers[0].Dependencies[0], "::payment_service_prod") {
		t.Errorf("trigger depends on %v, want its pipeline", triggers[0].Dependencies)
	}
	// payment-service verifies: its Values file and its monitored service
	// come first.
	ms := rec.OfType("harness:platform/monitoredService:MonitoredService")
	files := rec.OfType("harness:platform/fileStoreFile:FileStoreFile")
	if d.Monitored == nil || len(ms) != 1 || len(pipes[0].Dependencies) != 2 ||
		!strings.Contains(pipes[0].Dependencies[0], "fileStoreFile:FileStoreFile::payment_service_prod_values") ||
		!strings.Contains(pipes[0].Dependencies[1], "monitoredService:MonitoredService::payment_service_prod") {
		t.Errorf("monitored services %d; pipeline depends on %v, want its Values file and monitored service", len(ms), pipes[0].Dependencies)
	}
	if len(files) != 1 || files[0].Inputs["content"].StringValue() != d.Values.Content || files[0].Inputs["name"].StringValue() != "payment-service-prod-values.yaml" {
		t.Errorf("values files %d: %+v", len(files), files)
	}
	// request.enabled is deprecated in the real provider, which warns on
	// every preview and never sends it (terraform-provider-harness
	// resource_monitored_service.go: Deprecated "enabled field is
	// deprecated"; buildMonitoredServiceRequest does not read it).
	if len(ms) == 1 {
		if _, set := ms[0].Inputs["request"].ObjectValue()["enabled"]; set {
			t.Error("the monitored service sets the deprecated request.enabled")
		}
	}
	children(t, rec, ServiceDeploymentType)
}

// An EKS kubeconfig asks `aws eks get-token` for a token as whoever runs
// it (their access entry says what they may do): it names no role to
// assume and holds no credential.
func TestKubeconfigRunsAsTheCaller(t *testing.T) {
	k, err := Kubeconfig("int-stable-euw1", "https://X.gr7.eu-west-1.eks.amazonaws.com", "Q0E=", "eu-west-1")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Users []struct {
			User struct {
				Exec struct {
					Command string
					Args    []string
				}
				Token string
			}
		}
	}
	if err := json.Unmarshal([]byte(k), &cfg); err != nil || len(cfg.Users) != 1 {
		t.Fatalf("%v: %s", err, k)
	}
	u := cfg.Users[0].User
	if u.Exec.Command != plan.CredentialPlugin || strings.Join(u.Exec.Args, " ") != "eks get-token --cluster-name int-stable-euw1 --region eu-west-1 --output json" || u.Token != "" {
		t.Errorf("user %+v", u)
	}
}
