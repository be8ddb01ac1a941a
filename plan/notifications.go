package plan

import (
	"fmt"
	"strings"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/document"
	"github.com/company/harness-platform/ident"
)

// Pipeline events the teams are told of. WaitingForUserAction is sent when
// a run waits for a person: a pending approval, or a manual intervention.
// https://developer.harness.io/docs/continuous-delivery/x-platform-cd-features/cd-steps/notify-users-of-pipeline-events/
const (
	EventFailed  = "PipelineFailed"
	EventWaiting = "WaitingForUserAction"
)

// RunEnding is a way a run ends without success, and the status Harness
// gives the run then.
type RunEnding struct {
	What, Status string
}

// RunEndings are the ways a service pipeline's run ends without success:
// the failure strategies the pipelines set (Abort on an approval's
// timeout, on the change window's denial, on the chained upstream stage's
// failure, on a failed image scan; StageRollback then failed on a
// deployment error) and what a
// person or Harness does to a run.
var RunEndings = []RunEnding{
	{"a deployment step fails (the stage rolls back)", "FAILED"},
	{"the chained upstream stage fails (Abort)", "ABORTED"},
	{"the image scan fails: an issue at the archetype's severity, or no scan (Abort)", "ABORTED"},
	{"an approval times out (Abort on Timeout)", "ABORTED"},
	{"an approver rejects", "APPROVAL_REJECTED"},
	{"the change window denies (Abort on PolicyEvaluationFailure)", "ABORTED"},
	{"someone aborts the run", "ABORTED"},
	{"the run passes its timeout", "EXPIRED"},
	{"a deployment freeze refuses it", "FREEZE_FAILED"},
	{"Harness errors", "ERRORED"},
}

// EventsOnEnd are the pipeline events Harness sends when a run ends with
// status: PipelineEnd for every final status, and PipelineFailed for the
// broken and aborted ones (FAILED, ERRORED, EXPIRED, APPROVAL_REJECTED,
// ABORTED, FREEZE_FAILED), PipelineSuccess for SUCCEEDED and
// IGNORE_FAILED. harness-core: PipelineEventNotificationHandler
// (processPlanExecution, processCompletedNode) and
// StatusUtils.brokeAndAbortedStatuses; the documentation names the events
// but not which status sends which
// (developer.harness.io/docs/continuous-delivery/x-platform-cd-features/cd-steps/notify-users-of-pipeline-events).
func EventsOnEnd(status string) []string {
	switch status {
	case "FAILED", "ERRORED", "EXPIRED", "APPROVAL_REJECTED", "ABORTED", "FREEZE_FAILED":
		return []string{EventFailed, "PipelineEnd"}
	case "SUCCEEDED", "IGNORE_FAILED":
		return []string{"PipelineSuccess", "PipelineEnd"}
	}
	return []string{"PipelineEnd"}
}

// notificationRules tell each team's channels of a pipeline's events: in
// Slack every run that ends without success (PipelineFailed: Harness
// sends it for aborted, expired and rejected runs too, EventsOnEnd) and
// every pending approval; through PagerDuty, for a
// team that has it, a failed Production run (a page is for what needs
// someone now, not for a failed build in dev). The channels are Harness
// secrets, read by Harness when it notifies (Slack's webhook URL may be an
// expression but not a runtime input, per the page above), so no URL or
// key is in the YAML.
func notificationRules(teams []catalog.Team, production bool) []document.NotificationRule {
	var out []document.NotificationRule
	for _, t := range teams {
		n := t.Notify
		if n.SlackWebhookSecret != "" {
			out = append(out, notificationRule(t.Name, "Slack", document.SlackChannel{
				UserGroups: []string{}, WebhookURL: secretValue(n.SlackWebhookSecret),
			}, EventFailed, EventWaiting))
		}
		if n.PagerDutyKeySecret != "" && production {
			out = append(out, notificationRule(t.Name, "PagerDuty", document.PagerDutyChannel{
				UserGroups: []string{}, IntegrationKey: secretValue(n.PagerDutyKeySecret),
			}, EventFailed))
		}
	}
	return out
}

func notificationRule(team, method string, spec any, events ...string) document.NotificationRule {
	r := document.NotificationRule{
		Name:               team + " " + method,
		Identifier:         ident.Join(team, strings.ToLower(method)),
		NotificationMethod: document.NotificationMethod{Type: method, Spec: spec},
		Enabled:            true,
	}
	for _, e := range events {
		r.PipelineEvents = append(r.PipelineEvents, document.PipelineEvent{Type: e})
	}
	return r
}

// secretValue is the expression of a Harness secret's value.
func secretValue(ref string) string { return fmt.Sprintf("<+secrets.getValue(%q)>", ref) }
