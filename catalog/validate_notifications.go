package catalog

import (
	"fmt"
	"strings"

	"github.com/company/harness-platform/ident"
)

// checkNotifications holds every team that someone must tell something to
// (a team owning a service that is not retired, and the platform team, who
// co-approve Production) to a Slack channel, and every channel to a
// well-formed Harness secret reference.
func (v *validator) checkNotifications() {
	owns := map[string]bool{v.platformTeam: true}
	for _, s := range v.services {
		if !s.Retired {
			owns[s.Team] = true
		}
	}
	for _, t := range v.files.teams {
		n := t.Notifications
		if n == nil {
			if owns[t.Name] && v.teams[t.Name] == t {
				v.at(t.At.Field("name"), "add notifications: {slackWebhookSecret: <Harness secret holding its Slack webhook URL>} to the team",
					"team %q has no notification channel: its failed deployments and pending approvals would reach no one", t.Name)
			}
			continue
		}
		for _, f := range []struct{ key, ref string }{
			{"slackWebhookSecret", n.SlackWebhookSecret},
			{"pagerDutyKeySecret", n.PagerDutyKeySecret},
		} {
			if f.ref == "" {
				continue
			}
			if err := checkSecretRef(f.ref); err != nil {
				v.at(n.At.Field(f.key), "name a Harness secret: <id> in the project, org.<id> or account.<id>", "%s %q: %v", f.key, f.ref, err)
			}
		}
	}
}

// checkSecretRef checks a Harness secret reference as a pipeline's
// <+secrets.getValue("...")> takes it: an identifier, in the project or,
// prefixed, in the org or the account.
func checkSecretRef(ref string) error {
	if strings.Contains(ref, "://") {
		return fmt.Errorf("is a URL: a secret's value does not belong in the catalog; keep it in a Harness secret")
	}
	id := ref
	if scope, rest, ok := strings.Cut(ref, "."); ok {
		if scope != "account" && scope != "org" {
			return fmt.Errorf("the scope %q is neither account nor org", scope)
		}
		id = rest
	}
	return ident.Check(id)
}
