package plan

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/document"
	"github.com/company/harness-platform/ident"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/conformance"
)

// example is the example catalog with the values its golden files and
// the tests name (bootstrap does not rewrite testdata/).
func example(t testing.TB) *catalog.Catalog { return catalogtest.Shipped(t, "..") }

func mustBuild(t testing.TB, c *catalog.Catalog, stack string) *Plan {
	t.Helper()
	p, err := Build(c, stack)
	if err != nil {
		t.Fatalf("%s: %v", stack, err)
	}
	return p
}

// deploymentOf is service's deployment in stack, failing t without one.
func deploymentOf(t testing.TB, c *catalog.Catalog, stack, service string) Deployment {
	t.Helper()
	for _, d := range mustBuild(t, c, stack).Deployments {
		if d.Service == service {
			return d
		}
	}
	t.Fatalf("%s: no deployment of %s", stack, service)
	return Deployment{}
}

func inputFor(t *testing.T, c *catalog.Catalog, st *catalog.Stack, service string) *deploymentInput {
	s, ok := c.Service(service)
	if !ok {
		t.Fatalf("no service %s", service)
	}
	team, _ := c.Team(s.Team)
	platform, _ := c.Team(c.PlatformTeam)
	d := &deploymentInput{svc: &s, stack: st, scope: Scope{"default", "platform"}, teamGroup: team.UserGroup,
		platformTeam: platform.UserGroup, in: s.In[st.Name], tags: deploymentTags(&s, st)}
	d.names = namesOf(d)
	return d
}

func TestFoundationOnlyInTheRootStack(t *testing.T) {
	c := example(t)
	for _, stack := range c.AllStacks() {
		p := mustBuild(t, c, stack)
		if (p.Foundation != nil) != (stack == c.Chain[0]) {
			t.Errorf("%s: foundation %v", stack, p.Foundation != nil)
		}
		if p.Scope != (Scope{"default", "platform"}) {
			t.Errorf("%s: scope %+v, want the root stack file's", stack, p.Scope)
		}
	}
	f := mustBuild(t, c, "dev").Foundation
	services := mustBuild(t, c, "dev.services").CatalogServices
	if len(services) != len(c.Services) || len(f.UserGroups) != len(c.Teams) || len(f.RoleAssignments) != len(c.Teams) {
		t.Fatalf("foundation: %d services, %d groups, %d role assignments", len(services), len(f.UserGroups), len(f.RoleAssignments))
	}
	roles := map[string]string{}
	for _, r := range f.RoleAssignments {
		roles[r.UserGroup] = r.Role
	}
	if roles["platform_team"] != AdminRole || roles["payments_team"] != ExecutorRole {
		t.Errorf("roles: %v", roles)
	}
	// The connector signs as the GitHub App with the key a reference
	// secret names in AWS Secrets Manager; no value in the plan.
	if f.GithubConnector.App.PrivateKeyRef != f.GithubAppKey.Identifier || f.GithubAppKey.SecretManager != f.SecretManager.Identifier ||
		f.GithubAppKey.Reference != "harness-platform/harness/github-app-key" || f.RegistryPassword.Reference != "harness-platform/harness/registry-password" ||
		f.SecretManager.RoleArn != "arn:aws:iam::111111111111:role/harness-secrets-reader" {
		t.Errorf("secrets: %+v %+v, connector %+v, manager %+v", f.GithubAppKey, f.RegistryPassword, f.GithubConnector, f.SecretManager)
	}
}

// Each deployment needs its service, its environment, its Values file, the infrastructures
// of its regions and, in Production, the change-window policy set; each
// infrastructure needs its environment and connector.
func TestDependencies(t *testing.T) {
	c := example(t)
	p := mustBuild(t, c, "production.services")
	for _, d := range p.Deployments {
		s, _ := c.Service(d.Service)
		want := []Ref{{KindService, strings.ReplaceAll(d.Service, "-", "_")}, {KindEnvironment, "prod"}, {KindFile, strings.ReplaceAll(d.Service, "-", "_") + "_prod_values"}}
		for _, r := range s.In["production"].Regions {
			want = append(want, Ref{KindInfrastructure, "prod_" + r + "_k8s"})
		}
		want = append(want, Ref{KindPolicySet, "prod_change_window"})
		if s.Verification {
			want = append(want, Ref{KindMonitoredService, strings.ReplaceAll(d.Service, "-", "_") + "_prod"})
		}
		if !slices.Equal(d.Pipeline.Needs, want) {
			t.Errorf("%s needs %v, want %v", d.Service, d.Pipeline.Needs, want)
		}
		if !slices.Equal(d.Trigger.Needs, []Ref{{KindPipeline, d.Pipeline.Identifier}}) {
			t.Errorf("%s trigger needs %v", d.Service, d.Trigger.Needs)
		}
	}
	for _, cl := range p.Clusters {
		if !slices.Equal(cl.Infrastructure.Needs, []Ref{{KindEnvironment, "prod"}, {KindKubernetesConnector, cl.Connector.Identifier}}) {
			t.Errorf("%s needs %v", cl.Infrastructure.Identifier, cl.Infrastructure.Needs)
		}
	}
}

