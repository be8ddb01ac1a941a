package harness

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/harness/template"
	"github.com/company/harness-platform/simulated/core"
)

// TemplateType is the Harness provider's template resource: one Pulumi
// object per template version (the provider updates a version in place;
// a new version label is a new object).
const TemplateType = "harness:platform/template:Template"

// templateVersions are the stored versions of the template a reference
// from a pipeline in org/project names, oldest first.
func templateVersions(cloud *core.Cloud, ref template.Ref, org, project string) []core.Record {
	scope, id := ref.Scope()
	wantOrg, wantProject := "", ""
	switch scope {
	case "project":
		wantOrg, wantProject = org, project
	case "org":
		wantOrg = org
	}
	var out []core.Record
	for _, r := range cloud.OfType(TemplateType) {
		p := r.Properties
		if p["identifier"] == id && str2(p["orgId"]) == wantOrg && str2(p["projectId"]) == wantProject {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return str2(out[i].Properties["version"]) < str2(out[j].Properties["version"]) })
	return out
}

func str2(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// stableOf is the stable version among a template's versions: the one
// marked isStable, or the only one (Harness makes a template's first
// version stable).
func stableOf(versions []core.Record) (core.Record, bool) {
	for _, r := range versions {
		if r.Properties["isStable"] == true {
			return r, true
		}
	}
	if len(versions) == 1 {
		return versions[0], true
	}
	return core.Record{}, false
}

// resolveTemplate finds the version a reference names (its versionLabel,
// or the stable version without one), refusing in Harness's words a
// template or version that does not exist.
func resolveTemplate(cloud *core.Cloud, ref template.Ref, org, project string) (core.Record, error) {
	versions := templateVersions(cloud, ref, org, project)
	if ref.Version == "" {
		if r, ok := stableOf(versions); ok {
			return r, nil
		}
	}
	for _, r := range versions {
		if r.Properties["version"] == ref.Version {
			return r, nil
		}
	}
	label := ref.Version
	if label == "" {
		label = "__STABLE__"
	}
	return core.Record{}, fmt.Errorf("INVALID_REQUEST: Template with the Identifier %s and versionLabel %s does not exist or has been deleted", ref.Template, label)
}

// expandPipeline is a pipeline's YAML decoded with its template
// references expanded, as Harness evaluates it; refs are its references.
func expandPipeline(y string, org, project string, cloud *core.Cloud) (doc map[string]any, refs []template.Ref, err error) {
	if err := yaml.Unmarshal([]byte(y), &doc); err != nil {
		return nil, nil, nil // Check reports YAML that does not parse
	}
	refs = template.Refs(doc)
	if len(refs) == 0 {
		return doc, nil, nil
	}
	expanded, err := template.Expand(doc, func(r template.Ref) (map[string]any, error) {
		rec, err := resolveTemplate(cloud, r, org, project)
		if err != nil {
			return nil, err
		}
		var t map[string]any
		if err := yaml.Unmarshal([]byte(str2(rec.Properties["templateYaml"])), &t); err != nil {
			return nil, fmt.Errorf("template %s version %v: %v", r.Template, rec.Properties["version"], err)
		}
		return t, nil
	})
	return expanded, refs, err
}

// checkTemplateDelete refuses, as Harness does, deleting a template
// version a pipeline uses (by its label, or as the stable version), and
// the stable version while other versions remain, unless the object asks
// for a forced delete. Harness: NGTemplateServiceImpl's
// checkThatTheTemplateIsNotUsedByOthers (harness/harness-core#36604).
func checkTemplateDelete(id string, cloud *core.Cloud) error {
	rec, ok := cloud.Get(id)
	if !ok || rec.Properties["forceDelete"] == true {
		return nil
	}
	p := rec.Properties
	org, project := str2(p["orgId"]), str2(p["projectId"])
	self := template.Ref{Template: str2(p["identifier"])}
	switch {
	case org != "" && project == "":
		self.Template = "org." + self.Template
	case org == "":
		self.Template = "account." + self.Template
	}
	versions := templateVersions(cloud, self, org, project)
	stable, _ := stableOf(versions)
	isStable := len(versions) > 0 && stable.Properties["version"] == p["version"]
	var users []string
	for _, pl := range cloud.OfType("harness:platform/pipeline:Pipeline") {
		pp := pl.Properties
		var doc map[string]any
		if yaml.Unmarshal([]byte(str2(pp["yaml"])), &doc) != nil {
			continue
		}
		for _, r := range template.Refs(doc) {
			got := templateVersions(cloud, r, str2(pp["orgId"]), str2(pp["projectId"]))
			if len(got) == 0 || got[0].Properties["identifier"] != p["identifier"] || str2(got[0].Properties["orgId"]) != org || str2(got[0].Properties["projectId"]) != project {
				continue
			}
			if r.Version == p["version"] || r.Version == "" && isStable {
				users = append(users, str2(pp["identifier"]))
				break
			}
		}
	}
	if len(users) > 0 {
		sort.Strings(users)
		return fmt.Errorf("%s: TEMPLATE_EXCEPTION: Could not delete the template %s as it is referenced by other entities: pipeline(s) %s",
			TemplateType, p["identifier"], strings.Join(users, ", "))
	}
	if isStable && len(versions) > 1 {
		return fmt.Errorf("%s: INVALID_REQUEST: Template with identifier %s and versionLabel %v is a stable template, thus cannot delete it; mark another version stable first",
			TemplateType, p["identifier"], p["version"])
	}
	return nil
}

// checkTemplateYAML refuses, as Harness does when it saves a template, a
// templateYaml whose identifier, version label or scope differ from the
// request's (the provider sends identifier, version, org and project
// beside the YAML).
func checkTemplateYAML(news resource.PropertyMap) error {
	var doc struct {
		Template struct {
			Identifier        string `yaml:"identifier"`
			VersionLabel      string `yaml:"versionLabel"`
			Type              string `yaml:"type"`
			OrgIdentifier     string `yaml:"orgIdentifier"`
			ProjectIdentifier string `yaml:"projectIdentifier"`
			Spec              any    `yaml:"spec"`
		} `yaml:"template"`
	}
	if err := yaml.Unmarshal([]byte(core.Str(news, "templateYaml")), &doc); err != nil {
		return fmt.Errorf("%s: INVALID_REQUEST: templateYaml does not parse: %v", TemplateType, err)
	}
	t := doc.Template
	var bad []string
	for _, c := range [][3]string{
		{"identifier", t.Identifier, core.Str(news, "identifier")},
		{"versionLabel", t.VersionLabel, core.Str(news, "version")},
		{"orgIdentifier", t.OrgIdentifier, core.Str(news, "orgId")},
		{"projectIdentifier", t.ProjectIdentifier, core.Str(news, "projectId")},
	} {
		if c[1] != c[2] {
			bad = append(bad, fmt.Sprintf("%s %q in the YAML, %q in the request", c[0], c[1], c[2]))
		}
	}
	if t.Type == "" || t.Spec == nil {
		bad = append(bad, "the YAML has no template type or spec")
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s: INVALID_REQUEST: template %s: %s", TemplateType, core.Str(news, "identifier"), strings.Join(bad, "; "))
	}
	return nil
}

// Stored moves a template's stable version, as Harness does when a
// version is saved stable: the template's other versions are no longer
// stable (an unlabelled reference then resolves to this one).
func (Behavior) Stored(typ, key string, cloud *core.Cloud) error {
	if typ != TemplateType {
		return nil
	}
	rec, ok := cloud.Get(key)
	if !ok || rec.Properties["isStable"] != true {
		return nil
	}
	p := rec.Properties
	for k, other := range cloud.OfType(TemplateType) {
		o := other.Properties
		if k == key || o["identifier"] != p["identifier"] || str2(o["orgId"]) != str2(p["orgId"]) || str2(o["projectId"]) != str2(p["projectId"]) || o["isStable"] != true {
			continue
		}
		props := make(map[string]any, len(o))
		for pk, pv := range o {
			props[pk] = pv
		}
		props["isStable"] = false
		other.Properties = props
		if err := cloud.Put(k, other); err != nil {
			return err
		}
	}
	return nil
}
