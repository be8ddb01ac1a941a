package trust

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pulumi/esc"
	"github.com/pulumi/esc/eval"
	"github.com/pulumi/esc/schema"
)

// Kinds of grant.
const (
	KindStack     = "stack"
	KindAWSRole   = "aws-role"
	KindSecret    = "secret"
	KindGitHubApp = "github-app"
)

// A Grant is one credential or permission a run can obtain.
type Grant struct {
	Kind, Name string
	Writes     bool
	// Via is the ESC environment that yields it ("" for a permission
	// of the team itself).
	Via string
	// Lifetime is how long a login lasts once opened (0: as long as
	// the run's token).
	Lifetime time.Duration
	// Token and Repositories are a GitHub App token's, and the
	// repositories (owner/name) it reads: nil for every repository of
	// the installation.
	Token        string
	Repositories []string
}

func (g Grant) String() string {
	w := "reads"
	if g.Writes {
		w = "WRITES"
	}
	s := fmt.Sprintf("%s %s (%s)", g.Kind, g.Name, w)
	if g.Via != "" {
		s += " via " + g.Via
	}
	return s
}

// Opened is an environment opened as a team: its values and what opening
// it obtained.
type Opened struct {
	Values *esc.Environment
	Grants []Grant
	// Subjects are the OIDC subjects its AWS logins presented.
	Subjects []string
}

// AnonymousEnvironment is the name ESC gives the environment a stack file
// declares (its imports), which the CLI opens for every operation.
const AnonymousEnvironment = esc.AnonymousEnvironmentName

// GitHub's installation tokens last an hour, however they are minted
// (docs.github.com, "Generating an installation access token for a GitHub
// App"); ESC's gh-login says so too.
const GitHubTokenLifetime = time.Hour

// defaultLoginDuration is aws-login's duration when none is given
// (https://www.pulumi.com/docs/esc/integrations/dynamic-login-credentials/aws-login/).
const defaultLoginDuration = 2 * time.Hour

// Open opens environment env as a member of team would: directly (esc
// open, esc-action, pulumi env run), or, with viaStack, as the CLI does
// for a stack whose file imports it (an anonymous environment importing
// it). ESC refuses an environment, or an import, the team may not open;
// each login is answered as AWS and GitHub answer it.
func (m *Model) Open(ctx context.Context, team, env string, viaStack bool) (*Opened, error) {
	t := m.Access.Team(team)
	if t == nil {
		return nil, fmt.Errorf("[401] Unauthorized: no team %s in organization %s", team, m.Access.Organization)
	}
	if !t.MayOpen(env) {
		if viaStack {
			return nil, fmt.Errorf("opening environment: [0] \nDiags: %w", ErrNoPermission)
		}
		return nil, fmt.Errorf("[403] %w", ErrNoPermission)
	}
	name, data := env, m.Environments[env]
	if data == nil {
		return nil, fmt.Errorf("[404] Not Found: environment %s/%s", m.Access.Organization, env)
	}
	if viaStack {
		name, data = AnonymousEnvironment, []byte("imports:\n  - "+env+"\n")
	}
	decl, diags, err := eval.LoadYAMLBytes(name, data)
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s: %v", env, diags)
	}
	s := &session{m: m, team: t, opened: name}
	execContext, err := esc.NewExecContext(map[string]esc.Value{})
	if err != nil {
		return nil, err
	}
	values, diags := eval.EvalEnvironment(ctx, name, decl, nil, s, s, execContext)
	if diags.HasErrors() {
		return nil, fmt.Errorf("opening %s as team %s: %v", env, team, diags)
	}
	return &Opened{Values: values, Grants: s.grants, Subjects: s.subjects}, nil
}

// session is one open: the environment loader and the providers,
// recording what the logins obtain.
type session struct {
	m        *Model
	team     *Team
	opened   string
	grants   []Grant
	subjects []string
}

func (s *session) LoadEnvironment(_ context.Context, name string) ([]byte, eval.Decrypter, error) {
	if !s.team.MayOpen(name) {
		return nil, nil, fmt.Errorf("%s: %w", name, ErrNoPermission)
	}
	data, ok := s.m.Environments[name]
	if !ok {
		return nil, nil, fmt.Errorf("environment %s not found", name)
	}
	return data, nil, nil
}

func (s *session) LoadProvider(_ context.Context, name string) (esc.Provider, error) {
	var open opener
	switch name {
	case "aws-login":
		open = awsLogin{s}.Open
	case "aws-secrets":
		open = awsSecrets{s}.Open
	case "gh-login":
		open = ghLogin{s}.Open
	default:
		return nil, fmt.Errorf("unknown provider %q", name)
	}
	if s.m.Schemas == nil {
		// No ../shared (a real run's runner): the evaluator checks no
		// input type here; Pulumi Cloud checks the live environments.
		return standIn{ProviderSchema{Inputs: schema.Always(), Outputs: schema.Always()}, open}, nil
	}
	sch, ok := s.m.Schemas[name]
	if !ok {
		return nil, fmt.Errorf("provider %q: no published schema in ../shared/%s", name, SchemaFile)
	}
	return standIn{sch, open}, nil
}