// The pipeline's tags equal the tags inside its YAML, as the provider
// requires; so do the trigger's and the service's.
func TestResourceTagsEqualYAMLTags(t *testing.T) {
	c := example(t)
	check := func(what string, tags []string, y string) {
		var doc map[string]struct{ Tags map[string]string }
		if err := yaml.Unmarshal([]byte(y), &doc); err != nil {
			t.Fatal(err)
		}
		for _, v := range doc {
			if got := TagList(v.Tags); !slices.Equal(got, tags) {
				t.Errorf("%s: resource tags %v, YAML tags %v", what, tags, got)
			}
		}
	}
	for _, stack := range c.AllStacks() {
		p := mustBuild(t, c, stack)
		for _, d := range p.Deployments {
			check(d.Pipeline.Identifier, d.Pipeline.Tags, d.Pipeline.YAML)
			check(d.Trigger.Identifier, d.Trigger.Tags, d.Trigger.YAML)
		}
		for _, s := range p.CatalogServices {
			check(s.Identifier, s.Tags, s.YAML)
		}
	}
}

func TestProductionGates(t *testing.T) {
	c := example(t)
	for _, stack := range c.AllStacks() {
		p := mustBuild(t, c, stack)
		for _, d := range p.Deployments {
			y := resolvedOf(t, d.Pipeline)
			gated := strings.Contains(y, "type: HarnessApproval") && strings.Contains(y, "type: Policy")
			if gated != p.Production {
				t.Errorf("%s %s: gates %v, production %v", stack, d.Service, gated, p.Production)
			}
			if want := "enabled: " + fmt.Sprint(!d.Retired); !strings.Contains(d.Trigger.YAML, want) {
				t.Errorf("%s %s: trigger should be %q", stack, d.Service, want)
			}
		}
	}
}

// A region whose name has a '-' is deployable: the infrastructure the
// pipeline asks for at run time is the infrastructure the stack declares.
func TestRegionWithDash(t *testing.T) {
	c := catalogtest.ExampleWithRegionRenamed(t, "..", "euw2", "eu-w2")
	p := mustBuild(t, c, "production.services")
	declared := map[string]bool{}
	for _, cl := range p.Clusters {
		declared[cl.Infrastructure.Identifier] = true
	}
	if !declared["prod_eu_w2_k8s"] {
		t.Fatalf("declared %v", declared)
	}
	for _, d := range p.Deployments {
		var doc struct {
			Pipeline struct {
				Variables []struct{ Name, Value string }
				Stages    []struct {
					Stage struct {
						Spec struct {
							Environment struct {
								InfrastructureDefinitions []struct{ Identifier string } `yaml:"infrastructureDefinitions"`
							}
						}
					}
				}
			}
		}
		if err := yaml.Unmarshal([]byte(resolvedOf(t, d.Pipeline)), &doc); err != nil {
			t.Fatal(err)
		}
		// The Deployment stage is the last (Production's first runs pre-stable).
		expr := doc.Pipeline.Stages[len(doc.Pipeline.Stages)-1].Stage.Spec.Environment.InfrastructureDefinitions[0].Identifier
		allowed := doc.Pipeline.Variables[1].Value
		regions := strings.Split(strings.TrimSuffix(strings.TrimPrefix(allowed, "<+input>.allowedValues("), ")"), ",")
		for _, region := range regions {
			// What Harness resolves for this runtime value.
			resolved := conformance.ResolveTargetRegion(expr, region)
			if !declared[resolved] {
				t.Errorf("%s: region %q resolves to infrastructure %q, which the stack does not declare (%v)", d.Service, region, resolved, declared)
			}
		}
	}
}

