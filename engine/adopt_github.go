package engine

import (
	"fmt"
	"sort"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/harness/importid"
)

// GitHub objects the stacks declare in the services' repositories: of
// them only an Actions environment variable refuses a first up when it
// exists (package importid), so import adopts those. They are declared
// through each owner's explicit provider, which the probe stands in for
// with a provider of its own, configured as the program's.

// githubEnv is one GitHub environment whose variables the probe lists.
type githubEnv struct {
	provider  declared // the owner's provider, as the program declares it
	repo, env string
	variables []declared
}

// githubEnvs groups the variables to create by owner and environment.
func githubEnvs(plan []declared) ([]githubEnv, error) {
	byURN := map[string]declared{}
	for _, d := range plan {
		byURN[d.urn] = d
	}
	groups := map[string]*githubEnv{}
	for _, d := range plan {
		if d.typ != importid.GitHubVariable || !d.create {
			continue
		}
		in := stringInputs(d)
		urn := providerURN(d.provider)
		p, ok := byURN[urn]
		if !ok {
			return nil, fmt.Errorf("%s: its provider %s is not in the preview", d.urn, urn)
		}
		key := urn + " " + in["repository"] + " " + in["environment"]
		if groups[key] == nil {
			groups[key] = &githubEnv{provider: p, repo: in["repository"], env: in["environment"]}
		}
		groups[key].variables = append(groups[key].variables, d)
	}
	var out []githubEnv
	for _, g := range groups {
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].provider.urn+out[i].repo+out[i].env < out[j].provider.urn+out[j].repo+out[j].env
	})
	return out, nil
}

// probeGitHub lists each environment's variables (one call per
// environment) and records those that exist in found, by URN; an
// environment that does not exist has none.
func probeGitHub(pctx *pulumi.Context, envs []githubEnv, found map[string]map[string]any) (calls int, err error) {
	providers := map[string]pulumi.ProviderResource{}
	for _, g := range envs {
		p, ok := providers[g.provider.urn]
		if !ok {
			if p, err = standIn(pctx, g.provider); err != nil {
				return calls, err
			}
			providers[g.provider.urn] = p
		}
		var result map[string]any
		calls++
		_, err := pctx.InvokePackageRaw(importid.GitHubVariables, map[string]any{"name": g.repo, "environment": g.env}, &result, "",
			pulumi.Provider(p), pulumi.Version(versionOf(g.provider)))
		if err != nil && !isNotFound(err) {
			return calls, fmt.Errorf("listing the variables of %s's environment %s: %w", g.repo, g.env, err)
		}
		existing := map[string]string{}
		variables, _ := result["variables"].([]any)
		for _, v := range variables {
			v, _ := v.(map[string]any)
			name, _ := v["name"].(string)
			existing[name], _ = v["value"].(string)
		}
		for _, d := range g.variables {
			name := stringInputs(d)["variableName"]
			if value, ok := existing[name]; ok {
				found[d.urn] = map[string]any{"repository": g.repo, "environment": g.env, "variableName": name, "value": value}
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
func standIn(pctx *pulumi.Context, p declared) (pulumi.ProviderResource, error) {
	inputs := pulumi.Map{}
	for k, v := range p.inputs {
		if k != "version" {
			inputs[k] = pulumi.Any(v)
		}
	}
	var out standInProvider
	name := "import-probe-" + resource.URN(p.urn).Name()
	if err := pctx.RegisterResource(p.typ, name, inputs, &out, pulumi.Version(versionOf(p))); err != nil {
		return nil, err
	}
	return &out, nil
}

// versionOf is the plugin version a declared provider asks for.
func versionOf(p declared) string {
	v, _ := p.inputs["version"].(string)
	return v
}
