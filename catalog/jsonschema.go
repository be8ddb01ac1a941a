package catalog

import (
	"encoding/json"
	"reflect"

	"github.com/company/harness-platform/yamlstrict"
)

// SchemaFiles maps each catalog file to its JSON Schema file, for editors
// (the yaml-language-server comment at the top of each catalog file).
var SchemaFiles = map[string]string{
	ServicesFile:   "catalog/schema/services.schema.json",
	TeamsFile:      "catalog/schema/teams.schema.json",
	ArchetypesFile: "catalog/schema/archetypes.schema.json",
	RegionsFile:    "catalog/schema/regions.schema.json",
}

// JSONSchema returns the JSON Schema of a catalog file, derived from the
// same Go types and struct tags the loader decodes with, so the two cannot
// disagree.
func JSONSchema(file string) ([]byte, error) {
	var root reflect.Type
	switch file {
	case ServicesFile:
		root = reflect.TypeOf(servicesFile{})
	case TeamsFile:
		root = reflect.TypeOf(teamsFile{})
	case ArchetypesFile:
		root = reflect.TypeOf(archetypesFile{})
	case RegionsFile:
		root = reflect.TypeOf(regionsFile{})
	}
	s := schemaOf(root)
	s["$schema"] = "http://json-schema.org/draft-07/schema#"
	s["title"] = file
	out, err := json.MarshalIndent(s, "", "  ")
	return append(out, '\n'), err
}

func schemaOf(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		props := map[string]any{}
		var required []string
		for _, f := range yamlstrict.Fields(t).List() {
			p := schemaOf(f.Type)
			if f.Description != "" {
				p["description"] = f.Description
			}
			if f.Enum != nil {
				p["enum"] = f.Enum
			}
			if f.Required && p["type"] == "string" && f.Enum == nil {
				// Blank is refused as a missing key is (yamlstrict).
				p["minLength"] = 1
				p["pattern"] = `\S`
			}
			props[f.Key] = p
			if f.Required {
				required = append(required, f.Key)
			}
		}
		s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
		if required != nil {
			s["required"] = required
		}
		return s
	case reflect.Slice:
		return map[string]any{"type": "array", "items": schemaOf(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": schemaOf(t.Elem())}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64, reflect.Int32:
		return map[string]any{"type": "integer"}
	default:
		return map[string]any{"type": "string"}
	}
}
