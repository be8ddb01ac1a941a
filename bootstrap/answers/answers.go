// Package answers are the values that make the project's files an
// organisation's own, and their rewrite from one organisation's to
// another's (platformctl bootstrap --answers).
package answers

import (
	"bytes"
	"fmt"
	"maps"
	"net/netip"
	"os"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/diag"
)

// Answers are the values that make the files an organisation's own:
// what bootstrap writes (Rewrite) and what Current reads back. Every
// field is required.
type Answers struct {
	GitHub  GitHubAnswers  `yaml:"github"`
	Pulumi  PulumiAnswers  `yaml:"pulumi"`
	AWS     AWSAnswers     `yaml:"aws"`
	Harness HarnessAnswers `yaml:"harness"`
	Domains DomainAnswers  `yaml:"domains"`
	Runners RunnerAnswers  `yaml:"runners"`
}

// GitHubAnswers are the GitHub organisation and its Apps.
type GitHubAnswers struct {
	// Organization owns this repository, the manifests repository and
	// every catalog service's repository.
	Organization string `yaml:"organization"`
	// Apps are the Apps of esc/github/<appId>.json, by the name in their
	// manifest.
	Apps map[string]AppAnswers `yaml:"apps"`
}

// AppAnswers are a registered App's ids; the installation's only where a
// file names it (Harness's App, foundation.github.app).
type AppAnswers struct {
	AppID          string `yaml:"appId"`
	InstallationID string `yaml:"installationId,omitempty"`
}

// PulumiAnswers name the Pulumi Cloud organisation: its stacks, ESC
// environments and OIDC audiences.
type PulumiAnswers struct {
	Organization string `yaml:"organization"`
}

// AWSAnswers are each environment's account (esc/aws/<account>.json) and
// the region of the platform's secrets (foundation.secretManager, the
// ESC logins).
type AWSAnswers struct {
	Accounts      map[string]string `yaml:"accounts"`
	SecretsRegion string            `yaml:"secretsRegion"`
}

// HarnessAnswers name the Harness account, whose OIDC provider the dev
// account trusts and whose id the ESC environments pass on.
type HarnessAnswers struct {
	AccountID string `yaml:"accountId"`
}

// DomainAnswers are the organisation's DNS domain (its registry,
// Backstage and Prometheus hosts) and its people's mail domain (the
// teams' members).
type DomainAnswers struct {
	Services string `yaml:"services"`
	Mail     string `yaml:"mail"`
}

// RunnerAnswers are the networks the self-hosted runners reach the
// clusters from: every stack's runner egressCidrs, the clusters'
// publicAccessCidrs and the policy pack's allowedPublicCidrs.
type RunnerAnswers struct {
	EgressCidrs []string `yaml:"egressCidrs"`
}

// Marshal is the answers as an answers file.
func (a Answers) Marshal() []byte {
	var b bytes.Buffer
	b.WriteString("# The values the project's files are written with (platformctl bootstrap\n" +
		"# --print-answers). To make them your organisation's, copy this file, edit\n" +
		"# each value and run `platformctl bootstrap --answers <the copy>`: it lists\n" +
		"# the changes, and with --yes writes them, this file included.\n")
	e := yaml.NewEncoder(&b)
	e.SetIndent(2)
	if err := e.Encode(a); err != nil {
		panic(err) // plain strings, maps and slices always encode
	}
	return b.Bytes()
}

var (
	githubLogin = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$`)
	pulumiOrg   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$`)
	numeric     = regexp.MustCompile(`^[1-9][0-9]{0,19}$`)
	awsAccount  = regexp.MustCompile(`^[0-9]{12}$`)
	awsRegion   = regexp.MustCompile(`^[a-z]{2}(?:-[a-z]+)+-[0-9]$`)
	harnessID   = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	hostname    = regexp.MustCompile(`^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$`)
)

