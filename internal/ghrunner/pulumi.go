package ghrunner

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/company/harness-platform/trust"
)

// The stand-ins of Pulumi's actions: Pulumi Cloud as the project's own
// files define it (esc/: the teams, the OIDC issuer's policies, the ESC
// environments and what their logins obtain; package trust answers as
// Pulumi Cloud, ESC, AWS and GitHub would).

// tokenPrefix starts the stand-in Pulumi access tokens: the team's name
// follows, for the stand-ins that act as the token's team.
const tokenPrefix = "pul-standin-team:"

// TeamOfToken is the team a stand-in PULUMI_ACCESS_TOKEN is of ("" for
// any other).
func TeamOfToken(token string) string {
	team, _ := strings.CutPrefix(token, tokenPrefix)
	if team == token {
		return ""
	}
	return team
}

// Claims are the job's GitHub Actions OIDC token's claims, as GitHub
// documents them ("OpenID Connect reference"): its subject names the
// job's environment when it has one, else a pull request, else the ref.
func Claims(j *Job, audience string) map[string]string {
	repo := j.Run.runner.Origin.Repo
	ev := j.Run.Event
	sub := "repo:" + repo + ":ref:" + ev.Ref
	switch {
	case j.Environment != "":
		sub = "repo:" + repo + ":environment:" + j.Environment
	case ev.Name == "pull_request":
		sub = "repo:" + repo + ":pull_request"
	}
	return map[string]string{"sub": sub, "aud": audience, "ref": ev.Ref, "repository": repo, "environment": j.Environment,
		"event_name": ev.Name, "job_workflow_ref": repo + "/" + j.Workflow.Path + "@" + ev.Ref}
}

// AuthActions stands in for pulumi/auth-actions@v1: GitHub's OIDC token
// exchanged for a Pulumi Cloud access token. As GitHub and Pulumi Cloud
// do, it refuses a job without id-token: write ("Unable to get
// ACTIONS_ID_TOKEN_REQUEST_URL env variable"), an organization other
// than m's, and an exchange the issuer's policies (esc/pulumi/access.yaml)
// deny for the job's claims (Claims: the job's environment, a pull
// request, or its ref). It sets PULUMI_ACCESS_TOKEN for the later
// steps: a token naming its team, which the other stand-ins act as,
// and logs how long Pulumi Cloud grants it (token-expiration in seconds,
// capped by the issuer's maxExpiration; 2 hours without it:
// trust.Access.TokenLifetime). It does not: talk to Pulumi Cloud, or
// expire the token (delivery's TestTokensOutliveTheirJobs holds every
// job's timeout within its token's life).
func AuthActions(m *trust.Model) Action {
	return func(s *StepContext) error {
		if s.Job.Permissions["id-token"] != "write" {
			return fmt.Errorf("Unable to get ACTIONS_ID_TOKEN_REQUEST_URL env variable (the job's permissions %v have no id-token: write)", s.Job.Permissions)
		}
		org := s.With["organization"]
		if org != m.Access.Organization {
			return fmt.Errorf("organization %q: this stand-in knows only %s", org, m.Access.Organization)
		}
		typ, ok := strings.CutPrefix(s.With["requested-token-type"], "urn:pulumi:token-type:access_token:")
		if !ok {
			return fmt.Errorf("requested-token-type %q", s.With["requested-token-type"])
		}
		team := ""
		if typ == "team" {
			if team, ok = strings.CutPrefix(s.With["scope"], "team:"); !ok {
				return fmt.Errorf("a team token needs scope: team:<name>, not %q", s.With["scope"])
			}
		}
		life, err := m.Access.GrantedLifetime(s.With["token-expiration"])
		if err != nil {
			return err
		}
		claims := Claims(s.Job, "urn:pulumi:org:"+org)
		if err := m.Access.Exchange(claims, typ, team); err != nil {
			return fmt.Errorf("%w (job %s, claims %v)", err, s.Job.Name, claims)
		}
		if typ != "team" {
			return fmt.Errorf("a %s token: this stand-in makes team tokens only", typ)
		}
		s.SetEnv("PULUMI_ACCESS_TOKEN", tokenPrefix+team)
		fmt.Fprintf(s.Log, "Pulumi Cloud token of team %s for %s, for %s\n", team, claims["sub"], life)
		return nil
	}
}

// Open opens environment (org/project/name) as the team of token, as
// esc-action and pulumi env run do: ESC refuses an environment the team
// may not open; the logins are answered as AWS and GitHub would.
func Open(m *trust.Model, token, environment string) (map[string]string, []trust.Grant, error) {
	team := TeamOfToken(token)
	if team == "" {
		return nil, nil, fmt.Errorf("no Pulumi access token (PULUMI_ACCESS_TOKEN): run pulumi/auth-actions first")
	}
	org, env, ok := strings.Cut(environment, "/")
	if !ok || org != m.Access.Organization {
		return nil, nil, fmt.Errorf("environment %q: want %s/<project>/<name>", environment, m.Access.Organization)
	}
	o, err := m.Open(context.Background(), team, env, false)
	if err != nil {
		return nil, nil, fmt.Errorf("opening %s as team %s: %w", environment, team, err)
	}
	out := map[string]string{}
	for k, v := range o.Values.GetEnvironmentVariables() {
		out[k] = v.ToString(false)
	}
	return out, o.Grants, nil
}

// EscAction stands in for pulumi/esc-action@v1: it opens the
// environment (with: environment) as the team whose token
// PULUMI_ACCESS_TOKEN holds (Open: refused when the team may not open
// it, or a login of it fails) and exports its environmentVariables to
// the later steps. It does not: mask the secrets in the log, write
// files:, or take keys: and export-environment-variables.
func EscAction(m *trust.Model) Action {
	return func(s *StepContext) error {
		vars, grants, err := Open(m, s.Env["PULUMI_ACCESS_TOKEN"], s.With["environment"])
		if err != nil {
			return err
		}
		// The GitHub App tokens it minted read what they were minted
		// for (a checkout of another repository asks).
		for _, g := range grants {
			if g.Kind == trust.KindGitHubApp && g.Token != "" {
				s.Runner.grant(g.Token, g.Repositories)
			}
		}
		names := make([]string, 0, len(vars))
		for k, v := range vars {
			s.SetEnv(k, v)
			names = append(names, k)
		}
		slices.Sort(names)
		fmt.Fprintf(s.Log, "opened %s: exported %s\n", s.With["environment"], strings.Join(names, ", "))
		return nil
	}
}

// PulumiActions stands in for pulumi/actions@v6 used to install the CLI
// only: with pulumi-version (required here, and it must be version) and
// no command, it puts dir first on PATH (the directory of a `pulumi`:
// offline, the stand-in CLI that runs the pinned one). It does not:
// download a CLI, or run a command (refused).
func PulumiActions(version, dir string) Action {
	return func(s *StepContext) error {
		if c := s.With["command"]; c != "" {
			return fmt.Errorf("command %q: this stand-in only installs the CLI", c)
		}
		if v := s.With["pulumi-version"]; strings.TrimPrefix(v, "v") != strings.TrimPrefix(version, "v") {
			return fmt.Errorf("pulumi-version %q: this runner has the pinned %s", v, version)
		}
		s.AddPath(dir)
		return nil
	}
}
