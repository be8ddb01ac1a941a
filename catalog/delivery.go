package catalog

import (
	"fmt"
	"os"
)

// The delivery paths a stack can be applied by (harness-platform:delivery).
// Three follow main: the merge workflow, the Harness CI pipeline and the
// Pulumi Kubernetes Operator's Stacks. Two at once race (every merge
// starts two ups of a stack, and all but one meet 409 Conflict), so a
// stack names one, and the others refuse to change it.
const (
	DeliveryGitHubActions = "github-actions"
	DeliveryHarnessCI     = "harness-ci"
	DeliveryOperator      = "operator"
)

// DeliveryEnv names, in a run's environment, the path the run is: each
// path sets it (up-stack.yml, .harness/pipeline.yaml, the operator's
// Stacks). A run without it (a person at a terminal) is none of them.
const DeliveryEnv = "HARNESS_PLATFORM_DELIVERY"

// DeliveryKey is the stack setting that names the stack's path.
const DeliveryKey = Namespace + ":delivery"

// CheckDelivery refuses a run that changes the stack from another path
// than the one its environment names; path is the run's (DeliveryEnv;
// "" for none: a person, who may). The refusal names where the setting is
// and both fixes.
func (st *Stack) CheckDelivery(path string) error {
	if path == "" || path == st.Delivery {
		return nil
	}
	return fmt.Errorf("%s: stack %s is delivered by %s (%s), not by %s, which this run is (%s): it changes nothing; "+
		"apply it from %s, or name %s in %s (and stop the other path)",
		st.Origin(DeliveryKey), st.Name, st.Delivery, DeliveryKey, path, DeliveryEnv, st.Delivery, path, DeliveryKey)
}

// RunDelivery is the delivery path of this process's run (DeliveryEnv).
func RunDelivery() string { return os.Getenv(DeliveryEnv) }
