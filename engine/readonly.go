package engine

import (
	"os"
	"path/filepath"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/yamlstrict"
)

// PreviewEnvironment is the read-only ESC environment that stands in for
// a stack's own (harness-platform/dev: harness-platform/dev-preview):
// the preview role of the stack's account, and the read-only Harness key
// and GitHub token of harness-platform/ci-preview (esc/).
func PreviewEnvironment(env string) string { return env + "-preview" }

// readOnlyProject writes into dir Pulumi.yaml and every stack file, each
// stack file importing, in place of its environment's own ESC environment
// (harness-platform/<environment>), the read-only one: as `pulumi preview
// --override-env harness-platform/dev=harness-platform/dev-preview` does.
func (s *Session) readOnlyProject(dir string) error {
	data, err := s.projectFile("Pulumi.yaml")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), data, 0o600); err != nil {
		return err
	}
	for _, name := range s.Catalog.AllStacks() {
		file := "Pulumi." + name + ".yaml"
		data, err := s.projectFile(file)
		if err != nil {
			continue // a service stack without a file of its own
		}
		st, _, err := s.Catalog.EnvironmentOf(name)
		if err != nil {
			return err
		}
		out, err := overrideEnvironment(data, "harness-platform/"+st.Name)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, file), out, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// overrideEnvironment replaces the ESC import env in a stack file's
// environment key (a list, or an object's imports) with its read-only
// environment, keeping the rest of the file as it is.
func overrideEnvironment(data []byte, env string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return data, nil
	}
	list := yamlstrict.Value(doc.Content[0], "environment")
	if imports := yamlstrict.Value(list, "imports"); imports != nil {
		list = imports
	}
	if list == nil {
		return data, nil
	}
	for _, n := range list.Content {
		if n.Kind == yaml.ScalarNode && n.Value == env {
			n.Value = PreviewEnvironment(env)
		}
	}
	return yaml.Marshal(&doc)
}