// ProviderSchema is what the stand-in provider name declares to the
// evaluator (nil for a provider with no stand-in).
func (m *Model) ProviderSchema(name string) (inputs, outputs *schema.Schema) {
	p, err := (&session{m: m}).LoadProvider(context.Background(), name)
	if err != nil {
		return nil, nil
	}
	return p.Schema()
}

// opener is a stand-in provider's Open.
type opener func(context.Context, map[string]esc.Value, esc.EnvExecContext) (esc.Value, error)

// standIn is a provider as the evaluator sees it: the published schema
// (ProviderSchema, never a hand-written one) and the stand-in's Open.
type standIn struct {
	schema ProviderSchema
	open   opener
}

func (p standIn) Schema() (*schema.Schema, *schema.Schema) { return p.schema.Inputs, p.schema.Outputs }

func (p standIn) Open(ctx context.Context, inputs map[string]esc.Value, ec esc.EnvExecContext) (esc.Value, error) {
	return p.open(ctx, inputs, ec)
}

func (s *session) LoadRotator(_ context.Context, name string) (esc.Rotator, error) {
	return nil, fmt.Errorf("unknown rotator %q", name)
}

func str(v map[string]esc.Value, key string) string {
	s, _ := v[key].Value.(string)
	return s
}

// awsLogin is fn::open::aws-login's OIDC login: ESC presents a token of
// issuer api.pulumi.com/oidc, audience aws:<org>, to
// AssumeRoleWithWebIdentity. Without subjectAttributes its subject names
// the environment opened (pulumi:environments:org:<org>:env:<name>, which
// is <yaml> when the CLI opens a stack's imports); with them,
// pulumi:environments:pulumi.organization.login:<org> followed by each
// attribute and its value
// (https://www.pulumi.com/docs/esc/guides/configuring-oidc/#custom-subject-claims).
type awsLogin struct{ s *session }

// Subject is the OIDC subject ESC presents for a login in environment
// current, opened as root, with attrs (its subjectAttributes).
func Subject(org, opened, current, root string, attrs []string) string {
	if len(attrs) == 0 {
		return "pulumi:environments:org:" + org + ":env:" + opened
	}
	var b strings.Builder
	b.WriteString("pulumi:environments:pulumi.organization.login:" + org)
	for _, a := range attrs {
		v := ""
		switch a {
		case "currentEnvironment.name":
			v = current
		case "rootEnvironment.name":
			v = root
		case "pulumi.organization.login":
			continue // the prefix names it
		case "pulumi.user.login":
			v = "" // a team token has no user
		}
		b.WriteString(":" + a + ":" + v)
	}
	return b.String()
}

func (l awsLogin) Open(_ context.Context, inputs map[string]esc.Value, ec esc.EnvExecContext) (esc.Value, error) {
	oidc, _ := inputs["oidc"].Value.(map[string]esc.Value)
	arn, session := str(oidc, "roleArn"), str(oidc, "sessionName")
	duration := defaultLoginDuration
	if d := str(oidc, "duration"); d != "" {
		var err error
		if duration, err = time.ParseDuration(d); err != nil {
			return esc.Value{}, fmt.Errorf("duration %q: %w", d, err)
		}
	}
	var attrs []string
	if a, ok := oidc["subjectAttributes"].Value.([]esc.Value); ok {
		for _, v := range a {
			s, _ := v.Value.(string)
			attrs = append(attrs, s)
		}
	}
	org := l.s.m.Access.Organization
	sub := Subject(org, l.s.opened, ec.GetCurrentEnvironmentName(), ec.GetRootEnvironmentName(), attrs)
	l.s.subjects = append(l.s.subjects, sub)
	account, name, ok := roleOf(arn)
	a := l.s.m.Accounts[account]
	if !ok || a == nil {
		return esc.Value{}, fmt.Errorf("%s", notAuthorizedToAssume)
	}
	r, err := a.AssumeWithWebIdentity(name, map[string]string{"aud": "aws:" + org, "sub": sub}, duration)
	if err != nil {
		return esc.Value{}, err
	}
	l.s.grants = append(l.s.grants, Grant{Kind: KindAWSRole, Name: r.ARN(), Writes: r.Writes(), Via: ec.GetCurrentEnvironmentName(), Lifetime: duration})
	return esc.NewValue(map[string]esc.Value{
		"accessKeyId":     esc.NewSecret("ASIASTANDIN"),
		"secretAccessKey": esc.NewSecret("stand-in"),
		// Carries the session, for aws-secrets to act as.
		"sessionToken": esc.NewSecret(r.ARN() + "/" + session),
	}), nil
}

