package adopt

import (
	"fmt"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/harness/importid"
)

// ImportFile is a `pulumi import --file` file.
type ImportFile struct {
	// NameTable names the resources the state already holds, by URN.
	NameTable map[string]string `json:"nameTable"`
	Resources []ImportResource  `json:"resources"`
}

// ImportResource is one resource of an ImportFile.
type ImportResource struct {
	Type        string `json:"type"`
	Name        string `json:"name"`
	LogicalName string `json:"logicalName,omitempty"`
	ID          string `json:"id,omitempty"`
	Parent      string `json:"parent,omitempty"`
	Version     string `json:"version,omitempty"`
	Component   bool   `json:"component,omitempty"`
	// Provider names an explicit provider (in the name table or the
	// file); a provider declared in the file has its configuration in
	// Inputs.
	Provider string         `json:"provider,omitempty"`
	Inputs   map[string]any `json:"inputs,omitempty"`
}

// Imports is how the existing objects among found are adopted into the
// state of the stack whose preview declared plan. The import file reads
// each by its import ID, under the URN the program declares (its chain of
// components is created in the state with it; they are no cloud
// objects), with the provider version the program uses; the import only
// reads, and the next preview shows the differences as in-place updates.
// The objects the provider's import cannot read back (importid.Adoptable)
// are returned apart, for IntoState; the file holds their components.
func Imports(plan []Declared, found []Adoption) (file ImportFile, unreadable []Declared) {
	byURN := map[string]Declared{}
	for _, d := range plan {
		byURN[d.URN] = d
	}
	ids := map[string]string{}
	for _, a := range found {
		if !a.Status.Adopts() {
			continue
		}
		if importid.Adoptable(a.Type) || a.Type == importid.GitHubOrgVariable {
			ids[a.URN] = a.ImportID
		} else {
			unreadable = append(unreadable, byURN[a.URN])
		}
	}
	file.NameTable = map[string]string{}
	keys := map[string]string{} // URN -> its name in the file
	var add func(urn string) string
	add = func(urn string) string {
		d, ok := byURN[urn]
		if !ok || d.Type == "pulumi:pulumi:Stack" {
			return "" // the stack: every import's default parent
		}
		if k, ok := keys[urn]; ok {
			return k
		}
		k := fmt.Sprintf("r%d", len(keys))
		keys[urn] = k
		if !d.Create {
			file.NameTable[k] = urn // the state holds it
			return k
		}
		r := ImportResource{Type: d.Type, Name: k, LogicalName: resource.URN(urn).Name(), Parent: add(d.Parent)}
		id, imported := ids[urn]
		switch {
		case imported && strings.HasPrefix(providerName(d.Provider), "default_"):
			r.ID, r.Version = id, providerVersion(d.Provider)
		case imported:
			// Through the program's explicit provider: in the state,
			// or created by the import with its configuration.
			r.ID, r.Provider = id, add(providerURN(d.Provider))
		case strings.HasPrefix(d.Type, "pulumi:providers:"):
			r.Version, r.Inputs = d.version(), d.Inputs
		default:
			r.Component = true
		}
		file.Resources = append(file.Resources, r)
		return k
	}
	for _, a := range found {
		if _, ok := ids[a.URN]; ok {
			add(a.URN)
		}
	}
	for _, d := range unreadable {
		add(d.Parent) // its components, for the state entry IntoState writes
	}
	return file, unreadable
}

// IntoState adopts objects whose provider import cannot read them back (a
// delegate token: the importer sets no name, and the token's read looks
// it up by name) as recover does: each is written into deployment (the
// state, as `pulumi stack export` gives it) with its id and declared
// inputs, under its provider there. A refresh targeting the URNs it
// returns then reads them by what the state holds, keeping what the cloud
// has.
func IntoState(deployment map[string]any, objects []Declared) (targets []string, err error) {
	resources, _ := deployment["resources"].([]any)
	for _, d := range objects {
		provider := ""
		for _, r := range resources {
			r, _ := r.(map[string]any)
			if urn, _ := r["urn"].(string); r["type"] == "pulumi:providers:"+strings.SplitN(d.Type, ":", 2)[0] &&
				resource.URN(urn).Name() == providerName(d.Provider) {
				provider = urn + "::" + fmt.Sprint(r["id"])
			}
		}
		if provider == "" {
			return nil, fmt.Errorf("%s: its provider %s is not in the state after the import", d.URN, d.Provider)
		}
		resources = append(resources, map[string]any{
			"urn": d.URN, "custom": true, "type": d.Type, "id": importid.ResourceID(d.Type, d.stringInputs()),
			"parent": d.Parent, "provider": provider, "inputs": d.Inputs, "outputs": d.Inputs,
		})
		targets = append(targets, d.URN)
	}
	deployment["resources"] = resources
	return targets, nil
}