// ReadAnswers reads an answers file and checks it against the files'
// own (current): the same environments and Apps, and every value of the
// form its service takes. The error names every problem at once, at its
// line in the file.
func Read(path string, current Answers) (Answers, error) {
	var a Answers
	data, err := os.ReadFile(path)
	if err != nil {
		return a, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return a, &ReadError{diag.List{{File: path, Message: err.Error(), Fix: "write the answers as YAML (platformctl bootstrap --print-answers prints the files' own)"}}}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&a); err != nil {
		return a, &ReadError{diag.List{{File: path, Message: err.Error(), Fix: "use the keys platformctl bootstrap --print-answers prints"}}}
	}
	var diags diag.List
	at := func(keys ...string) (int, int) {
		n := &doc
		if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
			n = n.Content[0]
		}
		line, col := n.Line, n.Column
		for _, k := range keys {
			var next *yaml.Node
			for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == k {
					next = n.Content[i+1]
				}
			}
			if next == nil {
				break
			}
			n, line, col = next, next.Line, next.Column
		}
		return line, col
	}
	check := func(value string, re *regexp.Regexp, fix string, keys ...string) {
		if !re.MatchString(value) {
			line, col := at(keys...)
			diags.Add(path, line, col, fix, "%s %q is not one", strings.Join(keys, "."), value)
		}
	}
	check(a.GitHub.Organization, githubLogin, "write the GitHub organisation's login, as in github.com/<login>", "github", "organization")
	check(a.Pulumi.Organization, pulumiOrg, "write the Pulumi Cloud organisation's name, as in app.pulumi.com/<name>", "pulumi", "organization")
	check(a.AWS.SecretsRegion, awsRegion, "write an AWS region such as eu-west-1", "aws", "secretsRegion")
	check(a.Harness.AccountID, harnessID, "write the Harness account id (Account Settings, Overview)", "harness", "accountId")
	check(a.Domains.Services, hostname, "write a DNS domain such as example.org (lower case)", "domains", "services")
	check(a.Domains.Mail, hostname, "write the domain of your people's mail addresses (lower case)", "domains", "mail")
	for _, name := range slices.Sorted(maps.Keys(current.GitHub.Apps)) {
		app, ok := a.GitHub.Apps[name]
		if !ok {
			line, col := at("github", "apps")
			diags.Add(path, line, col, "add "+name+" with the id GitHub gave it on registration", "github.apps has no %s", name)
			continue
		}
		check(app.AppID, numeric, "write the App ID its settings page shows", "github", "apps", name, "appId")
		if current.GitHub.Apps[name].InstallationID != "" {
			check(app.InstallationID, numeric, "write the id in the installation's URL (settings/installations/<id>)", "github", "apps", name, "installationId")
		}
	}
	for name := range a.GitHub.Apps {
		if _, ok := current.GitHub.Apps[name]; !ok {
			line, col := at("github", "apps", name)
			diags.Add(path, line, col, "name only the Apps of esc/github", "github.apps.%s is not an App of esc/github", name)
		}
	}
	seen := map[string]string{}
	for _, env := range slices.Sorted(maps.Keys(current.AWS.Accounts)) {
		id, ok := a.AWS.Accounts[env]
		if !ok {
			line, col := at("aws", "accounts")
			diags.Add(path, line, col, "add "+env+": <its 12-digit account id>", "aws.accounts has no %s", env)
			continue
		}
		check(id, awsAccount, "write the 12-digit account id", "aws", "accounts", env)
		if other, dup := seen[id]; dup {
			line, col := at("aws", "accounts", env)
			diags.Add(path, line, col, "give each environment its own account (esc/aws holds one template per account, with that environment's roles)",
				"aws.accounts.%s is %s's account too", env, other)
		}
		seen[id] = env
	}
	for env := range a.AWS.Accounts {
		if _, ok := current.AWS.Accounts[env]; !ok {
			line, col := at("aws", "accounts", env)
			diags.Add(path, line, col, "name only the stacks of the Pulumi.<stack>.yaml files", "aws.accounts.%s is not a stack", env)
		}
	}
	if len(a.Runners.EgressCidrs) == 0 {
		line, col := at("runners")
		diags.Add(path, line, col, "list the runners' NAT networks", "runners.egressCidrs is empty")
	}
	for i, cidr := range a.Runners.EgressCidrs {
		if p, err := netip.ParsePrefix(cidr); err != nil || !p.Addr().Is4() || p != p.Masked() {
			line, col := at("runners", "egressCidrs")
			diags.Add(path, line, col, "write an IPv4 network, masked, such as 198.51.100.0/28", "runners.egressCidrs[%d] %q is not one", i, cidr)
		}
	}
	if len(diags) > 0 {
		return a, &ReadError{diags.Sorted()}
	}
	return a, nil
}

// ReadError is every problem of an answers file.
type ReadError struct{ List diag.List }

func (e *ReadError) Error() string {
	return fmt.Sprintf("%d problem(s) in the answers, so nothing is written:\n%s", len(e.List), e.List)
}
