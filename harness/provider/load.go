package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sync"
)

func readConstraints(shared string) (*Constraints, error) {
	data, err := os.ReadFile(filepath.Join(shared, "harness-provider", "constraints.json"))
	if err != nil {
		return nil, fmt.Errorf("%w (the provider's constraints are in ../shared/harness-provider/constraints.json)", err)
	}
	var c Constraints
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("harness-provider/constraints.json: %w", err)
	}
	return &c, nil
}

// LoadConstraints loads the provider's constraints from the ../shared
// beside the project holding the working directory, once per process.
func LoadConstraints() (*Constraints, error) {
	shared, err := SharedDir()
	if err != nil {
		return nil, err
	}
	_, c, err := LoadFrom(shared)
	return c, err
}

// LoadProvider loads both the provider's facts and its constraints from
// the ../shared beside the project holding the working directory.
func Load() (*Facts, *Constraints, error) {
	shared, err := SharedDir()
	if err != nil {
		return nil, nil, err
	}
	return LoadFrom(shared)
}

type loaded struct {
	facts       *Facts
	constraints *Constraints
	err         error
}

var providers sync.Map // shared dir -> func() loaded

// LoadProviderFrom loads the provider's facts and constraints from shared
// (a ../shared directory), once per directory and process.
func LoadFrom(shared string) (*Facts, *Constraints, error) {
	load, _ := providers.LoadOrStore(shared, sync.OnceValue(func() loaded {
		facts, err := readFacts(shared)
		if err != nil {
			return loaded{err: err}
		}
		constraints, err := readConstraints(shared)
		return loaded{facts, constraints, err}
	}))
	p := load.(func() loaded)()
	return p.facts, p.constraints, p.err
}

func readFacts(shared string) (*Facts, error) {
	data, err := os.ReadFile(filepath.Join(shared, "harness-provider", "schema.json"))
	if err != nil {
		return nil, err
	}
	var f Facts
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("harness-provider/schema.json: %w", err)
	}
	deps, err := nestedDeprecations()
	if err != nil {
		return nil, fmt.Errorf("deprecations.json: %w", err)
	}
	for _, d := range deps {
		t, ok := f.Types[d.Type]
		if !ok || path.Base(t.GoPackage) != d.Module {
			continue // a type of a module the facts do not hold
		}
		p, ok := t.Properties[d.Property]
		if !ok {
			return nil, fmt.Errorf("deprecations.json: %s.%s is not a property in the facts", d.Type, d.Property)
		}
		p.Deprecated = d.Message
		t.Properties[d.Property] = p
	}
	return &f, nil
}

// LoadFacts loads the provider facts from the ../shared beside the project
// holding the working directory, once per process.
func LoadFacts() (*Facts, error) {
	f, _, err := Load()
	return f, err
}
