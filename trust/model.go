// Package trust is who each kind of run is, and what it can obtain: the
// Pulumi Cloud team whose token it gets, the ESC environments that team
// may open, the AWS roles those environments log in to (and whose trust
// admits them), the secrets those roles read, and the GitHub Apps whose
// tokens they mint. It reads the files a platform team applies (package
// esc: esc/) and opens the environments with ESC's own evaluator
// (github.com/pulumi/esc/eval), its logins answered as AWS, Pulumi Cloud
// and GitHub answer them, refusals included. The tests of this package
// prove that what a pull request's run can obtain writes nothing; preflight
// and the simulation ask it the same questions.
package trust

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/esc"
)

// Project is the ESC project and Pulumi project of the environments.
const Project = "harness-platform"

// Model is every identity file of esc/, read.
type Model struct {
	// Environments are the ESC environments' definitions, by name
	// (harness-platform/dev).
	Environments map[string][]byte
	Accounts     map[string]*Account // by account id
	Apps         map[string]*App     // by App id
	Access       Access
	// Schemas are ESC's published provider schemas, which the stand-in
	// providers declare to the evaluator; nil where ../shared is not
	// beside the project (SchemasErr says why). A real run's runner has
	// no ../shared, and needs none: its preflight opens the live
	// environments, which Pulumi Cloud type-checks itself; the offline
	// runs and the tests have it, and the tests require it.
	Schemas    ProviderSchemas
	SchemasErr error
}

// An App is a GitHub App, from its manifest (esc/github/<id>.json).
type App struct {
	ID, Name    string
	Permissions map[string]string // default_permissions: read or write
}

// Writes reports whether a token of the App may write anything.
func (a *App) Writes() bool {
	return slices.Contains(slices.Collect(maps.Values(a.Permissions)), "write")
}

// Load reads the project's files (esc.Files) into a Model of the
// caller's own, which it may change.
func Load() (*Model, error) { return LoadFS(esc.Files) }

// Default is the project's files read once, shared: preflight and the
// simulation ask it and never change it.
var Default = sync.OnceValues(Load)

// LoadFS reads the identity files of fsys, laid out as esc/ is.
func LoadFS(fsys fs.FS) (*Model, error) {
	schemas, schemasErr := LoadProviderSchemas()
	m := &Model{Environments: map[string][]byte{}, Accounts: map[string]*Account{}, Apps: map[string]*App{}, Schemas: schemas, SchemasErr: schemasErr}
	envs, _ := fs.Glob(fsys, Project+"-*.yaml")
	for _, f := range envs {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		m.Environments[EnvironmentOfFile(f)] = data
	}
	accounts, _ := fs.Glob(fsys, "aws/*.json")
	for _, f := range accounts {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		id := strings.TrimSuffix(path.Base(f), ".json")
		a, err := parseAccount(id, data)
		if err != nil {
			return nil, fmt.Errorf("esc/%s: %w", f, err)
		}
		m.Accounts[id] = a
	}
	apps, _ := fs.Glob(fsys, "github/*.json")
	for _, f := range apps {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		var manifest struct {
			Name        string            `json:"name"`
			Permissions map[string]string `json:"default_permissions"`
		}
		if err := json.Unmarshal(data, &manifest); err != nil {
			return nil, fmt.Errorf("esc/%s: %w", f, err)
		}
		id := strings.TrimSuffix(path.Base(f), ".json")
		m.Apps[id] = &App{ID: id, Name: manifest.Name, Permissions: manifest.Permissions}
	}
	data, err := fs.ReadFile(fsys, "pulumi/access.yaml")
	if err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&m.Access); err != nil {
		return nil, fmt.Errorf("esc/pulumi/access.yaml: %w", err)
	}
	if err := m.Access.applyMemberDefaults(); err != nil {
		return nil, fmt.Errorf("esc/pulumi/access.yaml: %w", err)
	}
	if len(m.Environments) == 0 || len(m.Accounts) == 0 || len(m.Apps) == 0 {
		return nil, fmt.Errorf("esc/: no environments, accounts or GitHub Apps (%d, %d, %d)", len(m.Environments), len(m.Accounts), len(m.Apps))
	}
	return m, nil
}

// EnvironmentOfFile is the environment a file defines:
// harness-platform-dev-preview.yaml is harness-platform/dev-preview.
func EnvironmentOfFile(file string) string {
	return Project + "/" + strings.TrimPrefix(strings.TrimSuffix(path.Base(file), ".yaml"), Project+"-")
}
