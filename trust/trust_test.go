package trust_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/doccheck"
	"github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/preflight"
	"github.com/company/harness-platform/trust"
)

var chain = []string{"dev", "staging", "production"}

// identities are the example's kinds of run: its chain, in its
// organisation, from its program's repository (the root stack file's
// foundation.repository).
func identities(t *testing.T, m *trust.Model) []trust.Identity {
	t.Helper()
	c := catalogtest.Example(t, "..")
	if !slices.Equal(c.Chain, chain) {
		t.Fatalf("the example's chain is %v, these tests' %v", c.Chain, chain)
	}
	return m.Identities(c.Chain, c.Root().Foundation.Repository)
}

func load(t *testing.T) *trust.Model {
	t.Helper()
	m, err := trust.Load()
	if err != nil {
		t.Fatal(err)
	}
	if m.Schemas == nil {
		t.Fatalf("ESC's published provider schemas are needed to open the environments as ESC does: %v", m.SchemasErr)
	}
	return m
}

// What each kind of run can obtain, listed; a run of a pull request's
// code that can obtain anything that writes (a stack's state, an AWS role
// that changes its account, a secret holding a writing key, a GitHub
// token with a write permission) fails the test.
func TestPullRequestsObtainNothingThatWrites(t *testing.T) {
	m := load(t)
	ctx := context.Background()
	prs := 0
	for _, id := range identities(t, m) {
		grants, err := m.Obtain(ctx, id)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		var lines []string
		writes := false
		for _, g := range grants {
			lines = append(lines, "  "+g.String())
			writes = writes || g.Writes
		}
		t.Logf("%s (%s), team %s:\n%s", id.Run, id.Where, id.Team, strings.Join(lines, "\n"))
		if id.PullRequest {
			prs++
			for _, g := range grants {
				if g.Writes {
					t.Errorf("%s runs a pull request's code and can obtain %s", id.Run, g)
				}
			}
		} else if strings.HasPrefix(id.Run, "up ") && !writes {
			t.Errorf("%s can write nothing", id.Run)
		}
	}
	if prs == 0 {
		t.Fatal("no identity runs pull requests' code")
	}
}

// A pull request's job gets the preview team's token and no other: every
// other team, and an organisation token, is denied by the issuer's
// policies.
func TestPullRequestsGetOnlyThePreviewToken(t *testing.T) {
	m := load(t)
	pr := identities(t, m)[0]
	for _, team := range m.Access.Teams {
		err := m.Access.Exchange(pr.Claims, "team", team.Name)
		if (err == nil) != (team.Name == pr.Team) {
			t.Errorf("team %s for a pull request: %v", team.Name, err)
		}
	}
	if err := m.Access.Exchange(pr.Claims, "organization", ""); err == nil {
		t.Error("a pull request's job may get an organisation token")
	}
	// A job of main without the GitHub environment is not a deployer.
	repo := strings.TrimSuffix(strings.TrimPrefix(pr.Claims["sub"], "repo:"), ":pull_request")
	main := map[string]string{"aud": pr.Claims["aud"], "sub": "repo:" + repo + ":ref:refs/heads/main", "ref": "refs/heads/main"}
	for _, env := range chain {
		if err := m.Access.Exchange(main, "team", trust.Project+"-"+env); err == nil {
			t.Errorf("a job of main outside GitHub environment %s gets its deployer token", env)
		}
	}
}

// Each environment's AWS logins are admitted by the trust of their role,
// with the same subject whether the environment is opened directly or by
// the CLI as a stack's import; without subjectAttributes the CLI's
// subject names <yaml> (pulumi/pulumi#14509) and AWS refuses it.
func TestLoginsWorkHoweverOpened(t *testing.T) {
	m := load(t)
	ctx := context.Background()
	for _, env := range []string{"harness-platform/dev", "harness-platform/ci", "harness-platform/production-preview", "harness-platform/ci-preview"} {
		team := "harness-platform-dev"
		if strings.Contains(env, "preview") {
			team = "harness-platform-preview"
		}
		direct, err := m.Open(ctx, team, env, false)
		if err != nil {
			t.Fatalf("%s opened directly: %v", env, err)
		}
		stack, err := m.Open(ctx, team, env, true)
		if err != nil {
			t.Fatalf("%s opened as a stack's import: %v", env, err)
		}
		if strings.Join(direct.Subjects, " ") != strings.Join(stack.Subjects, " ") || len(direct.Subjects) == 0 {
			t.Errorf("%s: subjects %v directly, %v as a stack's import", env, direct.Subjects, stack.Subjects)
		}
	}
	// The same environments without subjectAttributes.
	bare := load(t)
	for name, data := range bare.Environments {
		bare.Environments[name] = []byte(strings.ReplaceAll(string(data), "subjectAttributes:\n            - currentEnvironment.name", ""))
	}
	if _, err := bare.Open(ctx, "harness-platform-dev", "harness-platform/dev", true); err == nil || !strings.Contains(err.Error(), "Not authorized to perform sts:AssumeRoleWithWebIdentity") {
		t.Errorf("a login without subjectAttributes opened by the CLI: %v, want AWS's refusal", err)
	}
}

