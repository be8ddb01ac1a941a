package adopt

import (
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/harness/importid"
)

// Declared is one resource of a stack's preview.
type Declared struct {
	URN, Type string
	Parent    string // the parent's URN
	Provider  string // the provider reference (URN::id)
	Inputs    map[string]any
	// Create: the preview creates it, so the state does not hold it.
	Create bool
}

// DeclaredBy is the resource a preview's event declares, if any.
func DeclaredBy(e apitype.EngineEvent) (Declared, bool) {
	if e.ResourcePreEvent == nil || e.ResourcePreEvent.Metadata.New == nil {
		return Declared{}, false
	}
	m := e.ResourcePreEvent.Metadata
	return Declared{URN: m.URN, Type: m.Type, Parent: m.New.Parent, Provider: m.New.Provider,
		Inputs: m.New.Inputs, Create: m.Op == apitype.OpCreate}, true
}

// ImportID is the provider's import ID of the object ("" if its inputs do
// not say).
func (d Declared) ImportID() string {
	in := d.stringInputs()
	if d.Type == importid.GitHubOrgVariable {
		return in["variableName"]
	}
	id, _ := importid.Format(d.Type, in)
	return id
}

// stringInputs are the string inputs of the object (identifier, name and
// scope among them).
func (d Declared) stringInputs() map[string]string {
	out := map[string]string{}
	for k, v := range d.Inputs {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// version is the plugin version a declared provider asks for.
func (d Declared) version() string {
	v, _ := d.Inputs["version"].(string)
	return v
}

// providerName is the name in a provider reference, a URN and an id
// (urn:...::pulumi:providers:harness::default_0_16_0::id).
func providerName(ref string) string {
	return resource.URN(providerURN(ref)).Name()
}

// providerURN is the URN in a provider reference (urn::id).
func providerURN(ref string) string {
	if i := strings.LastIndex(ref, "::"); i >= 0 {
		return ref[:i]
	}
	return ref
}

// providerVersion is the version of a default provider reference
// (default_0_16_0: 0.16.0).
func providerVersion(ref string) string {
	v, _ := strings.CutPrefix(providerName(ref), "default_")
	return strings.ReplaceAll(v, "_", ".")
}