func TestGuards(t *testing.T) {
	c := example(t)
	prod := mustBuild(t, c, "production.services")
	upstream := &Deployed{Stack: "staging", Scope: prod.Scope, Services: prod.Services()}
	if v := Guard(c, prod, Observed{Upstream: upstream, Previous: &Deployed{Stack: "production", Services: prod.Services()}}); len(v) != 0 {
		t.Fatalf("a promoted, unchanged plan: %v", v)
	}

	missing := &Deployed{Stack: "staging", Scope: prod.Scope, Services: prod.Services()[1:]}
	v := Guard(c, prod, Observed{Upstream: missing})
	if len(v) != 1 || v[0].Guard != GuardPromotion || v[0].Blocking ||
		!strings.Contains(v[0].Message, `service "payment-service" is not deployed in upstream stack "staging" yet`) {
		t.Errorf("promotion: %v", v)
	}

	other := &Deployed{Stack: "staging", Scope: Scope{"other", "platform"}, Services: prod.Services()}
	if v := Guard(c, prod, Observed{Upstream: other}); len(v) != 1 || v[0].Guard != GuardFoundation || !v[0].Blocking {
		t.Errorf("foundation mismatch: %v", v)
	}

	previous := &Deployed{Stack: "production", Services: append(prod.Services(), "gone-service", "retired-service"), Retired: []string{"retired-service"}}
	v = Guard(c, prod, Observed{Upstream: upstream, Previous: previous})
	if len(v) != 1 || v[0].Guard != GuardDecommission || !strings.Contains(v[0].Message, "pipeline of gone-service,") {
		t.Errorf("decommission: %v", v)
	}
	// Outside Production, removing a service needs no retirement first.
	staging := mustBuild(t, c, "staging.services")
	if v := Guard(c, staging, Observed{Previous: &Deployed{Stack: "staging", Services: []string{"gone-service"}}}); len(v) != 0 {
		t.Errorf("staging decommission: %v", v)
	}

	dup := mustBuild(t, c, "production.services")
	dup.Deployments = append(dup.Deployments, dup.Deployments[0])
	if v := Guard(c, dup, Observed{}); len(v) != 3 || v[0].Guard != GuardIdentifiers || !v[0].Blocking {
		t.Errorf("duplicate identifiers: %v", v)
	}
}

// A Verify step's timeout leaves at least 15 minutes beyond its analysis
// duration: with timeout = duration it times out, and rolls back, whenever
// the analysis runs its full length.
func TestVerifyTimeoutExceedsDuration(t *testing.T) {
	c := catalogtest.Example(t, "..")
	p, err := Build(c, "production.services")
	if err != nil {
		t.Fatal(err)
	}
	verified := 0
	for _, d := range p.Deployments {
		var doc document.Document
		if err := yaml.Unmarshal([]byte(resolvedOf(t, d.Pipeline)), &doc); err != nil {
			t.Fatal(err)
		}
		spec, _, err := doc.Pipeline.Deployment()
		if err != nil {
			t.Fatal(err)
		}
		{
			for _, s := range spec.Execution.Steps {
				if s.Step.Type != "Verify" {
					continue
				}
				verified++
				var spec document.VerifySpec
				if err := s.Step.DecodeSpec(&spec); err != nil {
					t.Fatal(err)
				}
				duration, err1 := time.ParseDuration(spec.Spec.Duration)
				timeout, err2 := time.ParseDuration(s.Step.Timeout)
				if err1 != nil || err2 != nil || timeout < duration+15*time.Minute {
					t.Errorf("%s %s: duration %q, timeout %q; want a timeout of at least the duration plus 15m",
						d.Service, s.Step.Identifier, spec.Spec.Duration, s.Step.Timeout)
				}
			}
		}
	}
	if verified == 0 {
		t.Fatal("no Verify step in production")
	}
}

