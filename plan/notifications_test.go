package plan

import (
	"slices"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/harness/document"
)

// rules reads a pipeline's notification rules back as "name: events, the
// secret it reads".
func rules(t *testing.T, pipelineYAML string) []string {
	t.Helper()
	var doc struct {
		Pipeline struct {
			NotificationRules []struct {
				Name           string                   `yaml:"name"`
				Enabled        bool                     `yaml:"enabled"`
				PipelineEvents []document.PipelineEvent `yaml:"pipelineEvents"`
				Method         struct {
					Type string `yaml:"type"`
					Spec struct {
						WebhookURL     string `yaml:"webhookUrl"`
						IntegrationKey string `yaml:"integrationKey"`
					} `yaml:"spec"`
				} `yaml:"notificationMethod"`
			} `yaml:"notificationRules"`
		} `yaml:"pipeline"`
	}
	if err := yaml.Unmarshal([]byte(pipelineYAML), &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range doc.Pipeline.NotificationRules {
		line := r.Name + ":"
		for _, e := range r.PipelineEvents {
			line += " " + e.Type
		}
		line += ", " + r.Method.Spec.WebhookURL + r.Method.Spec.IntegrationKey
		if !r.Enabled {
			line += " (disabled)"
		}
		out = append(out, line)
	}
	return out
}

func TestNotifications(t *testing.T) {
	c := example(t)
	slack := func(team string) string {
		return team + " Slack: PipelineFailed WaitingForUserAction, <+secrets.getValue(\"account.slack_" + team + "\")>"
	}
	pager := func(team string) string {
		return team + " PagerDuty: PipelineFailed, <+secrets.getValue(\"account.pagerduty_" + team + "\")>"
	}
	for _, tc := range []struct {
		stack, service string
		want           []string
	}{
		// Lower environments: the owning team, in Slack; no page.
		{"dev.services", "payment-service", []string{slack("payments")}},
		{"staging.services", "payment-service", []string{slack("payments")}},
		// Production: the owner and the platform team, paged on failure.
		{"production.services", "payment-service", []string{slack("payments"), pager("payments"), slack("platform"), pager("platform")}},
		// A team without PagerDuty is not paged; the platform team still is.
		{"production.services", "report-generator", []string{slack("data"), slack("platform"), pager("platform")}},
	} {
		if got := rules(t, deploymentOf(t, c, tc.stack, tc.service).Pipeline.YAML); !slices.Equal(got, tc.want) {
			t.Errorf("%s %s:\n got %q\nwant %q", tc.stack, tc.service, got, tc.want)
		}
	}
	// The pipeline that runs this program tells the platform team, who
	// approve its ups.
	if got, want := rules(t, mustBuild(t, c, "dev").Foundation.CI.Pipeline.YAML), []string{slack("platform")}; !slices.Equal(got, want) {
		t.Errorf("CI pipeline: %q, want %q", got, want)
	}
}

// Every way a run ends without success reaches each channel that must
// hear of it: the owning team's Slack in every environment, and in
// Production the platform team's Slack and each PagerDuty channel, by an
// event Harness sends for the status the run ends with.
func TestEveryUnsuccessfulEndingIsHeard(t *testing.T) {
	c := example(t)
	checked := 0
	for _, stack := range c.AllStacks() {
		for _, d := range mustBuild(t, c, stack).Deployments {
			var doc document.Document
			if err := yaml.Unmarshal([]byte(d.Pipeline.YAML), &doc); err != nil {
				t.Fatal(err)
			}
			rules := doc.Pipeline.NotificationRules
			if len(rules) == 0 {
				t.Fatalf("%s %s: no notification rule", stack, d.Service)
			}
			for _, r := range rules {
				var events []string
				for _, e := range r.PipelineEvents {
					events = append(events, e.Type)
				}
				for _, end := range RunEndings {
					if !slices.ContainsFunc(EventsOnEnd(end.Status), func(e string) bool { return slices.Contains(events, e) }) {
						t.Errorf("%s %s: %s (%s) reaches no event of rule %q (%v)", stack, d.Service, end.What, end.Status, r.Name, events)
					}
					checked++
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d endings checked", checked)
	}
}
