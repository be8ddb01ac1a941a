package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
)

// editState rewrites a stack's state as `pulumi stack export`, an edit and
// `pulumi stack import` would: edit receives the deployment (resources,
// pending_operations, ...) and says whether it changed it; an unchanged
// state is not imported again. recover, move and import edit the state
// where the pinned CLI has no command for what they do.
//
// The export keeps the secrets encrypted (exportEncrypted, as a backup
// does, and from the checkpoint offline): no edit reads a secret, and the
// import takes them as the state held them, so none is ever decrypted
// on the way (the Automation API's Export would show them).
func (s *Session) editState(ctx context.Context, stack auto.Stack, edit func(deployment map[string]any) (bool, error)) error {
	exported, err := s.exportEncrypted(ctx, stack.Name())
	if err != nil {
		return err
	}
	var deployment map[string]any
	if err := json.Unmarshal(exported.Deployment, &deployment); err != nil {
		return fmt.Errorf("reading the state of %s: %w", stack.Name(), err)
	}
	changed, err := edit(deployment)
	if err != nil || !changed {
		return err
	}
	if exported.Deployment, err = json.Marshal(deployment); err != nil {
		return err
	}
	if err := stack.Import(ctx, exported); err != nil {
		return fmt.Errorf("writing the state of %s: %w", stack.Name(), err)
	}
	return nil
}
