package program

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/components"
	"github.com/company/harness-platform/harness/document"
	"github.com/company/harness-platform/harness/provider"
	"github.com/company/harness-platform/ident"
	"github.com/company/harness-platform/internal/catalogtest"
	ex "github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/internal/mocktest"
	"github.com/company/harness-platform/plan"
)

const (
	tProject   = "harness:platform/project:Project"
	tUsergroup = "harness:platform/usergroup:Usergroup"
	tRoles     = "harness:platform/roleAssignments:RoleAssignments"
	tSecret    = "harness:platform/secretText:SecretText"
	tGithub    = "harness:platform/githubConnector:GithubConnector"
	tService   = "harness:platform/service:Service"
	tEnv       = "harness:platform/environment:Environment"
	tK8s       = "harness:platform/kubernetesConnector:KubernetesConnector"
	tInfra     = "harness:platform/infrastructure:Infrastructure"
	tPipeline  = "harness:platform/pipeline:Pipeline"
	tTemplate  = "harness:platform/template:Template"
	tTrigger   = "harness:platform/triggers:Triggers"
	tFile      = "harness:platform/fileStoreFile:FileStoreFile"
	tPolicy    = "harness:platform/policy:Policy"
	tPolicySet = "harness:platform/policySet:PolicySet"
)

func example(t testing.TB) *catalog.Catalog { return catalogtest.Example(t, "..") }

// upstreamOutputs is the contract a deployed stack exports: a platform
// stack's (with its clusters' kubeconfigs) or a service stack's (with its
// services, the plan's when services is nil).
func upstreamOutputs(c *catalog.Catalog, stack string, services []string) resource.PropertyMap {
	if services == nil {
		p, err := plan.Build(c, stack)
		if err != nil {
			panic(err)
		}
		services = p.Services()
	}
	svc := make([]resource.PropertyValue, len(services))
	for i, s := range services {
		svc[i] = resource.NewStringProperty(s)
	}
	env, shard := catalog.SplitStack(stack)
	out := resource.NewPropertyMapFromMap(map[string]any{
		OutContractVersion: ContractVersion,
		OutStack:           stack,
		OutFoundation: map[string]any{
			FoundationOrgID: "default", FoundationProjectID: "platform",
			FoundationGithubConnector: "github_platform_next_cross_org", FoundationOwnerStack: "dev",
		},
		OutEnvironment: map[string]any{"identifier": c.Stacks[env].Environment.Identifier},
	})
	if shard == "" {
		kubeconfigs := map[string]any{}
		for _, r := range c.Stacks[env].Regions {
			kubeconfigs[r.Name] = "kubeconfig of " + env + " " + r.Name
		}
		out[OutKubeconfigs] = resource.MakeSecret(resource.NewPropertyValue(kubeconfigs))
	}
	out[OutServices] = resource.NewArrayProperty(svc)
	return out
}

// runStack runs the program as stack with every upstream deployed: one
// stack by its full name, or every stack of an environment (its platform
// stack's name), recorded together.
func runStack(t testing.TB, c *catalog.Catalog, stack string, dryRun bool) (*mocktest.Recorder, error) {
	return runWith(deployedChain(c), c, stack, dryRun)
}

// deployedChain is the outputs of every stack of the chain, deployed.
func deployedChain(c *catalog.Catalog) map[string]resource.PropertyMap {
	out := map[string]resource.PropertyMap{}
	for _, name := range c.AllStacks() {
		out[name] = upstreamOutputs(c, name, nil)
	}
	return out
}

// stacksOf are the stacks name stands for: an environment's (its platform
// stack's name), or one service stack.
func stacksOf(c *catalog.Catalog, name string) []string {
	if _, shard := catalog.SplitStack(name); shard != "" {
		return []string{name}
	}
	return c.StacksOf(name)
}

// runWith runs the stacks name stands for, in order, into one recorder;
// the first refusal stops the run.
func runWith(outputs map[string]resource.PropertyMap, c *catalog.Catalog, name string, dryRun bool, opts ...pulumi.RunOption) (*mocktest.Recorder, error) {
	// One program for the stacks, as in an engine session.
	return runProgram(New(c.Files()), outputs, c, name, dryRun, opts...)
}

