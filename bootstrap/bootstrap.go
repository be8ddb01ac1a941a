// Package bootstrap is the ordered checklist that takes an empty
// organisation to the first up: each step with who does it, what to do,
// and the check that proves it done. The checks are preflight's
// (package preflight): bootstrap --check runs preflight for every
// environment and gives each problem to the step whose check it is, so
// every missing step is named at once, with its owner and its fix.
// docs/runbook.md, Bootstrap, is this list.
package bootstrap

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/credentials"
	"github.com/company/harness-platform/preflight"
	"github.com/company/harness-platform/trust"
)

// Step is one step of the checklist.
type Step struct {
	Title string
	// Owner does it (credentials' owners).
	Owner string
	// Do says what to do; Check what proves it done.
	Do, Check string
	// proves are the preflight checks that pass only once the step is
	// done; none: no check runs it here (Check says how to see it).
	proves []match
}

// A match is a preflight check: its Problem.Check starts with check and,
// when err is set, its error says err.
type match struct{ check, err string }

// on matches preflight checks by the start of their name.
func on(checks ...string) []match {
	out := make([]match, len(checks))
	for i, c := range checks {
		out[i] = match{check: c}
	}
	return out
}

// Checked reports whether bootstrap --check runs the step's check.
func (s Step) Checked() bool { return len(s.proves) > 0 }

// owns is how closely p is a problem of s's check: 0 not at all, and the
// more of p a match names, the closer.
func (s Step) owns(p preflight.Problem) int {
	best := 0
	for _, m := range s.proves {
		if strings.HasPrefix(p.Check, m.check) && (m.err == "" || p.Err != nil && strings.Contains(p.Err.Error(), m.err)) {
			best = max(best, len(m.check)+len(m.err))
		}
	}
	return best
}

// Steps are the checklist of c's organisation, in order, as its files
// name it (m: the ESC environments, accounts and Apps of esc/).
func Steps(c *catalog.Catalog, m *trust.Model) []Step {
	org := m.Access.Organization
	var accounts []string
	for _, env := range c.Chain {
		if a := c.Stacks[env].AWS; a != nil && !slices.Contains(accounts, a.Account()) {
			accounts = append(accounts, a.Account())
		}
	}
	var templates []string
	for _, a := range accounts {
		templates = append(templates, "esc/aws/"+a+".json")
	}
	var apps []string
	for id, app := range m.Apps {
		apps = append(apps, fmt.Sprintf("%s (esc/github/%s.json)", app.Name, id))
	}
	slices.Sort(apps) // by name: the ids are the organisation's

	var envs []string
	for _, name := range slices.Sorted(maps.Keys(m.Environments)) {
		envs = append(envs, org+"/"+name)
	}
	shared := ""
	if f := c.Root().Foundation; f != nil && f.Repository != "" {
		owner, _, _ := strings.Cut(f.Repository, "/")
		shared = owner + "/harness-platform-shared"
	}
	first := strings.Join(c.Chain, ", then ")
	return []Step{
		{Title: "Pulumi organisation " + org, Owner: credentials.PulumiAdmin,
			Do: "Create the teams and the GitHub OIDC issuer's policies that esc/pulumi/access.yaml states (pull requests get the preview team, " +
				"main in each GitHub environment its deployer team), the issuer's maxExpiration 21600 s, and the members' default environment " +
				"permission none (Settings, Access Management).",
			Check:  "preflight reaches the Pulumi backend and reads each stack's lock",
			proves: on("the Pulumi backend", "the lock of stack")},
		{Title: "AWS accounts " + strings.Join(accounts, ", "), Owner: credentials.AWSAdmin,
			Do: "Deploy " + strings.Join(templates, ", ") + " (CloudFormation) in its account: the deployer and preview roles trusting ESC's " +
				"OIDC subjects, and the secrets the ESC environments read. Where the account has an IAM OIDC provider for " +
				"https://api.pulumi.com/oidc already, deploy with PulumiOidcProvider=exists after adding the audience (the parameter's " +
				"description gives the command); in the dev account also Harness's OIDC provider (its URL names the Harness account, " +
				"harness.accountId of bootstrap's answers) and the harness-secrets-reader role.",
			Check:  "preflight's AWS identity and ESC logins of every environment",
			proves: on("AWS identity in account", "the AWS logins of")},
		{Title: "GitHub Apps " + strings.Join(apps, ", "), Owner: credentials.GitHubOwner,
			Do: "Register each App from its manifest and install it on the organisation (Harness's on the manifests repository and this one " +
				"only; its App and installation ids in the root stack file, foundation.github.app); put each private key in the secret " +
				"`platformctl credentials` names for it (Harness's converted to PKCS#8, as Harness requires: openssl pkcs8 -topk8 -inform PEM " +
				"-outform PEM -nocrypt -in key.pem), and the registry's pull password in harness-platform/harness/registry-password. " +
				"No personal token is made.",
			Check:  "preflight's GitHub checks: the organisation, every repository the stacks write, the manifests repository",
			proves: on("GitHub organisation", "GitHub repository", "GitHub credential", "config repository", "manifests of")},
		{Title: "ESC environments", Owner: credentials.PulumiAdmin,
			Do:    "Create each file of esc/*.yaml as the environment of its name: " + strings.Join(envs, ", ") + ".",
			Check: "preflight opens each stack's ESC environment and its logins, as the team that runs it",
			// Reading an environment's logins from Pulumi Cloud is the
			// environment's (its existence, the team's read), not AWS's.
			proves: append(on("ESC environment"), match{check: "the AWS logins of", err: "from Pulumi Cloud"})},
		{Title: "Harness account", Owner: credentials.HarnessAdmin,
			Do: "A service account's API key with Account Admin in the secret harness-platform/ci/harness-api-key, an Account Viewer one in " +
				"harness-platform/ci/harness-viewer-api-key; Git Experience not enforced in the project; the teams' Slack and PagerDuty " +
				"secrets and the image scan's, as `platformctl credentials` names them.",
			Check:  "preflight's Harness checks: the key, the project's Git Experience, the delegate tokens, the image scan's secrets",
			proves: on("Harness API key", "Harness Git Experience", "Harness account", "Harness delegate tokens", "delegate token")},
		{Title: "Runners", Owner: credentials.PlatformTeam,
			Do: "Self-hosted runners labelled as the stack files' harness-platform:runner says (labels, previewLabels), their egress from " +
				"the egressCidrs the clusters admit; the deployer runners in the runner group harness-platform-deployers once dev's first " +
				"up made it, the preview runners ephemeral.",
			Check:  "preflight, run on the runners: the address the run comes from is in egressCidrs and reaches the clusters",
			proves: on("the address this run comes from")},
		{Title: "The shared facts", Owner: credentials.PlatformTeam,
			Do:    "The repository " + shared + ", which the test jobs check out beside the clone (../shared) with the reader App's token.",
			Check: "the test jobs of a pull request's preview.yml check it out (not checked here)"},
		{Title: "First run", Owner: credentials.PlatformTeam,
			Do:    "platformctl validate, then for " + first + ": platformctl delivery, preflight and up --yes (through up.yml once the repository is live).",
			Check: "platformctl outputs --stack <environment> prints each environment's contract (not checked here)"},
	}
}

