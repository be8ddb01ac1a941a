package harness

import (
	"net/url"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

// A custom webhook trigger's URL is in the form Harness issues: the
// trigger's own token in the path, then its scope; the token is the same
// on every run and differs between triggers.
func TestCustomWebhookURL(t *testing.T) {
	h := Behavior{}
	trigger := func(id string) string {
		out := h.Computed("harness:platform/triggers:Triggers", "k", resource.NewPropertyMapFromMap(map[string]any{
			"identifier": id, "orgId": "o", "projectId": "p", "targetId": "pl",
			"yaml": "trigger:\n  source:\n    type: Webhook\n    spec:\n      type: Custom\n"}))
		return out["webhookUrl"].StringValue()
	}
	a := trigger("t1")
	u, err := url.Parse(a)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if u.Scheme != "https" || u.Host != "app.harness.io" || len(parts) != 7 ||
		strings.Join(parts[:5], "/") != "gateway/pipeline/api/webhook/custom" || len(parts[5]) < 16 || parts[6] != "v3" {
		t.Errorf("not Harness's form (.../webhook/custom/{customWebhookToken}/v3?...): %s", a)
	}
	q := u.Query()
	for k, want := range map[string]string{"accountIdentifier": Account, "orgIdentifier": "o", "projectIdentifier": "p", "pipelineIdentifier": "pl", "triggerIdentifier": "t1"} {
		if q.Get(k) != want {
			t.Errorf("%s = %q, want %q", k, q.Get(k), want)
		}
	}
	if trigger("t1") != a || trigger("t2") == a {
		t.Error("the token is not stable per trigger, or is shared between triggers")
	}
}