// runProgram is runWith with prog, the program of c's files.
func runProgram(prog pulumi.RunFunc, outputs map[string]resource.PropertyMap, c *catalog.Catalog, name string, dryRun bool, opts ...pulumi.RunOption) (*mocktest.Recorder, error) {
	rec := &mocktest.Recorder{StackOutputs: outputs}
	for _, stack := range stacksOf(c, name) {
		if err := mocktest.Run(prog, stack, rec, append([]pulumi.RunOption{mocktest.WithDryRun(dryRun)}, opts...)...); err != nil {
			return rec, fmt.Errorf("%s: %w", stack, err)
		}
	}
	return rec, nil
}

func mustRun(t *testing.T, c *catalog.Catalog, stack string) *mocktest.Recorder {
	t.Helper()
	rec, err := runStack(t, c, stack, false)
	if err != nil {
		t.Fatalf("%s: %v", stack, err)
	}
	return rec
}

// mustRunOne runs exactly one stack (a platform stack without its service
// stacks), every other deployed.
func mustRunOne(t testing.TB, c *catalog.Catalog, stack string) *mocktest.Recorder {
	t.Helper()
	rec := &mocktest.Recorder{StackOutputs: deployedChain(c)}
	if err := mocktest.Run(New(c.Files()), stack, rec); err != nil {
		t.Fatalf("%s: %v", stack, err)
	}
	return rec
}

func str(r mocktest.Registered, key string) string {
	v := r.Inputs[resource.PropertyKey(key)]
	for v.IsSecret() {
		v = v.SecretValue().Element
	}
	if v.IsString() {
		return v.StringValue()
	}
	return ""
}

func TestFoundationOnlyInDev(t *testing.T) {
	c := example(t)
	dev := mustRun(t, c, "dev")
	projects := dev.OfType(tProject)
	if len(projects) != 1 || !projects[0].Protect || str(projects[0], "identifier") != "platform" || str(projects[0], "orgId") != "default" {
		t.Fatalf("dev project: %+v", projects)
	}
	if got := len(dev.OfType(tUsergroup)); got != len(c.Teams) {
		t.Errorf("user groups: got %d, want %d", got, len(c.Teams))
	}
	roles := map[string]string{}
	for _, r := range dev.OfType(tRoles) {
		roles[r.Name] = str(r, "roleIdentifier")
	}
	if roles["platform_team-_project_admin"] != "_project_admin" || roles["payments_team-_pipeline_executor"] != "_pipeline_executor" {
		t.Errorf("role assignments: %v", roles)
	}
	for _, r := range dev.OfType(tRoles) {
		want := "_all_project_level_resources"
		if r.Name != "platform_team-_project_admin" {
			want = strings.TrimSuffix(r.Name, "-_pipeline_executor") + "_deployments"
		}
		if got := str(r, "resourceGroupIdentifier"); got != want {
			t.Errorf("%s: resource group %q, want %q", r.Name, got, want)
		}
	}
	groups := dev.OfType("harness:platform/resourceGroup:ResourceGroup")
	if len(groups) != len(c.Teams)-1 {
		t.Errorf("resource groups: %d, want one per team but the platform team's", len(groups))
	}
	for _, g := range groups {
		if str(g, "accountId") != mocktest.TestAccount {
			t.Errorf("resource group %s: account %q", g.Name, str(g, "accountId"))
		}
	}
	if got := len(dev.OfType(tService)); got != len(c.Services) {
		t.Errorf("services: got %d, want %d", got, len(c.Services))
	}
	secrets := dev.OfType(tSecret)
	if len(secrets) != 2 {
		t.Fatalf("secrets: want the GitHub App's key and the registry password, got %+v", secrets)
	}
	for _, s := range secrets {
		if !s.Inputs["value"].ContainsSecrets() || !s.Protect {
			t.Errorf("secret %s: value not a Pulumi secret, or not protected: %+v", s.Name, s)
		}
	}
	reg := dev.OfType("harness:platform/dockerConnector:DockerConnector")
	if len(reg) != 1 || str(reg[0], "url") != ex.L(t, "https://registry.company.io") || str(reg[0], "type") != "Other" {
		t.Fatalf("registry connector: %+v", reg)
	}
	if rc := reg[0].Inputs["credentials"].ObjectValue(); rc["username"].StringValue() != "harness-bot" || rc["passwordRef"].StringValue() != "docker_registry_password" {
		t.Errorf("registry credentials: %v", rc)
	}
	// The manifests repository's connector, and this repository's (the
	// CI pipeline's codebase).
	// (Registered concurrently: in no fixed order.)
	gh := dev.OfType(tGithub)
	slices.SortFunc(gh, func(a, b mocktest.Registered) int { return -strings.Compare(str(a, "url"), str(b, "url")) })
	if len(gh) != 2 || str(gh[0], "url") != ex.L(t, "https://github.com/company/platform-next") || str(gh[1], "url") != ex.L(t, "https://github.com/company/harness-platform") {
		t.Fatalf("github connectors: %+v", gh)
	}
	creds := gh[0].Inputs["credentials"].ObjectValue()["http"].ObjectValue()
	if creds["githubApp"].ObjectValue()["privateKeyRef"].StringValue() != "github_app_private_key" || creds.HasValue("tokenRef") {
		t.Errorf("connector credentials: %v", creds)
	}
	for _, stack := range []string{"staging", "production"} {
		rec := mustRun(t, c, stack)
		for _, typ := range []string{tProject, tUsergroup, tSecret, tGithub, tService} {
			if n := len(rec.OfType(typ)); n != 0 {
				t.Errorf("%s declares %d %s; only the foundation stack may", stack, n, typ)
			}
		}
	}
}

