// Package credentials names every credential a first up needs, from the
// files that read them: where each lives, who makes it, which runs read
// it, and how to see that it is there. Nothing here holds a value: each
// credential lives in a secret manager and reaches what reads it by
// reference (docs/runbook.md, Credentials, is this list).
package credentials

import (
	"cmp"
	"fmt"
	"gopkg.in/yaml.v3"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/trust"
)

// Owners: who makes a credential and puts its value where it lives.
const (
	PulumiAdmin  = "Pulumi Cloud admin"
	AWSAdmin     = "AWS account admin"
	GitHubOwner  = "GitHub organisation owner"
	HarnessAdmin = "Harness account admin"
	PlatformTeam = "platform team"
)

// Credential is one credential a first up needs.
type Credential struct {
	// What it is, and Where it lives (by reference: no value here).
	What, Where string
	// Owner makes it (and puts its value); ReadBy are the runs or
	// services that read it.
	Owner  string
	ReadBy []string
	// Check shows it is there.
	Check string
}

// secretID finds the Secrets Manager secrets ESC environments read.
var secretID = regexp.MustCompile(`(?m)^\s*secretId:\s*(\S+)`)

// List is every credential a first up of c's environments needs, in the
// order bootstrap makes them: the AWS secrets (the ESC environments'
// and Harness's), the Pulumi team tokens stored where no OIDC exchange
// runs, the operator's repository token, and the Harness secrets the
// pipelines read (the teams' channels, the image scan's).
func List(c *catalog.Catalog, m *trust.Model) []Credential {
	var out []Credential
	operator := map[string]bool{}
	for _, env := range c.Chain {
		operator[env] = c.Stacks[env].Delivery == catalog.DeliveryOperator
	}
	pipeline := c.Root().Foundation != nil && c.Root().Foundation.Repository != ""

	out = append(out, awsSecrets(m)...)

	// Pulumi team tokens, kept where no OIDC exchange runs.
	for _, t := range m.Access.Teams {
		for _, where := range t.Stored {
			env := strings.TrimPrefix(t.Name, "harness-platform-")
			switch {
			case strings.HasPrefix(where, "Kubernetes Secret ") && !operator[env]:
				continue // no Stack of that environment (deploy/argocd)
			case strings.HasPrefix(where, "Harness secret ") && !pipeline:
				continue // no CI pipeline
			}
			reader := "the Harness CI pipeline's stages (.harness/pipeline.yaml)"
			owner := PulumiAdmin + " (a team token), stored by the " + HarnessAdmin
			if strings.HasPrefix(where, "Kubernetes Secret ") {
				reader = "the Pulumi Kubernetes Operator's Stacks of " + env + " (deploy/argocd)"
				owner = PulumiAdmin + " (a team token), stored by the " + PlatformTeam
			}
			out = append(out, Credential{
				What:   "Pulumi Cloud access token of team " + t.Name + " (" + t.Description + ")",
				Where:  where,
				Owner:  owner,
				ReadBy: []string{reader},
				Check:  "platformctl preflight from that path: it opens the stack's ESC environments with the token",
			})
		}
	}
	if slices.ContainsFunc(c.Chain, func(env string) bool { return operator[env] }) {
		out = append(out, Credential{
			What:   "Read-only token for this repository (contents: read), which the operator fetches it with",
			Where:  "Kubernetes Secret pulumi/harness-platform-git, key accessToken",
			Owner:  GitHubOwner + ", stored by the " + PlatformTeam,
			ReadBy: []string{"the Pulumi Kubernetes Operator (spec.gitAuth of every Stack)"},
			Check:  "the Stacks' status: Ready, not a fetch error",
		})
	}

	// Harness secrets the pipelines read by reference.
	for _, t := range c.Teams {
		for _, s := range []struct{ id, what string }{
			{t.Notify.SlackWebhookSecret, "Slack incoming webhook URL of team " + t.Name},
			{t.Notify.PagerDutyKeySecret, "PagerDuty integration key of team " + t.Name},
		} {
			if s.id == "" {
				continue
			}
			out = append(out, Credential{
				What:   s.what,
				Where:  "Harness secret " + s.id + " (" + catalog.TeamsFile + ")",
				Owner:  "team " + t.Name + " (the value), stored by the " + HarnessAdmin,
				ReadBy: []string{"the notification rules of team " + t.Name + "'s pipelines"},
				Check:  "Harness, Account Settings > Secrets: " + s.id,
			})
		}
	}
	if f := c.Root().Foundation; f != nil {
		for _, id := range plan.ImageScanSecrets(f.Registry) {
			what := map[string]string{
				plan.WizClientIDSecret:     "Client ID of the Wiz service account that scans images",
				plan.WizClientSecretSecret: "Client secret of the Wiz service account that scans images",
				plan.RegistryPasswordID:    "The Docker registry's pull password (the foundation stack declares it, by reference to AWS Secrets Manager)",
			}[id]
			owner := "security team (Wiz: Settings > Service Accounts), stored by the " + HarnessAdmin
			if id == plan.RegistryPasswordID {
				owner = "declared by the foundation stack (its value is the AWS secret above)"
			}
			out = append(out, Credential{
				What:   what,
				Where:  "Harness project secret " + id,
				Owner:  owner,
				ReadBy: []string{"the image scan of every Production deploy stage"},
				Check:  "platformctl preflight --stack production (it asks Harness for them)",
			})
		}
	}
	return out
}