// A Finding is a preflight problem of one environment's check.
type Finding struct {
	Env     string
	Problem preflight.Problem
}

func (f Finding) String() string { return f.Env + ": " + f.Problem.Error() }

// Verdict is a step's state after bootstrap --check.
type Verdict struct {
	Step
	// Findings are the problems of its check; none: done (when checked).
	Findings []Finding
}

// Report is what bootstrap --check found: each step's verdict, and the
// problems of no step (the catalog's own: an EKS version, the API
// budgets), which stop the first up too.
type Report struct {
	Steps []Verdict
	Other []Finding
}

// Missing are the steps whose check failed.
func (r Report) Missing() []Verdict {
	var out []Verdict
	for _, v := range r.Steps {
		if len(v.Findings) > 0 {
			out = append(out, v)
		}
	}
	return out
}

// A Preflight runs preflight of env's stacks as an up runs it
// (readOnly false: the deployer roles and environments) or as a run that
// changes nothing (the preview roles and -preview environments).
type Preflight func(ctx context.Context, env string, readOnly bool) ([]preflight.Problem, error)

// Check runs the checks of steps: run for every environment of c, both
// ways, every problem given to its step.
func Check(ctx context.Context, c *catalog.Catalog, steps []Step, run Preflight) (Report, error) {
	var findings []Finding
	for _, readOnly := range []bool{false, true} {
		for _, env := range c.Chain {
			problems, err := run(ctx, env, readOnly)
			if err != nil {
				return Report{}, fmt.Errorf("preflight of %s: %w", env, err)
			}
			name := env
			if readOnly {
				name += " (read-only)"
			}
			for _, p := range problems {
				findings = append(findings, Finding{Env: name, Problem: p})
			}
		}
	}
	return Judge(steps, findings), nil
}

// Judge gives every finding to the step whose check it is. Warnings are
// left out: they stop nothing.
func Judge(steps []Step, findings []Finding) Report {
	r := Report{Steps: make([]Verdict, len(steps))}
	for i, s := range steps {
		r.Steps[i].Step = s
	}
	for _, f := range findings {
		if f.Problem.Warning {
			continue
		}
		i, best := -1, 0
		for j, s := range steps {
			if n := s.owns(f.Problem); n > best {
				i, best = j, n
			}
		}
		if i < 0 {
			r.Other = append(r.Other, f)
			continue
		}
		r.Steps[i].Findings = append(r.Steps[i].Findings, f)
	}
	return r
}

// Markdown is the checklist as docs/runbook.md shows it.
func Markdown(steps []Step) string {
	var b strings.Builder
	for i, s := range steps {
		fmt.Fprintf(&b, "%d. **%s** (%s). %s\n   Check: %s.\n", i+1, s.Title, s.Owner, s.Do, s.Check)
	}
	return b.String()
}