func TestEnvironmentSlice(t *testing.T) {
	c := example(t)
	for _, stack := range c.Chain {
		st := c.Stacks[stack]
		rec := mustRun(t, c, stack)
		envs := rec.OfType(tEnv)
		if len(envs) != 1 || str(envs[0], "type") != st.Environment.Type || str(envs[0], "identifier") != st.Environment.Identifier {
			t.Fatalf("%s environment: %+v", stack, envs)
		}
		conns := rec.OfType(tK8s)
		if len(conns) != len(st.Regions) {
			t.Fatalf("%s: %d connectors for %d regions", stack, len(conns), len(st.Regions))
		}
		for _, conn := range conns {
			region := strings.TrimPrefix(conn.Name, "k8s_"+st.Environment.Identifier+"_")
			delegate := ident.DelegateName(st.Environment.Name, region)
			sel := conn.Inputs["inheritFromDelegate"].ObjectValue()["delegateSelectors"].ArrayValue()
			if len(sel) != 1 || sel[0].StringValue() != delegate {
				t.Errorf("%s connector %s selectors %v, want [%s]", stack, conn.Name, sel, delegate)
			}
		}
		for _, infra := range rec.OfType(tInfra) {
			var doc struct {
				InfrastructureDefinition struct {
					EnvironmentRef string `yaml:"environmentRef"`
					Spec           struct {
						ConnectorRef string `yaml:"connectorRef"`
						Namespace    string `yaml:"namespace"`
					} `yaml:"spec"`
				} `yaml:"infrastructureDefinition"`
			}
			if err := yaml.Unmarshal([]byte(str(infra, "yaml")), &doc); err != nil {
				t.Fatal(err)
			}
			region := strings.Split(strings.TrimPrefix(infra.Name, st.Environment.Identifier+"_"), "_")[0]
			if doc.InfrastructureDefinition.EnvironmentRef != st.Environment.Identifier ||
				doc.InfrastructureDefinition.Spec.ConnectorRef != ident.KubernetesConnector(st.Environment.Identifier, region) ||
				doc.InfrastructureDefinition.Spec.Namespace != "<+env.name>-<+service.name>-"+region {
				t.Errorf("%s infrastructure %s: %+v", stack, infra.Name, doc)
			}
		}
		// The environment's change-window policy, and in the root stack the
		// pipeline rules Harness evaluates on save and on run.
		var policies, sets []string
		for _, r := range rec.OfType(tPolicy) {
			policies = append(policies, r.Name)
		}
		for _, r := range rec.OfType(tPolicySet) {
			sets = append(sets, r.Name+":"+str(r, "action")+":"+str(r, "type"))
		}
		var wantPolicies, wantSets []string
		if st.OwnsFoundation() {
			wantPolicies = append(wantPolicies, ident.PipelineRulesPolicy, ident.TemplateRulesPolicy)
			wantSets = append(wantSets, "pipeline_rules_onsave:onsave:pipeline", "pipeline_rules_onrun:onrun:pipeline", "template_rules_onsave:onsave:template")
		}
		if st.IsProduction() {
			id := st.Environment.Identifier
			wantPolicies = append(wantPolicies, ident.ChangeWindowPolicy(id))
			wantSets = append(wantSets, ident.ChangeWindowPolicySet(id)+":onstep:custom")
		}
		slices.Sort(policies)
		slices.Sort(sets)
		slices.Sort(wantPolicies)
		slices.Sort(wantSets)
		if !slices.Equal(policies, wantPolicies) || !slices.Equal(sets, wantSets) {
			t.Errorf("%s: policies %v, sets %v; want %v, %v", stack, policies, sets, wantPolicies, wantSets)
		}
	}
}

