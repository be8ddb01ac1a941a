package bootstrap

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/company/harness-platform/bootstrap/answers"
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/diag"
	"github.com/company/harness-platform/trust"
)

// harnessOIDC is where the dev account's template names the Harness
// account, in its OIDC provider's URL (esc/aws/<dev account>.json).
var harnessOIDC = regexp.MustCompile(`app\.harness\.io/ng/api/oidc/account/([A-Za-z0-9_-]+)`)

// Current reads the answers the files in root are written with: the
// values answers.Plan replaces. The error names every value the files do not
// say, or say in two ways.
func Current(root string) (answers.Answers, error) {
	var a answers.Answers
	var diags diag.List
	c, err := catalog.Load(root)
	if err != nil {
		return a, err
	}
	m, err := trust.LoadFS(os.DirFS(filepath.Join(root, "esc")))
	if err != nil {
		return a, err
	}
	rootStack := c.Stacks[c.Chain[0]]
	rootFile := "Pulumi." + c.Chain[0] + ".yaml"
	f := rootStack.Foundation
	if f == nil || f.Repository == "" {
		diags.Add(rootFile, 0, 0, "write foundation.repository as owner/name", "the root stack file names no repository, so its GitHub organisation is unknown")
	} else {
		a.GitHub.Organization, _, _ = strings.Cut(f.Repository, "/")
	}
	a.GitHub.Apps = map[string]answers.AppAnswers{}
	for id, app := range m.Apps {
		ans := answers.AppAnswers{AppID: id}
		if f != nil && f.Github.App.ApplicationID == id {
			ans.InstallationID = f.Github.App.InstallationID
		}
		a.GitHub.Apps[app.Name] = ans
	}
	a.Pulumi.Organization = m.Access.Organization
	a.AWS.Accounts = map[string]string{}
	for _, env := range c.Chain {
		if s := c.Stacks[env]; s.AWS != nil {
			a.AWS.Accounts[env] = s.AWS.Account()
		}
	}
	if f != nil {
		a.AWS.SecretsRegion = f.SecretManager.Region
		if _, host, ok := strings.Cut(f.Registry.Host, "."); ok {
			a.Domains.Services = host
		}
	}
	for _, acct := range slices.Sorted(maps.Keys(m.Accounts)) {
		data, err := os.ReadFile(filepath.Join(root, "esc", "aws", acct+".json"))
		if err != nil {
			return a, err
		}
		if sub := harnessOIDC.FindSubmatch(data); sub != nil {
			a.Harness.AccountID = string(sub[1])
		}
	}
	mails := map[string]bool{}
	for _, t := range c.Teams {
		for _, member := range t.Members {
			if _, domain, ok := strings.Cut(member, "@"); ok {
				mails[domain] = true
			}
		}
	}
	if len(mails) > 1 {
		diags.Add(catalog.TeamsFile, 0, 0, "bootstrap writes one mail domain; edit the members by hand", "the teams' members are of %d mail domains", len(mails))
	}
	for d := range mails {
		a.Domains.Mail = d
	}
	for _, env := range c.Chain {
		s := c.Stacks[env]
		if s.Runner == nil {
			continue
		}
		if a.Runners.EgressCidrs == nil {
			a.Runners.EgressCidrs = slices.Clone(s.Runner.EgressCidrs)
		} else if !slices.Equal(a.Runners.EgressCidrs, s.Runner.EgressCidrs) {
			diags.Add("Pulumi."+env+".yaml", 0, 0, "bootstrap writes one list of runner networks for every stack; edit the stack files by hand",
				"runner egressCidrs %v differ from %s's %v", s.Runner.EgressCidrs, rootFile, a.Runners.EgressCidrs)
		}
	}
	// Each answer the files hold nowhere.
	for _, f := range []struct{ key, value string }{
		{"github.organization", a.GitHub.Organization},
		{"pulumi.organization", a.Pulumi.Organization},
		{"aws.secretsRegion", a.AWS.SecretsRegion},
		{"harness.accountId", a.Harness.AccountID},
		{"domains.services", a.Domains.Services},
		{"domains.mail", a.Domains.Mail},
	} {
		if f.value == "" {
			diags.Add("the files", 0, 0, "", "%s is not known", f.key)
		}
	}
	return a, diags.Err()
}