// The preview team cannot open an environment that holds a writing
// credential, and ESC answers as it does.
func TestPreviewCannotOpenTheDeployers(t *testing.T) {
	m := load(t)
	ctx := context.Background()
	for _, env := range []string{"harness-platform/production", "harness-platform/ci", "harness-platform/dev"} {
		_, err := m.Open(ctx, "harness-platform-preview", env, false)
		if !errors.Is(err, trust.ErrNoPermission) || !strings.HasPrefix(err.Error(), "[403] ") {
			t.Errorf("the preview team opening %s: %v", env, err)
		}
		if _, err := m.Open(ctx, "harness-platform-preview", env, true); !errors.Is(err, trust.ErrNoPermission) {
			t.Errorf("the preview team's stack importing %s: %v", env, err)
		}
	}
}

// Every login lasts as long as the longest run preflight admits; a
// GitHub token lasts an hour, and ESC opens it again for each stack.
func TestLoginsOutliveRuns(t *testing.T) {
	m := load(t)
	ctx := context.Background()
	for _, id := range identities(t, m) {
		grants, err := m.Obtain(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range grants {
			switch g.Kind {
			case trust.KindAWSRole:
				if g.Lifetime < preflight.DefaultMaxRunTime {
					t.Errorf("%s: %s lasts %s, and a run may take %s", id.Run, g, g.Lifetime, preflight.DefaultMaxRunTime)
				}
			case trust.KindGitHubApp:
				if g.Lifetime != time.Hour {
					t.Errorf("%s: %s lasts %s", id.Run, g, g.Lifetime)
				}
			}
		}
	}
}

// AWS refuses what its trust and policies do not admit, with its
// messages: the preview role for the deployer's environment, a login
// longer than the role's MaxSessionDuration, a secret its policy does
// not name.
func TestAWSRefusals(t *testing.T) {
	m := load(t)
	a := m.Accounts[example.L(t, "333333333333")]
	sub := trust.Subject(example.Answers(t).Pulumi.Organization, "harness-platform/production-preview", "harness-platform/production-preview", "", []string{"currentEnvironment.name"})
	claims := map[string]string{"aud": example.L(t, "aws:company"), "sub": sub}
	if _, err := a.AssumeWithWebIdentity("harness-platform-deployer", claims, time.Hour); err == nil || !strings.Contains(err.Error(), "Not authorized to perform sts:AssumeRoleWithWebIdentity") {
		t.Errorf("the deployer for the preview environment's subject: %v", err)
	}
	if _, err := a.AssumeWithWebIdentity("harness-platform-preview", claims, 13*time.Hour); err == nil || !strings.Contains(err.Error(), "exceeds the MaxSessionDuration") {
		t.Errorf("13 hours: %v", err)
	}
	r, err := a.AssumeWithWebIdentity("harness-platform-preview", claims, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	dev := m.Accounts[example.L(t, "111111111111")]
	preview := dev.Roles["harness-platform-ci-preview"]
	if _, err := dev.GetSecretValue(preview, "s", "eu-west-1", "harness-platform/ci/harness-api-key"); err == nil || !strings.Contains(err.Error(), "is not authorized to perform: secretsmanager:GetSecretValue") {
		t.Errorf("the CI preview role reading the deployers' Harness key: %v", err)
	}
	if r.Writes() {
		t.Errorf("%s writes", r.ARN())
	}
}

// docs/delivery.md shows what each kind of run can obtain as Obtain
// finds it (go test ./trust -run TestTable -update rewrites it).
func TestTable(t *testing.T) {
	m := load(t)
	table, err := m.Table(context.Background(), identities(t, m), stateCredentials(t))
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := docSection(t, "identities", table); !ok {
		t.Errorf("docs/delivery.md's identity table is stale; run go test ./trust -run TestTable -update\n got: %s\nwant: %s", got, table)
	}
}

// docSection compares docs/delivery.md's generated section name with
// want, and with -update rewrites it (doccheck.Section).
func docSection(t *testing.T, name, want string) (string, bool) {
	t.Helper()
	return doccheck.Section(t, "../docs/delivery.md", name, want, *update)
}

var update = flag.Bool("update", false, "rewrite the identity table and the trust diagram in docs/delivery.md")

// The trust diagram in docs/delivery.md is the model's (Diagram): every
// run, the team whose token it gets, the stacks that team reads or
// writes and the roles the run assumes. Mermaid's parser reads it
// (internal/doccheck).
func TestDiagram(t *testing.T) {
	m := load(t)
	diagram, err := m.Diagram(context.Background(), identities(t, m))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"flowchart LR", "harness-platform-preview", "-->|read|", "-->|write|", "-.->|assumes|", "(a pull request's code)"} {
		if !strings.Contains(diagram, want) {
			t.Errorf("the diagram has no %q", want)
		}
	}
	if _, ok := docSection(t, "trust diagram", diagram); !ok {
		t.Errorf("docs/delivery.md's trust diagram is stale; run go test ./trust -run TestDiagram -update")
	}
}

// The identity table's "runs on" is what the workflows say: each GitHub
// Actions identity's job runs on the runners its row names (compared as
// YAML values), a pull request's on the ephemeral preview runners or
// GitHub's hosted ones (a fresh machine per job), never the deployers'.
func TestIdentitiesRunWhereTheWorkflowsSay(t *testing.T) {
	for _, id := range identities(t, load(t)) {
		if id.Workflow == "" {
			continue
		}
		data, err := os.ReadFile(filepath.Join("..", id.Workflow))
		if err != nil {
			t.Fatal(err)
		}
		var w struct {
			Jobs map[string]struct {
				RunsOn any `yaml:"runs-on"`
			}
		}
		if err := yaml.Unmarshal(data, &w); err != nil {
			t.Fatalf("%s: %v", id.Workflow, err)
		}
		job, ok := w.Jobs[id.Job]
		if !ok {
			t.Errorf("%s: %s has no job %s", id.Run, id.Workflow, id.Job)
			continue
		}
		var want any
		if err := yaml.Unmarshal([]byte(id.RunsOn), &want); err != nil {
			t.Fatalf("%s: runs on %q: %v", id.Run, id.RunsOn, err)
		}
		if !reflect.DeepEqual(job.RunsOn, want) {
			t.Errorf("%s: %s job %s runs on %v, the table says %s", id.Run, id.Workflow, id.Job, job.RunsOn, id.RunsOn)
		}
		if id.PullRequest && id.RunsOn != trust.PreviewRunners && id.RunsOn != trust.HostedRunners {
			t.Errorf("%s runs a pull request's code on %s", id.Run, id.RunsOn)
		}
	}
}

// Each account's template reuses a Pulumi OIDC provider the account
// already has (IAM holds one per URL, and refuses a second): the
// provider is made only with PulumiOidcProvider=create (the default),
// and nothing refers to it by Ref or GetAtt, which a provider the
// template does not make would break; the roles trust it by its ARN,
// the same either way.
func TestTemplatesReuseAnExistingPulumiOidcProvider(t *testing.T) {
	paths, _ := filepath.Glob("../esc/aws/*.json")
	if len(paths) == 0 {
		t.Fatal("no account templates")
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var tmpl struct {
			Parameters map[string]struct {
				AllowedValues []string
				Default       string
			}
			Conditions map[string]map[string][]any
			Resources  map[string]struct {
				Type      string
				Condition string
			}
		}
		if err := json.Unmarshal(data, &tmpl); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		p := tmpl.Parameters["PulumiOidcProvider"]
		if p.Default != "create" || strings.Join(p.AllowedValues, ",") != "create,exists" {
			t.Errorf("%s: parameter PulumiOidcProvider %+v, want create (default) or exists", path, p)
		}
		eq := tmpl.Conditions["CreatePulumiOidc"]["Fn::Equals"]
		if ref, _ := eq[0].(map[string]any); len(eq) != 2 || ref["Ref"] != "PulumiOidcProvider" || eq[1] != "create" {
			t.Errorf("%s: condition CreatePulumiOidc %v", path, eq)
		}
		for name, r := range tmpl.Resources {
			if r.Type == "AWS::IAM::OIDCProvider" && name == "PulumiOidc" && r.Condition != "CreatePulumiOidc" {
				t.Errorf("%s: %s is made whatever PulumiOidcProvider says", path, name)
			}
		}
		if strings.Contains(string(data), `"Ref": "PulumiOidc"`) || strings.Contains(string(data), `"PulumiOidc",`) {
			t.Errorf("%s: something refers to PulumiOidc, which an account that has its provider does not make", path)
		}
	}
}
