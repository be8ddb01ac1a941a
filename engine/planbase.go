package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
)

// A saved plan describes the changes from the stack as it was when the
// plan was made. Another update of the stack between the plan and its up
// (another merge's up, a person's) leaves the plan describing changes from
// a state that no longer is, and Pulumi checks an update against its plan
// only resource by resource, as the update reaches each ("pulumi up
// --plan": an operation the plan does not hold fails the update there),
// so what came before that resource is applied. So a saved plan records
// the stack's last update (its history's version, <stack>.base.json,
// covered by the plans' digest), and an up with plans refuses before
// anything changes where any stack has been updated since: ErrStalePlan.

// ErrStalePlan is an up refused because a stack was updated after its
// plan was saved: nothing was applied; plan again and approve the new
// plan.
var ErrStalePlan = errors.New("stale plan")

func planBaseFile(dir, stack string) string { return filepath.Join(dir, stack+".base.json") }

// planBase is a stack's last update when its plan was saved: its version
// and start (a self-managed backend numbers no versions: its start tells
// one update from the next); zero for a stack never updated.
type planBase struct {
	Version int    `json:"version"`
	Start   string `json:"start"`
}

func (b planBase) String() string {
	if b == (planBase{}) {
		return "none"
	}
	return fmt.Sprintf("%d, started %s", b.Version, b.Start)
}

// lastUpdate is stack's last update (the history's first page of one,
// which the session's file backend answers without the CLI).
func lastUpdate(ctx context.Context, stack auto.Stack) (planBase, error) {
	h, err := stack.History(ctx, 1, 1)
	if err != nil || len(h) == 0 {
		return planBase{}, err
	}
	return planBase{Version: h[0].Version, Start: h[0].StartTime}, nil
}

// writePlanBase records stack's last update beside its saved plan.
func writePlanBase(ctx context.Context, dir, name string, stack auto.Stack) error {
	v, err := lastUpdate(ctx, stack)
	if err != nil {
		return fmt.Errorf("reading %s's last update for its plan: %w", name, err)
	}
	data, _ := json.Marshal(v)
	return os.WriteFile(planBaseFile(dir, name), append(data, '\n'), 0o600)
}

// checkPlanBases refuses, with ErrStalePlan, an up of the stacks of waves
// whose plans in dir were saved before their stack's last update; a plan
// without a base (saved by an older platformctl) is refused too.
func (s *Session) checkPlanBases(ctx context.Context, dir string, waves [][]string) error {
	var stale []string
	for _, wave := range waves {
		for _, name := range wave {
			if _, err := os.Stat(planFile(dir, name)); err != nil {
				continue // no plan: the up says so
			}
			var base planBase
			data, err := os.ReadFile(planBaseFile(dir, name))
			if err == nil {
				err = json.Unmarshal(data, &base)
			}
			if err != nil {
				stale = append(stale, fmt.Sprintf("%s (its plan records no base update: %v)", name, err))
				continue
			}
			stack, err := s.selected(ctx, name)
			if err != nil {
				if base == (planBase{}) {
					continue // planned as new, still new
				}
				return err
			}
			now, err := lastUpdate(ctx, stack)
			if err != nil {
				return err
			}
			if now != base {
				stale = append(stale, fmt.Sprintf("%s (planned after update %s, updated since: update %s)", name, base, now))
			}
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("%w: %d stack(s) changed after the plans in %s were saved: %v; nothing is applied: "+
			"save the plans again (`platformctl preview --stack STACK --save-plan %s`) and have them approved again (the merge workflow re-plans by itself)",
			ErrStalePlan, len(stale), dir, stale, dir)
	}
	return nil
}
