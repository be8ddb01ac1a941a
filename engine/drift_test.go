package engine

import (
	"errors"
	"fmt"
	"testing"
)

// Drift is told from a failure to check: a check of several stacks is
// drift only if every stack that did not pass drifted.
func TestOnlyDrift(t *testing.T) {
	drift := fmt.Errorf("%w in dev: the cloud differs from the state (update: 1)", ErrDrift)
	failure := errors.New("dev.services: error: could not connect to the Harness API: 401")
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"no error", nil, false},
		{"drift", drift, true},
		{"drift of a stack of an environment", fmt.Errorf("dev: %w", drift), true},
		{"drift in two stacks", errors.Join(fmt.Errorf("dev: %w", drift), fmt.Errorf("dev.services: %w", drift)), true},
		{"a failure", failure, false},
		{"drift in one stack, a failure in another", errors.Join(fmt.Errorf("dev: %w", drift), failure), false},
		{"a failure wrapping drift's word", fmt.Errorf("drift check could not run: %w", failure), false},
	} {
		if got := OnlyDrift(c.err); got != c.want {
			t.Errorf("%s: OnlyDrift = %v, want %v", c.name, got, c.want)
		}
	}
}
