package adopt

import (
	"fmt"
	"sort"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/harness/importid"
)

// GitHub objects the stacks declare for the services' repositories: of
// them only an organisation's Actions variable refuses a first up when it
// exists (package importid), so import adopts those. They are declared
// through each owner's explicit provider, which the probe stands in for
// with a provider of its own, configured as the program's.

// githubOrg is one organisation whose variables the probe lists.
type githubOrg struct {
	provider  Declared // the owner's provider, as the program declares it
	variables []Declared
}

// githubOrgs groups the variables to create by owner (provider).
func githubOrgs(plan []Declared) ([]githubOrg, error) {
	byURN := map[string]Declared{}
	for _, d := range plan {
		byURN[d.URN] = d
	}
	groups := map[string]*githubOrg{}
	for _, d := range plan {
		if d.Type != importid.GitHubOrgVariable || !d.Create {
			continue
		}
		urn := providerURN(d.Provider)
		p, ok := byURN[urn]
		if !ok {
			return nil, fmt.Errorf("%s: its provider %s is not in the preview", d.URN, urn)
		}
		if groups[urn] == nil {
			groups[urn] = &githubOrg{provider: p}
		}
		groups[urn].variables = append(groups[urn].variables, d)
	}
	var out []githubOrg
	for _, g := range groups {
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].provider.URN < out[j].provider.URN })
	return out, nil
}

// probeGitHub lists each organisation's variables (one call per owner)
// and records those that exist in found, by URN.
func probeGitHub(ctx *pulumi.Context, orgs []githubOrg, found map[string]map[string]any) (calls int, err error) {
	for _, g := range orgs {
		p, err := standIn(ctx, g.provider)
		if err != nil {
			return calls, err
		}
		var result map[string]any
		calls++
		if _, err := ctx.InvokePackageRaw(importid.GitHubOrgVariables, map[string]any{}, &result, "",
			pulumi.Provider(p), pulumi.Version(g.provider.version())); err != nil {
			return calls, fmt.Errorf("listing the organisation variables of %s: %w", resource.URN(g.provider.URN).Name(), err)
		}
		existing := map[string]map[string]any{}
		variables, _ := result["variables"].([]any)
		for _, v := range variables {
			v, _ := v.(map[string]any)
			name, _ := v["name"].(string)
			existing[name] = v
		}
		for _, d := range g.variables {
			name := d.stringInputs()["variableName"]
			if v, ok := existing[name]; ok {
				found[d.URN] = map[string]any{"variableName": name, "value": v["value"], "visibility": v["visibility"]}
			}
		}
	}
	return calls, nil
}

// standInProvider is a provider the probe registers in place of one the
// program declares.
type standInProvider struct{ pulumi.ProviderResourceState }

// standIn registers a provider configured as the declared one (the
// probe runs before the program declares its own).
func standIn(ctx *pulumi.Context, p Declared) (pulumi.ProviderResource, error) {
	inputs := pulumi.Map{}
	for k, v := range p.Inputs {
		if k != "version" {
			inputs[k] = pulumi.Any(v)
		}
	}
	var out standInProvider
	name := "import-probe-" + resource.URN(p.URN).Name()
	if err := ctx.RegisterResource(p.Type, name, inputs, &out, pulumi.Version(p.version())); err != nil {
		return nil, err
	}
	return &out, nil
}
