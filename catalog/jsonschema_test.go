package catalog

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"
)

var updateSchemas = flag.Bool("update", false, "rewrite catalog/schema/*.schema.json and docs/catalog-reference.md")

// The committed schemas are the generated ones, and the example catalog
// validates against them; a broken entry does not.
func TestJSONSchemas(t *testing.T) {
	for file, schemaFile := range SchemaFiles {
		want, err := JSONSchema(file)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("..", schemaFile)
		if *updateSchemas {
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s is stale or missing; run `go test ./catalog -run TestJSONSchemas -update`", schemaFile)
		}
		doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(got))
		c := jsonschema.NewCompiler()
		if err := c.AddResource(schemaFile, doc); err != nil {
			t.Fatal(err)
		}
		schema, err := c.Compile(schemaFile)
		if err != nil {
			t.Fatal(err)
		}
		check := func(data []byte) error {
			js, err := yaml.YAMLToJSON(data)
			if err != nil {
				return err
			}
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
			if err != nil {
				return err
			}
			return schema.Validate(v)
		}
		data, err := os.ReadFile(filepath.Join("..", file))
		if err != nil {
			t.Fatal(err)
		}
		if err := check(data); err != nil {
			t.Errorf("%s does not match %s: %v", file, schemaFile, err)
		}
		if err := check(append(data, []byte("unexpected: true\n")...)); err == nil {
			t.Errorf("%s accepts an unknown top-level key", schemaFile)
		}
	}
}

// The catalog reference is generated from the JSON Schemas, and names
// every field each committed schema has: a field missing from it (or a
// stale reference) fails.
func TestCatalogReference(t *testing.T) {
	want, err := Reference()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", ReferenceFile)
	if *updateSchemas {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s is stale or missing; run `go test ./catalog -run TestCatalogReference -update`", ReferenceFile)
	}
	fields := 0
	for _, schemaFile := range SchemaFiles {
		data, err := os.ReadFile(filepath.Join("..", schemaFile))
		if err != nil {
			t.Fatal(err)
		}
		var schema map[string]any
		if err := json.Unmarshal(data, &schema); err != nil {
			t.Fatal(err)
		}
		for _, f := range schemaPaths(schema, "") {
			fields++
			if !bytes.Contains(got, []byte("| `"+f+"` |")) {
				t.Errorf("%s does not document %s's field %s", ReferenceFile, schemaFile, f)
			}
		}
	}
	if fields < 20 {
		t.Fatalf("only %d fields in the catalog's schemas", fields)
	}
	for _, key := range []string{"harness-platform:runner.delegateSelectors", "harness-platform:environment.name"} {
		if !bytes.Contains(got, []byte("| `"+key+"` |")) {
			t.Errorf("%s does not document the stack setting %s", ReferenceFile, key)
		}
	}
}

// schemaPaths are the field paths of a JSON Schema, found here on their
// own (not with the reference's walker, which they check).
func schemaPaths(schema map[string]any, prefix string) []string {
	var out []string
	props, _ := schema["properties"].(map[string]any)
	for name, p := range props {
		p, _ := p.(map[string]any)
		out = append(out, prefix+name)
		if items, ok := p["items"].(map[string]any); ok {
			out = append(out, schemaPaths(items, prefix+name+"[].")...)
		}
		if ap, ok := p["additionalProperties"].(map[string]any); ok {
			out = append(out, schemaPaths(ap, prefix+name+".<key>.")...)
		}
		out = append(out, schemaPaths(p, prefix+name+".")...)
	}
	return out
}