// resolved is a registered pipeline with the templates rec's platform
// stack registered applied to it (what runs).
func resolved(t *testing.T, rec *mocktest.Recorder, pipelineYAML string) string {
	t.Helper()
	var templates []plan.StageTemplate
	for _, r := range rec.OfType(tTemplate) {
		templates = append(templates, plan.StageTemplate{Identifier: str(r, "identifier"), Version: str(r, "version"), YAML: str(r, "templateYaml")})
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

// execution reads a generated pipeline back: its Deployment stage's
// execution.
func execution(t *testing.T, pipelineYAML string) document.Execution {
	t.Helper()
	var doc document.Document
	if err := yaml.Unmarshal([]byte(pipelineYAML), &doc); err != nil {
		t.Fatal(err)
	}
	spec, ok, err := doc.Pipeline.Deployment()
	if err != nil || !ok {
		t.Fatalf("no Deployment stage (%v):\n%s", err, pipelineYAML)
	}
	return spec.Execution
}

// stepTypes lists the types of a pipeline's deploy steps, a step group's
// steps in its place.
func stepTypes(t *testing.T, pipelineYAML string) (steps, rollback []string) {
	ex := execution(t, pipelineYAML)
	for _, s := range ex.Steps {
		if g := s.StepGroup; g != nil {
			for _, inner := range g.Steps {
				steps = append(steps, inner.Step.Type)
			}
			continue
		}
		steps = append(steps, s.Step.Type)
	}
	for _, s := range ex.RollbackSteps {
		rollback = append(rollback, s.Step.Type)
	}
	return steps, rollback
}

func TestPipelinesPerEnvironment(t *testing.T) {
	c := example(t)
	for _, stack := range c.Chain {
		st := c.Stacks[stack]
		rec := mustRun(t, c, stack)
		// The services' pipelines (the foundation's CI pipeline aside).
		deployments := func(typ string) []mocktest.Registered {
			var out []mocktest.Registered
			for _, r := range rec.OfType(typ) {
				if !strings.Contains(r.Parent, components.FoundationType) {
					out = append(out, r)
				}
			}
			return out
		}
		pipes, triggers := deployments(tPipeline), deployments(tTrigger)
		var want []catalog.Service
		for _, s := range c.Services {
			if s.EnabledIn(stack) {
				want = append(want, s)
			}
		}
		if len(pipes) != len(want) || len(triggers) != len(want) {
			t.Fatalf("%s: %d pipelines, %d triggers, want %d", stack, len(pipes), len(triggers), len(want))
		}
		byID := map[string]catalog.Service{}
		for _, s := range want {
			byID[ident.Pipeline(s.Name, st.Environment.Identifier)] = s
		}
		triggerYAML := map[string]string{}
		for _, tr := range triggers {
			triggerYAML[str(tr, "targetId")] = str(tr, "yaml")
		}
		for _, p := range pipes {
			s, ok := byID[p.Name]
			if !ok {
				t.Fatalf("%s: unexpected pipeline %s", stack, p.Name)
			}
			steps, rollback := stepTypes(t, resolved(t, rec, str(p, "yaml")))
			joined := strings.Join(steps, ",")
			if st.IsProduction() {
				// The image scan first, then the gates.
				if !strings.HasPrefix(joined, plan.ImageScanStepType+",HarnessApproval,HarnessApproval,Policy,") {
					t.Errorf("%s %s: production pipeline starts %s", stack, p.Name, joined)
				}
				team, _ := c.Team(s.Team)
				platform, _ := c.Team(c.PlatformTeam)
				checkApprovals(t, p.Name, resolved(t, rec, str(p, "yaml")), team.UserGroup, platform.UserGroup, st.Approval)
			} else if strings.Contains(joined, "HarnessApproval") || strings.Contains(joined, "Policy") || strings.Contains(joined, plan.ImageScanStepType) {
				t.Errorf("%s %s: lower environment pipeline has gates: %s", stack, p.Name, joined)
			}
			wantCanary := s.In[st.Name].Strategy == catalog.Canary
			if strings.Contains(joined, "K8sCanaryDeploy") != wantCanary || (wantCanary && !st.IsProduction()) {
				t.Errorf("%s %s: canary=%v, steps %s", stack, p.Name, wantCanary, joined)
			}
			if wantCanary && s.Verification && strings.Count(joined, "Verify") != 2 {
				t.Errorf("%s %s: want verification after each canary phase: %s", stack, p.Name, joined)
			}
			if rollback[len(rollback)-1] != "K8sRollingRollback" {
				t.Errorf("%s %s: rollback steps %v", stack, p.Name, rollback)
			}
			if str(p, "orgId") != "default" || str(p, "projectId") != "platform" {
				t.Errorf("%s %s: not scoped by the foundation: %s/%s", stack, p.Name, str(p, "orgId"), str(p, "projectId"))
			}
			if want := "enabled: " + map[bool]string{true: "false", false: "true"}[s.Retired]; !strings.Contains(triggerYAML[p.Name], want) {
				t.Errorf("%s %s: trigger should be %q", stack, p.Name, want)
			}
		}
	}
}

func TestPromotionIsErrorOnUpAndWarningOnPreview(t *testing.T) {
	c := example(t)
	outputs := deployedChain(c)
	// staging has not deployed auth-service yet.
	outputs[catalogtest.OnlyServiceStack(t, c, "staging")] = upstreamOutputs(c, catalogtest.OnlyServiceStack(t, c, "staging"), []string{"payment-service"})
	rec := &mocktest.Recorder{StackOutputs: outputs}
	stack := catalogtest.OnlyServiceStack(t, c, "production")
	err := mocktest.Run(New(c.Files()), stack, rec, mocktest.WithDryRun(false))
	if err == nil || !strings.Contains(err.Error(), `is not deployed in upstream stack "staging.services" yet; run `+"`pulumi up --stack staging.services`") {
		t.Fatalf("up: want promotion error naming the service and upstream, got %v", err)
	}
	// A refused update registers nothing.
	if n := len(rec.Resources()); n != 0 {
		t.Errorf("the refused update registered %d resources", n)
	}
	rec = &mocktest.Recorder{StackOutputs: rec.StackOutputs}
	var warnings []string
	defer func(w func(*pulumi.Context, string) error) { warn = w }(warn)
	warn = func(_ *pulumi.Context, msg string) error { warnings = append(warnings, msg); return nil }
	if err := mocktest.Run(New(c.Files()), stack, rec, mocktest.WithDryRun(true)); err != nil {
		t.Fatalf("preview must only warn: %v", err)
	}
	want := `service "auth-service" is not deployed in upstream stack "staging.services" yet`
	if !slices.ContainsFunc(warnings, func(w string) bool { return strings.Contains(w, want) }) {
		t.Errorf("preview must warn %q, warned %q", want, warnings)
	}
	if len(rec.Resources()) == 0 {
		t.Error("the preview declared nothing")
	}
}

func TestUpstreamNeverDeployed(t *testing.T) {
	c := example(t)
	rec := &mocktest.Recorder{StackOutputs: map[string]resource.PropertyMap{}}
	err := mocktest.Run(New(c.Files()), "staging", rec)
	if err == nil || !strings.Contains(err.Error(), "run `pulumi up --stack dev` first") {
		t.Fatalf("want a message naming the stack to deploy first, got %v", err)
	}
}

// Every Harness resource the program registers, in every stack (service
// stacks too), is one the provider accepts without a warning: known token,
// known inputs, required inputs set, kinds right, secrets secret, no
// deprecated input at any depth.
func TestResourcesConformToProviderFacts(t *testing.T) {
	facts, constraints, err := provider.Load()
	if err != nil {
		t.Fatal(err)
	}
	c := example(t)
	checked := 0
	for _, stack := range c.AllStacks() {
		for _, r := range mustRun(t, c, stack).Resources() {
			if !strings.HasPrefix(r.Type, "harness:") {
				continue
			}
			for _, p := range facts.CheckResource(r.Type, r.Inputs) {
				t.Errorf("%s %s: %s", stack, r.Name, p)
			}
			// The provider's Terraform constraints, as its Check applies them.
			for _, v := range constraints.Check(r.Type, r.Inputs) {
				t.Errorf("%s: %s", stack, v.Message(r.Name))
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("checked only %d resources", checked)
	}
}

// The GitHub token, the registry password and the delegate tokens appear
// only as secrets, never as plain values, in every stack.
func TestTokenNeverInPlaintext(t *testing.T) {
	c := example(t)
	var walk func(path string, v resource.PropertyValue)
	walk = func(path string, v resource.PropertyValue) {
		switch {
		case v.IsSecret():
			return
		case v.IsString() && strings.Contains(v.StringValue(), mocktest.TestToken):
			t.Errorf("token in plaintext at %s", path)
		case v.IsString() && strings.Contains(v.StringValue(), mocktest.TestRegistryPassword):
			t.Errorf("registry password in plaintext at %s", path)
		case v.IsString() && strings.Contains(v.StringValue(), mocktest.TestDelegateToken):
			t.Errorf("delegate token in plaintext at %s", path)
		case v.IsArray():
			for i, e := range v.ArrayValue() {
				walk(path+"["+string(rune('0'+i))+"]", e)
			}
		case v.IsObject():
			for k, e := range v.ObjectValue() {
				walk(path+"."+string(k), e)
			}
		}
	}
	for _, stack := range c.Chain {
		for _, r := range mustRun(t, c, stack).Resources() {
			walk(r.Name, resource.NewObjectProperty(r.Inputs))
		}
	}
}

// Every Harness registration asks for the provider version the bindings
// mirror, never "the latest".
func TestProviderVersionPinned(t *testing.T) {
	c := example(t)
	for _, stack := range c.Chain {
		for _, r := range mustRun(t, c, stack).Resources() {
			if strings.HasPrefix(r.Type, "harness:") && r.Version != "0.16.0" {
				t.Errorf("%s %s asks for harness %q", stack, r.Name, r.Version)
			}
		}
	}
}

// checkApprovals: one approval step per group, in sequence (Harness counts
// a step's minimum across all its groups), each with its own minimum, the
// executor excluded, the approver inputs required on the team's step.
func checkApprovals(t *testing.T, pipeline, doc, teamGroup, platformGroup string, a *catalog.Approval) {
	t.Helper()
	var steps []document.StepElement // the steps outside step groups (the image scan's)
	for _, e := range execution(t, doc).Steps {
		if e.StepGroup == nil {
			steps = append(steps, e)
		}
	}
	want := []struct {
		groups  string
		minimum int
		inputs  string
	}{{teamGroup, a.TeamApprovals, "change_ticket,rollback_plan"}, {platformGroup, a.PlatformApprovals, ""}}
	for i, w := range want {
		s := steps[i].Step
		var spec document.HarnessApprovalSpec
		if err := s.DecodeSpec(&spec); err != nil {
			t.Fatal(err)
		}
		var inputs []string
		for _, in := range spec.ApproverInputs {
			if !in.Required {
				t.Errorf("%s %s: approver input %s is not required", pipeline, s.Identifier, in.Name)
			}
			inputs = append(inputs, in.Name)
		}
		got := spec.Approvers
		if s.Type != "HarnessApproval" || strings.Join(got.UserGroups, ",") != w.groups || got.MinimumCount != w.minimum ||
			!got.DisallowPipelineExecutor || strings.Join(inputs, ",") != w.inputs {
			t.Errorf("%s step %d: %s groups %v minimum %d executor excluded %v inputs %v; want groups %s minimum %d inputs %q",
				pipeline, i, s.Type, got.UserGroups, got.MinimumCount, got.DisallowPipelineExecutor, inputs, w.groups, w.minimum, w.inputs)
		}
	}
}

// Production pipelines and triggers are protected unless their service is
// retired; other environments' are not.
func TestProductionDeploymentsProtected(t *testing.T) {
	c := example(t)
	for _, stack := range c.Chain {
		st, _ := c.Stack(stack)
		rec := mustRun(t, c, stack)
		for _, token := range []string{tPipeline, tTrigger} {
			for _, r := range rec.OfType(token) {
				var svc catalog.Service
				for _, s := range c.Services {
					if strings.HasPrefix(r.Name, ident.From(s.Name)+"_") && len(ident.From(s.Name)) > len(ident.From(svc.Name)) {
						svc = s
					}
				}
				if want := st.IsProduction() && !svc.Retired; r.Protect != want {
					t.Errorf("%s %s %s (retired %v): protect=%v, want %v", stack, token, r.Name, svc.Retired, r.Protect, want)
				}
			}
		}
	}
}

// A service stack previews before its platform stack's first deployment
// (a new environment, a pull request that splits one), against the
// contract the platform stack will export; its update is refused until
// the platform stack is deployed.
func TestServiceStackPreviewBeforeItsPlatform(t *testing.T) {
	c := example(t)
	stack := catalogtest.OnlyServiceStack(t, c, "dev")
	rec, err := runWith(map[string]resource.PropertyMap{}, c, stack, true)
	if err != nil {
		t.Fatalf("preview: %v", err)
	}
	if n := len(rec.OfType(tPipeline)); n == 0 {
		t.Error("the preview declares no pipeline")
	}
	for _, p := range rec.OfType(tK8sProvider) {
		// The mocks record an unknown input as absent.
		if kc := p.Inputs["kubeconfig"]; kc.HasValue() && !kc.ContainsUnknowns() {
			t.Errorf("provider %s: kubeconfig %v, want unknown", p.Name, kc)
		}
	}
	rec, err = runWith(map[string]resource.PropertyMap{}, c, stack, false)
	if err == nil || !strings.Contains(err.Error(), "run `pulumi up --stack dev` first") {
		t.Fatalf("up before the platform stack: want a refusal naming dev, got %v", err)
	}
	if n := len(rec.Resources()); n != 0 {
		t.Errorf("the refused update registered %d resources", n)
	}
}

// The guards' verdict is reported before anything is registered, strict
// in a preview when asked (the engine's check before an environment's
// update): a refusal that a plain preview only warns of.
func TestGuardVerdictReported(t *testing.T) {
	c := example(t)
	outputs := deployedChain(c)
	// staging has not deployed auth-service yet.
	outputs[catalogtest.OnlyServiceStack(t, c, "staging")] = upstreamOutputs(c, catalogtest.OnlyServiceStack(t, c, "staging"), []string{"payment-service"})
	stack := catalogtest.OnlyServiceStack(t, c, "production")
	for _, strict := range []bool{false, true} {
		var verdicts []error
		prog := New(c.Files(), StrictPreview(func(string) bool { return strict }), Guarded(func(s string, err error) {
			if s == stack {
				verdicts = append(verdicts, err)
			}
		}))
		rec := &mocktest.Recorder{StackOutputs: outputs}
		err := mocktest.Run(prog, stack, rec, mocktest.WithDryRun(true))
		if len(verdicts) != 1 || (verdicts[0] != nil) != strict || (err != nil) != strict {
			t.Errorf("strict=%v: verdicts %v, run error %v", strict, verdicts, err)
		}
		if strict && len(rec.Resources()) != 0 {
			t.Errorf("a refused strict preview registered %d resources", len(rec.Resources()))
		}
	}
}

// A template the catalog no longer uses stays declared, exactly as
// deployed, while a service stack's last deployment still references it
// (Harness refuses to delete it, and the service stacks deploy after the
// platform stack); once none does, the platform stack deletes it.
func TestDroppedTemplateKeptWhileUsed(t *testing.T) {
	c := example(t)
	const stack = "production"
	services := c.StacksOf(stack)[1]
	retired := plan.StageTemplate{Identifier: "deploy_api_prod_rolling", Version: "v0badcafe", Name: "Deploy api to prod - rolling",
		Tags: []string{"managed-by:harness-platform"}, YAML: "template:\n  identifier: deploy_api_prod_rolling\n  versionLabel: v0badcafe\n"}
	outputs := deployedChain(c)
	outputs[stack][OutTemplates] = resource.NewPropertyValue(map[string]any{retired.Identifier: map[string]any{
		"version": retired.Version, "name": retired.Name, "tags": []any{retired.Tags[0]}, "yaml": retired.YAML}})
	declared := func(users ...string) map[string]mocktest.Registered {
		t.Helper()
		used := make([]any, len(users))
		for i, u := range users {
			used[i] = u
		}
		outputs[services][OutTemplatesUsed] = resource.NewPropertyValue(used)
		rec := &mocktest.Recorder{StackOutputs: outputs}
		if err := mocktest.Run(New(c.Files()), stack, rec); err != nil {
			t.Fatal(err)
		}
		out := map[string]mocktest.Registered{}
		for _, r := range rec.OfType(tTemplate) {
			out[str(r, "identifier")] = r
		}
		return out
	}
	got := declared(retired.Identifier, "deploy_api_prod_canary_verified")
	kept, ok := got[retired.Identifier]
	if !ok || str(kept, "version") != retired.Version || str(kept, "templateYaml") != retired.YAML || kept.Name != retired.Identifier+"-"+retired.Version {
		t.Fatalf("the template a service stack still uses is not kept as deployed: %+v", kept)
	}
	if len(got) != len(mustBuildPlan(t, c, stack).Templates)+1 {
		t.Errorf("%d templates declared, want the plan's and the kept one", len(got))
	}
	if got := declared("deploy_api_prod_canary_verified"); len(got) != len(mustBuildPlan(t, c, stack).Templates) {
		t.Errorf("a template no pipeline uses is still declared: %d templates", len(got))
	} else if _, ok := got[retired.Identifier]; ok {
		t.Error("the unused template is kept")
	}
}

func mustBuildPlan(t *testing.T, c *catalog.Catalog, stack string) *plan.Plan {
	t.Helper()
	p, err := plan.Build(c, stack)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A template version whose runtime inputs differ from the stable one's
// (a program upgrade that lifts an input) goes live in three steps: the
// platform stack saves it non-stable beside the stable version; each
// service stack pins its pipelines to it with their new inputs; once
// every pipeline pins it, the platform stack makes it stable and the
// previous version goes.
func TestTemplateVersionInFlight(t *testing.T) {
	c := example(t)
	const stack = "production"
	services := c.StacksOf(stack)[1]
	next := mustBuildPlan(t, c, stack).Templates[0]
	// The stable version an older program saved: no serviceRef input.
	old := next
	old.Version = "v0000old"
	old.YAML = strings.Replace(strings.Replace(next.YAML, "serviceRef: <+input>", "serviceRef: fixed", 1), "versionLabel: "+next.Version, "versionLabel: v0000old", 1)
	if old.YAML == next.YAML {
		t.Fatal("the template has no serviceRef input")
	}
	entry := func(t plan.StageTemplate) map[string]any {
		return map[string]any{"version": t.Version, "name": t.Name, "tags": []any{}, "yaml": t.YAML}
	}
	outputs := deployedChain(c)
	platform := func(deployed map[string]any, users ...any) map[string]mocktest.Registered {
		t.Helper()
		outputs[stack][OutTemplates] = resource.NewPropertyValue(deployed)
		outputs[services][OutTemplatesUsed] = resource.NewPropertyValue(users)
		rec := &mocktest.Recorder{StackOutputs: outputs}
		if err := mocktest.Run(New(c.Files()), stack, rec); err != nil {
			t.Fatal(err)
		}
		out := map[string]mocktest.Registered{}
		for _, r := range rec.OfType(tTemplate) {
			if str(r, "identifier") == next.Identifier {
				out[str(r, "version")] = r
			}
		}
		return out
	}
	// 1. The platform stack: the new version non-stable, the old one kept stable.
	got := platform(map[string]any{next.Identifier: entry(old)}, next.Identifier)
	if len(got) != 2 || !got[old.Version].Inputs["isStable"].BoolValue() || got[next.Version].Inputs["isStable"].BoolValue() ||
		str(got[old.Version], "templateYaml") != old.YAML {
		t.Fatalf("step 1: versions declared %v, want %s stable as deployed and %s non-stable", got, old.Version, next.Version)
	}
	// 2. The service stack: its pipelines of the template pin the new
	// version; the others do not.
	outputs[stack][OutTemplates] = resource.NewPropertyValue(map[string]any{next.Identifier: entry(old), next.Identifier + "@" + next.Version: entry(next)})
	rec := &mocktest.Recorder{StackOutputs: outputs}
	if err := mocktest.Run(New(c.Files()), services, rec); err != nil {
		t.Fatal(err)
	}
	pinned, unpinned := 0, 0
	for _, r := range rec.OfType(tPipeline) {
		y := str(r, "yaml")
		switch {
		case strings.Contains(y, "templateRef: "+next.Identifier+"\n"):
			if !strings.Contains(y, "versionLabel: "+next.Version+"\n") {
				t.Errorf("pipeline %s of %s is not pinned to %s", r.Name, next.Identifier, next.Version)
			}
			pinned++
		case strings.Contains(y, "versionLabel:"):
			t.Errorf("pipeline %s is pinned, though its template is not in flight", r.Name)
		default:
			unpinned++
		}
	}
	if pinned == 0 || unpinned == 0 {
		t.Errorf("%d pipelines pinned, %d not: want some of each", pinned, unpinned)
	}
	// 3. Every pipeline pins it: stable, and the old version is gone.
	got = platform(map[string]any{next.Identifier: entry(old), next.Identifier + "@" + next.Version: entry(next)}, next.Identifier+"@"+next.Version)
	if len(got) != 1 || !got[next.Version].Inputs["isStable"].BoolValue() {
		t.Fatalf("step 3: versions declared %v, want %s alone, stable", got, next.Version)
	}
	// 4. The service stack unpins.
	outputs[stack][OutTemplates] = resource.NewPropertyValue(map[string]any{next.Identifier: entry(next)})
	rec = &mocktest.Recorder{StackOutputs: outputs}
	if err := mocktest.Run(New(c.Files()), services, rec); err != nil {
		t.Fatal(err)
	}
	for _, r := range rec.OfType(tPipeline) {
		if strings.Contains(str(r, "yaml"), "versionLabel:") {
			t.Errorf("pipeline %s is still pinned once its version is stable", r.Name)
		}
	}
}
