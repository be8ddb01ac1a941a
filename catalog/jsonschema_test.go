package catalog

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"
)

var updateSchemas = flag.Bool("update", false, "rewrite catalog/schema/*.schema.json")

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