// The image chosen at run time and the catalog's replica count reach the
// cluster: each service's primary artifact is its catalog image in the
// foundation's registry, tagged with the pipeline's imageTag, and its
// Values file (a manifest of the service) carries the artifact and the
// replicas.
func TestServiceArtifactAndValues(t *testing.T) {
	c := example(t)
	f := mustBuild(t, c, "dev").Foundation
	if f.Registry.URL != "https://registry.company.io" || f.Registry.PasswordRef != RegistryPasswordID || f.RegistryPassword == nil {
		t.Fatalf("registry: %+v, password %+v", f.Registry, f.RegistryPassword)
	}
	for i, svc := range mustBuild(t, c, "dev.services").CatalogServices {
		s := c.Services[i]
		var doc document.ServiceDocument
		if err := yaml.Unmarshal([]byte(svc.YAML), &doc); err != nil {
			t.Fatal(err)
		}
		spec := doc.Service.ServiceDefinition.Spec
		if spec.Artifacts == nil || len(spec.Artifacts.Primary.Sources) != 1 {
			t.Fatalf("%s: no primary artifact:\n%s", s.Name, svc.YAML)
		}
		src := spec.Artifacts.Primary.Sources[0]
		var art document.DockerArtifact
		decodeInto(t, src.Spec, &art)
		if spec.Artifacts.Primary.PrimaryArtifactRef != src.Identifier || src.Type != "DockerRegistry" ||
			art.ConnectorRef != f.Registry.Identifier || "registry.company.io/"+art.ImagePath != s.Image || art.Tag != "<+pipeline.variables.imageTag>" {
			t.Errorf("%s: primary artifact %+v %+v", s.Name, spec.Artifacts.Primary, art)
		}
		if m := spec.Manifests; len(m) != 2 || m[1].Manifest.Type != "Values" || !strings.Contains(svc.YAML, "- /"+s.Name+"-<+env.identifier>-values.yaml\n") {
			t.Errorf("%s: the service does not render its manifests with the environment's Values file:\n%s", s.Name, svc.YAML)
		}
	}
}

// Every deployment carries its environment's Values file, under the name
// the service's manifests read it by in that environment.
func TestValuesPerEnvironment(t *testing.T) {
	c := example(t)
	files := 0
	for _, stack := range c.AllStacks() {
		p := mustBuild(t, c, stack)
		for _, d := range p.Deployments {
			s, _ := c.Service(d.Service)
			w := s.In[p.Platform].Workload
			v := d.Values
			if v.Name != s.Name+"-"+p.Environment.Identifier+"-values.yaml" || !slices.Contains(d.Pipeline.Needs, Ref{KindFile, v.Identifier}) {
				t.Errorf("%s %s: values file %s (%s), pipeline needs %v", stack, s.Name, v.Name, v.Identifier, d.Pipeline.Needs)
			}
			var got Values
			if err := yaml.Unmarshal([]byte(v.Content), &got); err != nil {
				t.Fatal(err)
			}
			want := Values{Image: "<+artifacts.primary.image>", Replicas: w.Replicas, Resources: ValueResources{
				Requests: ValueQuantities{w.Requests.CPU, w.Requests.Memory}, Limits: ValueQuantities{w.Limits.CPU, w.Limits.Memory}}}
			if got != want || w.Replicas == 0 || w.Limits.Memory == "" {
				t.Errorf("%s %s: values %+v, want %+v", stack, s.Name, got, want)
			}
			files++
		}
	}
	if files < 30 {
		t.Fatalf("only %d values files", files)
	}
	// dev runs half of what production runs.
	dev := deploymentOf(t, c, "dev.services", "payment-service").Values.Content
	prod := deploymentOf(t, c, "production.services", "payment-service").Values.Content
	if !strings.Contains(dev, "replicas: 2\n") || !strings.Contains(dev, "cpu: 125m") || !strings.Contains(prod, "replicas: 3\n") || !strings.Contains(prod, "cpu: \"1\"") {
		t.Errorf("payment-service values:\ndev:\n%s\nproduction:\n%s", dev, prod)
	}
}

// decodeInto reads a value decoded as `any` into a typed struct.
func decodeInto(t *testing.T, v, into any) {
	t.Helper()
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, into); err != nil {
		t.Fatal(err)
	}
}

// Each team runs its own services' pipelines, in every environment, and
// nothing else; the platform team administers the project.
func TestTeamsRunOnlyTheirPipelines(t *testing.T) {
	c := example(t)
	f := mustBuild(t, c, "dev").Foundation
	groups := map[string]ResourceGroup{}
	for _, g := range f.ResourceGroups {
		groups[g.Identifier] = g
	}
	pipelinesOf := map[string][]string{} // team -> pipeline ids, from the stacks' plans
	for _, stack := range c.AllStacks() {
		for _, d := range mustBuild(t, c, stack).Deployments {
			s, _ := c.Service(d.Service)
			pipelinesOf[s.Team] = append(pipelinesOf[s.Team], d.Pipeline.Identifier)
		}
	}
	for _, a := range f.RoleAssignments {
		team := ""
		for _, tm := range c.Teams {
			if tm.UserGroup == a.UserGroup {
				team = tm.Name
			}
		}
		if team == c.PlatformTeam {
			if a.Role != AdminRole || a.ResourceGroup != AllProjectResources {
				t.Errorf("platform team: %+v", a)
			}
			continue
		}
		g, ok := groups[a.ResourceGroup]
		if a.Role != ExecutorRole || !ok || g.Team != team {
			t.Errorf("%s: role %s on %q, want %s on its own resource group", team, a.Role, a.ResourceGroup, ExecutorRole)
			continue
		}
		var pipelines []string
		for _, sel := range g.Resources {
			if sel.Type == "PIPELINE" {
				pipelines = sel.Identifiers
			}
		}
		want := slices.Sorted(slices.Values(pipelinesOf[team]))
		if !slices.Equal(pipelines, want) {
			t.Errorf("%s: resource group pipelines %v, want %v", team, pipelines, want)
		}
	}
	if len(groups) != len(c.Teams)-1 {
		t.Errorf("%d resource groups for %d teams besides the platform team", len(groups), len(c.Teams)-1)
	}
}

