package program

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/plan"
)

// A template's tags reach Harness in its YAML (the provider neither sends
// nor reads the resource's tags, so a tags input would be a value only
// the state holds), and they are the template's: managed-by, its
// environment and archetype.
func TestTemplateTagsInTheirYAML(t *testing.T) {
	c := example(t)
	rec := mustRun(t, c, "dev")
	templates := rec.OfType("harness:platform/template:Template")
	if len(templates) == 0 {
		t.Fatal("dev declares no template")
	}
	for _, r := range templates {
		if _, ok := r.Inputs["tags"]; ok {
			t.Errorf("%s: sends tags, which the provider drops", r.Name)
		}
		var doc struct {
			Template struct {
				Tags map[string]string `yaml:"tags"`
			} `yaml:"template"`
		}
		if err := yaml.Unmarshal([]byte(r.Inputs["templateYaml"].StringValue()), &doc); err != nil {
			t.Fatal(err)
		}
		tags := doc.Template.Tags
		if tags["managed-by"] != plan.ManagedBy || tags["environment"] != c.Stacks["dev"].Environment.Name || tags["archetype"] == "" ||
			!strings.Contains(r.Name, tags["archetype"]) {
			t.Errorf("%s: tags %v", r.Name, tags)
		}
	}
}

// Every pipeline and template says it is saved inline (plan.StoreType),
// so an account whose default store type is REMOTE does not make them
// remote entities without a repository.
func TestPipelinesAndTemplatesAreInline(t *testing.T) {
	c := example(t)
	for _, stack := range []string{"dev", c.StacksOf("dev")[1]} {
		rec := mustRun(t, c, stack)
		n := 0
		for _, typ := range []string{"harness:platform/template:Template", "harness:platform/pipeline:Pipeline"} {
			for _, r := range rec.OfType(typ) {
				n++
				gd, ok := r.Inputs["gitDetails"]
				if !ok || !gd.IsObject() || gd.ObjectValue()["storeType"].StringValue() != plan.StoreType {
					t.Errorf("%s %s: gitDetails %v", typ, r.Name, gd)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s declares no pipeline or template", stack)
		}
	}
}