// awsSecrets are the AWS Secrets Manager secrets the account templates
// declare, and the ESC environments (or Harness) that read each.
func awsSecrets(m *trust.Model) []Credential {
	var out []Credential
	for _, id := range slices.Sorted(maps.Keys(m.Accounts)) {
		a := m.Accounts[id]
		for _, name := range slices.Sorted(maps.Keys(a.Secrets)) {
			s := a.Secrets[name]
			var readers []string
			for _, env := range slices.Sorted(maps.Keys(m.Environments)) {
				for _, match := range secretID.FindAllSubmatch(m.Environments[env], -1) {
					if string(match[1]) == name {
						readers = append(readers, "ESC "+env)
					}
				}
			}
			if len(readers) == 0 {
				readers = []string{"Harness, by reference (its AWS Secrets Manager connector)"}
			}
			out = append(out, Credential{
				What:   s.Description,
				Where:  fmt.Sprintf("AWS Secrets Manager %s (account %s, declared by esc/aws/%s.json; its value put by hand)", name, id, id),
				Owner:  secretOwner(name),
				ReadBy: readers,
				Check:  fmt.Sprintf("aws secretsmanager describe-secret --secret-id %s lists a version staged AWSCURRENT holding the value put; platformctl preflight opens the ESC environments that read it", name),
			})
		}
	}

	return out
}

// secretOwner is who makes the value of AWS secret name: a GitHub App's
// private key its organisation owner (who registers the App), a Harness
// API key the Harness account admin, anything else the platform team.
func secretOwner(name string) string {
	switch {
	case strings.Contains(name, "github-app"):
		return GitHubOwner + " (registers the App, downloads its private key); " + AWSAdmin + " puts it"
	case strings.Contains(name, "api-key"):
		return HarnessAdmin + " (a service account's API key); " + AWSAdmin + " puts it"
	default:
		return PlatformTeam + "; " + AWSAdmin + " puts it"
	}
}

// For is the credential whose Where names name (a secret's name or id
// as an error shows it), if any.
func For(list []Credential, name string) (Credential, bool) {
	for _, c := range list {
		if name != "" && strings.Contains(c.Where, name) {
			return c, true
		}
	}
	return Credential{}, false
}

// Markdown is the list as a table.
func Markdown(list []Credential) string {
	var b strings.Builder
	b.WriteString("| credential | where it lives | who makes it | read by | check |\n| --- | --- | --- | --- | --- |\n")
	for _, c := range list {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", esc(c.What), esc(c.Where), esc(c.Owner), esc(strings.Join(c.ReadBy, "; ")), esc(c.Check))
	}
	return b.String()
}

func esc(s string) string { return strings.ReplaceAll(cmp.Or(s, "-"), "|", `\|`) }

// OpenedBy are the AWS secrets opening ESC environment env (as
// harness-platform/dev) reads, its imports' included: what an open that
// fails on a missing or empty secret needs, and who makes it.
func OpenedBy(m *trust.Model, env string) []Credential {
	envs := map[string]bool{}
	var visit func(string)
	visit = func(name string) {
		if envs[name] {
			return
		}
		envs[name] = true
		var def struct {
			Imports []string `yaml:"imports"`
		}
		if err := yaml.Unmarshal(m.Environments[name], &def); err == nil {
			for _, imp := range def.Imports {
				visit(imp)
			}
		}
	}
	visit(env)
	var out []Credential
	for _, cr := range awsSecrets(m) {
		if slices.ContainsFunc(cr.ReadBy, func(r string) bool { return envs[strings.TrimPrefix(r, "ESC ")] }) {
			out = append(out, cr)
		}
	}
	return out
}
