package trust

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/pulumi/esc/schema"

	"github.com/company/harness-platform/harness/provider"
)

// ProviderSchema is one ESC provider's fn::open inputs and outputs as
// Pulumi publishes them (../shared/esc-schema/esc_schemas.json, from
// pulumi/docs data/esc_schemas.json). Pulumi Cloud type-checks every
// fn::open's inputs against them when an environment is opened, so the
// stand-in providers declare exactly these schemas to ESC's evaluator:
// a file the real service refuses is refused offline too.
type ProviderSchema struct {
	Inputs, Outputs *schema.Schema
}

// ProviderSchemas are the published schemas, by provider name.
type ProviderSchemas map[string]ProviderSchema

// ParseProviderSchemas reads esc_schemas.json; each schema is compiled
// once here, so that the evaluator's own Compile of it is a no-op and
// sessions may share it.
func ParseProviderSchemas(data []byte) (ProviderSchemas, error) {
	var file struct {
		Providers map[string]struct {
			Inputs, Outputs *schema.Schema
		} `json:"providers"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, err
	}
	if len(file.Providers) == 0 {
		return nil, fmt.Errorf("no providers")
	}
	out := ProviderSchemas{}
	for name, p := range file.Providers {
		if p.Inputs == nil || p.Outputs == nil {
			return nil, fmt.Errorf("provider %s: no inputs or outputs schema", name)
		}
		for _, s := range []*schema.Schema{p.Inputs, p.Outputs} {
			if err := s.Compile(); err != nil {
				return nil, fmt.Errorf("provider %s: %w", name, err)
			}
		}
		out[name] = ProviderSchema{Inputs: p.Inputs, Outputs: p.Outputs}
	}
	return out, nil
}

// SchemaFile is where the published schemas sit, relative to ../shared.
const SchemaFile = "esc-schema/esc_schemas.json"

// LoadProviderSchemas reads the published schemas from the ../shared
// beside the project.
var LoadProviderSchemas = sync.OnceValues(func() (ProviderSchemas, error) {
	shared, err := provider.SharedDir()
	if err != nil {
		return nil, err
	}
	return LoadProviderSchemasFrom(shared)
})

// LoadProviderSchemasFrom reads them from shared (a ../shared directory).
func LoadProviderSchemasFrom(shared string) (ProviderSchemas, error) {
	path := filepath.Join(shared, SchemaFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w (ESC's published provider schemas: ../shared/%s must sit beside the project)", err, SchemaFile)
	}
	s, err := ParseProviderSchemas(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Names are the providers' names, sorted.
func (p ProviderSchemas) Names() []string {
	names := make([]string, 0, len(p))
	for n := range p {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
