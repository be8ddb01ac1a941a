package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
)

// importEnvironments makes the service stack name import the ESC
// environments its environment's stack file imports. A service stack's
// settings are its environment's (catalog.Config), and Pulumi gives a
// stack the values of the environments its own stack file imports only:
// without the imports, a setting or secret that comes from ESC would
// reach the platform stack and not its service stacks. The stack file is
// written as `pulumi config env add` writes it (the SDK's ProjectStack),
// without asking the backend: the preview or update that follows resolves
// the imports, as it does the platform stack's. Offline runs have no ESC
// (a DIY backend refuses imports) and do not call this.
func importEnvironments(ctx context.Context, ws auto.Workspace, name string, imports []string) error {
	if len(imports) == 0 {
		return nil
	}
	ps := &workspace.ProjectStack{}
	if _, err := os.Stat(filepath.Join(ws.WorkDir(), "Pulumi."+name+".yaml")); err == nil {
		if ps, err = ws.StackSettings(ctx, name); err != nil {
			return err
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	var have []string
	if ps.Environment != nil {
		have = ps.Environment.Imports()
	}
	var missing []string
	for _, env := range imports {
		if !slices.Contains(have, env) {
			missing = append(missing, env)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	if ps.Environment == nil {
		ps.Environment = workspace.NewEnvironment(missing)
	} else {
		ps.Environment = ps.Environment.Append(missing...)
	}
	return ws.SaveStackSettings(ctx, name, ps)
}