// Verification verifies: every service that verifies has, in every
// environment it is deployed to, Verify steps of its deployment's kind
// and a monitored service of that service and
// environment (what a Verify step of type Default analyses) whose
// Prometheus queries are the archetype's, filtered on its namespaces
// there; a service that does not verify has neither Verify steps nor a
// monitored service.
func TestVerifyStepsHaveMonitoredServices(t *testing.T) {
	c := example(t)
	verifySteps := 0
	for _, stack := range c.AllStacks() {
		p := mustBuild(t, c, stack)
		st, _, _ := c.EnvironmentOf(stack)
		if p.Prometheus == nil || p.Prometheus.URL != st.Verification.PrometheusURL {
			t.Fatalf("%s: prometheus connector %+v", stack, p.Prometheus)
		}
		for _, d := range p.Deployments {
			s, _ := c.Service(d.Service)
			steps := strings.Count(resolvedOf(t, d.Pipeline), "type: Verify\n")
			verifySteps += steps
			if !s.Verification {
				if d.Monitored != nil || steps > 0 {
					t.Errorf("%s/%s does not verify, but has %d Verify steps and monitored service %+v", stack, s.Name, steps, d.Monitored)
				}
				continue
			}
			// Every environment verifies what it deploys, pre-stable
			// included (a Production run deploys only a tag pre-stable
			// has just deployed and verified): the monitored service is
			// read by a Verify step of the deployment's own kind.
			kind := map[string]string{catalog.Canary: "Canary", catalog.Rolling: "Rolling"}[s.In[st.Name].Strategy]
			if steps == 0 || strings.Count(resolvedOf(t, d.Pipeline), "type: "+kind+"\n") != steps {
				t.Errorf("%s/%s verifies, but its %s deployment has %d Verify steps of type %s: its monitored service is read by nothing", stack, s.Name, s.In[st.Name].Strategy, steps, kind)
			}
			m := d.Monitored
			if m == nil || m.ServiceRef != ident.Service(s.Name) || m.EnvironmentRef != st.Environment.Identifier {
				t.Fatalf("%s/%s: monitored service %+v", stack, s.Name, m)
			}
			var spec prometheusSpec
			if err := json.Unmarshal([]byte(m.HealthSource.Spec), &spec); err != nil {
				t.Fatal(err)
			}
			if spec.ConnectorRef != p.Prometheus.Identifier || len(spec.MetricDefinitions) != 2 {
				t.Fatalf("%s/%s: health source %s", stack, s.Name, m.HealthSource.Spec)
			}
			for _, md := range spec.MetricDefinitions {
				for _, region := range st.Regions {
					r := region.Name
					ns := ident.Namespace(st.Environment.Name, s.Name, r)
					if strings.Contains(md.Query, ns) != slices.Contains(s.In[st.Name].Regions, r) {
						t.Errorf("%s/%s %s: query %q and namespace %s of region %s", stack, s.Name, md.Identifier, md.Query, ns, r)
					}
				}
				if strings.Contains(md.Query, "{{") || !md.Analysis.DeploymentVerification.Enabled {
					t.Errorf("%s/%s %s: %+v", stack, s.Name, md.Identifier, md)
				}
			}
		}
	}
	if verifySteps == 0 {
		t.Fatal("no Verify step in any stack")
	}
}

// resolvedOf is p resolved (its template applied), or the test fails.
func resolvedOf(t testing.TB, p Pipeline) string {
	t.Helper()
	y, err := p.Resolved()
	if err != nil {
		t.Fatalf("pipeline %s resolved: %v", p.Identifier, err)
	}
	return y
}
