package harness

import (
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/simulated/core"
)

// With Git Experience enforced, Harness refuses an inline pipeline or
// template, with its message; a remote one, other types, and an account
// that does not enforce it pass.
func TestGitExperienceEnforced(t *testing.T) {
	inline := resource.NewPropertyMapFromMap(map[string]any{"orgId": "default", "projectId": "platform", "gitDetails": map[string]any{"storeType": "INLINE"}})
	remote := resource.NewPropertyMapFromMap(map[string]any{"orgId": "default", "projectId": "platform", "gitDetails": map[string]any{"storeType": "REMOTE"}})
	enforced := core.Reach{HarnessGitExperienceEnforced: true}
	for _, typ := range []string{"harness:platform/pipeline:Pipeline", TemplateType} {
		err := Behavior{}.CheckWrite(typ, "x", nil, inline, enforced)
		if err == nil || !strings.Contains(err.Error(), "Git Experience is enforced for the current scope with accountId: [SIMULATED], orgIdentifier: [default] and projIdentifier: [platform]. Hence Interaction with INLINE entities is forbidden.") {
			t.Errorf("%s inline: %v", typ, err)
		}
		if err := (Behavior{}).CheckWrite(typ, "x", nil, remote, enforced); err != nil {
			t.Errorf("%s remote: %v", typ, err)
		}
		if err := (Behavior{}).CheckWrite(typ, "x", nil, inline, core.Reach{}); err != nil {
			t.Errorf("%s not enforced: %v", typ, err)
		}
	}
	if err := (Behavior{}).CheckWrite("harness:platform/project:Project", "x", nil, inline, enforced); err != nil {
		t.Errorf("a project: %v", err)
	}
}