// roleOf splits a role ARN into its account and name.
func roleOf(arn string) (account, name string, ok bool) {
	rest, ok := strings.CutPrefix(arn, "arn:aws:iam::")
	if !ok {
		return "", "", false
	}
	account, name, ok = strings.Cut(rest, ":role/")
	return account, name, ok
}

// awsSecrets is fn::open::aws-secrets: GetSecretValue of each secret with
// the login's session.
type awsSecrets struct{ s *session }

func (a awsSecrets) Open(_ context.Context, inputs map[string]esc.Value, ec esc.EnvExecContext) (esc.Value, error) {
	login, _ := inputs["login"].Value.(map[string]esc.Value)
	account, rest, _ := strings.Cut(strings.TrimPrefix(str(login, "sessionToken"), "arn:aws:iam::"), ":role/")
	roleName, sessionName, _ := strings.Cut(rest, "/")
	acct := a.s.m.Accounts[account]
	var role *Role
	if acct != nil {
		role = acct.Roles[roleName]
	}
	if role == nil {
		return esc.Value{}, errors.New("An error occurred (UnrecognizedClientException) when calling the GetSecretValue operation: The security token included in the request is invalid.")
	}
	region := str(inputs, "region")
	get, _ := inputs["get"].Value.(map[string]esc.Value)
	out := map[string]esc.Value{}
	var errs []error
	for key, v := range get {
		id := str(v.Value.(map[string]esc.Value), "secretId")
		sec, err := acct.GetSecretValue(role, sessionName, region, id)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		a.s.grants = append(a.s.grants, Grant{Kind: KindSecret, Name: id, Writes: sec.Writes, Via: ec.GetCurrentEnvironmentName()})
		// Named by the secret it stands for, so tests can tell which
		// secret a credential comes from.
		out[key] = esc.NewSecret("stand-in value of " + id)
	}
	if err := errors.Join(errs...); err != nil {
		return esc.Value{}, err
	}
	return esc.NewValue(out), nil
}

// ghLogin is fn::open::gh-login: an installation token of the GitHub App
// minted with its private key, for owner, with the permissions asked for
// (all of the installation's by default), expiring after an hour
// (https://www.pulumi.com/docs/esc/integrations/dynamic-login-credentials/gh-login/).
// GitHub refuses permissions the installation lacks: 422 The permissions
// requested are not granted to this installation.
type ghLogin struct{ s *session }

func (g ghLogin) Open(_ context.Context, inputs map[string]esc.Value, ec esc.EnvExecContext) (esc.Value, error) {
	// The published schema types appId as a number, which the evaluator
	// has checked; esc.Value holds numbers as json.Number.
	id := fmt.Sprint(inputs["appId"].Value)
	app, ok := g.s.m.Apps[id]
	if !ok || !inputs["privateKey"].Secret || str(inputs, "privateKey") == "" {
		return esc.Value{}, fmt.Errorf("POST https://api.github.com/app/installations: 401 A JSON web token could not be decoded")
	}
	perms := app.Permissions
	if asked, ok := inputs["permissions"].Value.(map[string]esc.Value); ok {
		perms = map[string]string{}
		for k, v := range asked {
			level, _ := v.Value.(string)
			if have := app.Permissions[k]; have == "" || (have == "read" && level == "write") {
				return esc.Value{}, fmt.Errorf("POST https://api.github.com/app/installations/{installation_id}/access_tokens: 422 The permissions requested are not granted to this installation.")
			}
			perms[k] = level
		}
	}
	writes := false
	for _, level := range perms {
		writes = writes || level == "write"
	}
	// repositories narrows the token to those of owner (gh-login's
	// inputs; GitHub's "repositories" of an installation access token).
	owner := str(inputs, "owner")
	name, token := app.Name+" on "+owner, "ghs_stand-in-"+app.Name
	var repos []string
	if list, ok := inputs["repositories"].Value.([]esc.Value); ok && len(list) > 0 {
		var names []string
		for _, v := range list {
			n, _ := v.Value.(string)
			names = append(names, n)
			repos = append(repos, owner+"/"+n)
		}
		name, token = app.Name+" on "+strings.Join(repos, ", "), token+"-"+strings.Join(names, "+")
	}
	g.s.grants = append(g.s.grants, Grant{Kind: KindGitHubApp, Name: name, Writes: writes, Via: ec.GetCurrentEnvironmentName(), Lifetime: GitHubTokenLifetime,
		Token: token, Repositories: repos})
	// The outputs the published schema requires.
	return esc.NewValue(map[string]esc.Value{
		"accessToken":    esc.NewSecret(token),
		"appId":          inputs["appId"],
		"appSlug":        esc.NewValue(app.Name),
		"installationId": esc.NewValue(json.Number("1")),
		"expiry":         esc.NewValue(time.Now().Add(GitHubTokenLifetime).UTC().Format(time.RFC3339)),
		"type":           esc.NewValue("installation"),
	}), nil
}
