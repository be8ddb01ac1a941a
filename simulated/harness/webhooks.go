package harness

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/harness/template"
	"github.com/company/harness-platform/simulated/core"
)

// Webhooks serves the custom webhook triggers of the simulated account
// over HTTP, as Harness's pipeline service answers them (harness-core,
// NGTriggerWebhookConfigResource and WebhookEventProcessingDetails;
// developer.harness.io, "Troubleshoot failed triggers"):
//
//   - POST /gateway/pipeline/api/webhook/custom/{token}/v3?accountIdentifier=...
//     accepts the event at once, whatever it holds: 200 with status
//     SUCCESS, the eventCorrelationId and the apiUrl that follows it.
//     Harness processes it later, in a queue;
//   - GET /gateway/pipeline/api/webhook/triggerExecutionDetails/{eventId}?accountIdentifier=...
//     answers 400 "Trigger event history {eventId} does not exist" until
//     the event is processed (here: for its first Pending reads), then the
//     processing details: status TARGET_EXECUTION_REQUESTED with the
//     pipelineExecutionId, or why the pipeline did not start
//     (NO_MATCHING_TRIGGER_FOR_PAYLOAD_CONDITIONS, INVALID_RUNTIME_INPUT_YAML,
//     NO_ENABLED_CUSTOM_TRIGGER_FOUND_FOR_PROJECT).
//
// The triggers and pipelines are the ones the simulated Harness holds.
// It evaluates the payload conditions the program writes (Equals, In)
// and the pipeline's runtime inputs as the trigger's inputYaml fills them
// from the payload (a <+trigger.payload.x> that is absent, and a value
// outside an .allowedValues(...), are refused). It does NOT run the
// pipeline, evaluate JEXL or header conditions, or require X-Api-Key.
type Webhooks struct {
	cloud *core.Cloud
	// Pending is how many reads of an event's details answer that it
	// does not exist yet (Harness's queue); default 1.
	Pending int
	// FailNextPosts answers the next n POSTs 503, as a gateway does.
	FailNextPosts int

	mu     sync.Mutex
	events map[string]*webhookEvent
	posts  int
}

type webhookEvent struct {
	reads                               int
	org, project, pipeline, trigger     string
	status, message, execution, payload string
}

// NewWebhooks serves the custom webhooks of the triggers cloud holds.
func NewWebhooks(cloud *core.Cloud) *Webhooks {
	return &Webhooks{cloud: cloud, Pending: 1, events: map[string]*webhookEvent{}}
}

// Posts is how many events were posted.
func (w *Webhooks) Posts() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.posts
}

var (
	customWebhookPath    = regexp.MustCompile(`^/gateway/pipeline/api/webhook/custom/([^/]+)/v3$`)
	executionDetailsPath = regexp.MustCompile(`^/gateway/pipeline/api/webhook/triggerExecutionDetails/([^/]+)$`)
)

func (w *Webhooks) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	w.mu.Lock()
	defer w.mu.Unlock()
	rw.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == http.MethodPost && customWebhookPath.MatchString(r.URL.Path):
		w.posts++
		if w.FailNextPosts > 0 {
			w.FailNextPosts--
			rw.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(rw, `{"status":"ERROR","code":"SERVICE_UNAVAILABLE","message":"upstream connect error"}`)
			return
		}
		var payload map[string]any
		if err := json.NewDecoder(r.Body).Decode(&payload); err != nil {
			rw.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(rw, `{"status":"ERROR","code":"INVALID_REQUEST","message":"Invalid payload: %s"}`, jsonEscape(err.Error()))
			return
		}
		q := r.URL.Query()
		key := fmt.Sprintf("event %d %s", len(w.events), r.URL.String())
		// 24 hexadecimal digits, as Harness's (a MongoDB ObjectId).
		id := core.ShortHash(key) + core.ShortHash(key+" id") + core.ShortHash(key+" event")
		ev := &webhookEvent{org: q.Get("orgIdentifier"), project: q.Get("projectIdentifier"), pipeline: q.Get("pipelineIdentifier"), trigger: q.Get("triggerIdentifier")}
		data, _ := json.Marshal(payload)
		ev.payload = string(data)
		ev.status, ev.message, ev.execution = w.process(r.URL, ev, payload)
		w.events[id] = ev
		base := "http://" + r.Host
		api := base + "/gateway/pipeline/api/webhook/triggerExecutionDetails/" + id + "?accountIdentifier=" + url.QueryEscape(q.Get("accountIdentifier"))
		ui := fmt.Sprintf("%s/ng/#/account/%s/cd/orgs/%s/projects/%s/deployments/webhooks?eventCorrelationId=%s", base, q.Get("accountIdentifier"), ev.org, ev.project, id)
		out, _ := json.Marshal(map[string]any{"status": "SUCCESS", "data": map[string]any{"eventCorrelationId": id, "apiUrl": api, "uiUrl": ui}})
		rw.Write(out)
	case r.Method == http.MethodGet && executionDetailsPath.MatchString(r.URL.Path):
		id := executionDetailsPath.FindStringSubmatch(r.URL.Path)[1]
		ev, ok := w.events[id]
		if ok {
			ev.reads++
		}
		if !ok || ev.reads <= w.Pending {
			rw.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(rw, `{"status":"ERROR","code":"INVALID_REQUEST","message":"Trigger event history %s does not exist"}`, jsonEscape(id))
			return
		}
		details := map[string]any{
			"eventFound": true, "eventId": id, "accountIdentifier": Account, "orgIdentifier": ev.org, "projectIdentifier": ev.project,
			"triggerIdentifier": ev.trigger, "pipelineIdentifier": ev.pipeline, "exceptionOccured": false,
			"status": ev.status, "message": ev.message, "payload": ev.payload,
		}
		if ev.execution != "" {
			details["pipelineExecutionId"] = ev.execution
		}
		out, _ := json.Marshal(map[string]any{"status": "SUCCESS", "data": map[string]any{"webhookProcessingDetails": details}})
		rw.Write(out)
	default:
		rw.WriteHeader(http.StatusNotFound)
		fmt.Fprint(rw, `{"status":"ERROR","code":"RESOURCE_NOT_FOUND","message":"Not found"}`)
	}
}

// process is what Harness's queue decides for the event: the final
// status, its message, and the execution it started.
func (w *Webhooks) process(u *url.URL, ev *webhookEvent, payload map[string]any) (status, message, execution string) {
	var trigger, pipeline map[string]any
	for _, r := range w.cloud.OfType("harness:platform/triggers:Triggers") {
		p := r.Properties
		if p["orgId"] == ev.org && p["projectId"] == ev.project && p["targetId"] == ev.pipeline && p["identifier"] == ev.trigger {
			trigger = p
		}
	}
	// The token in the path is the trigger's own.
	if trigger == nil || !strings.Contains(CustomWebhookURL(ev.org, ev.project, ev.pipeline, ev.trigger), u.EscapedPath()+"?") {
		return "NO_ENABLED_CUSTOM_TRIGGER_FOUND_FOR_PROJECT", "No Custom trigger found for Project: " + ev.project, ""
	}
	for _, r := range w.cloud.OfType("harness:platform/pipeline:Pipeline") {
		if p := r.Properties; p["orgId"] == ev.org && p["projectId"] == ev.project && p["identifier"] == ev.pipeline {
			pipeline = p
		}
	}
	var t struct {
		Trigger struct {
			Enabled bool `yaml:"enabled"`
			Source  struct {
				Spec struct {
					Spec struct {
						PayloadConditions []struct {
							Key, Operator, Value string
						} `yaml:"payloadConditions"`
					} `yaml:"spec"`
				} `yaml:"spec"`
			} `yaml:"source"`
			InputYaml string `yaml:"inputYaml"`
		} `yaml:"trigger"`
	}
	if err := yaml.Unmarshal([]byte(fmt.Sprint(trigger["yaml"])), &t); err != nil || !t.Trigger.Enabled {
		return "NO_ENABLED_CUSTOM_TRIGGER_FOUND_FOR_PROJECT", "No Custom trigger found for Project: " + ev.project, ""
	}
	for _, c := range t.Trigger.Source.Spec.Spec.PayloadConditions {
		got, _ := payloadValue(payload, c.Key)
		values := strings.Split(c.Value, ",")
		for i := range values {
			values[i] = strings.TrimSpace(values[i])
		}
		match := c.Operator == "Equals" && got == c.Value || c.Operator == "In" && slices.Contains(values, got) ||
			c.Operator == "NotEquals" && got != c.Value || c.Operator == "NotIn" && !slices.Contains(values, got)
		if !match {
			return "NO_MATCHING_TRIGGER_FOR_PAYLOAD_CONDITIONS", "No trigger matched payload after condition evaluation for project: " + ev.project, ""
		}
	}
	// The runtime inputs the trigger fills from the payload, against the
	// pipeline's allowed values.
	allowed := allowedValues(fmt.Sprint(pipeline["yaml"]))
	var inputs struct {
		Pipeline struct {
			Variables []struct{ Name, Value string } `yaml:"variables"`
		} `yaml:"pipeline"`
	}
	_ = yaml.Unmarshal([]byte(t.Trigger.InputYaml), &inputs)
	for _, v := range inputs.Pipeline.Variables {
		value := v.Value
		if m := payloadExpr.FindStringSubmatch(value); m != nil {
			got, ok := payloadValue(payload, value)
			if !ok || got == "" {
				return "INVALID_RUNTIME_INPUT_YAML", fmt.Sprintf("Failed while requesting Pipeline Execution: variable %s: %s is not in the payload", v.Name, value), ""
			}
			value = got
		}
		if values, ok := allowed[v.Name]; ok && !slices.Contains(values, value) {
			return "INVALID_RUNTIME_INPUT_YAML", fmt.Sprintf("Failed while requesting Pipeline Execution: variable %s: value %q is not one of the allowed values %s", v.Name, value, strings.Join(values, ", ")), ""
		}
	}
	// The pipeline as it runs: each template stage takes the version its
	// reference names, with the pipeline's templateInputs merged only
	// where that version has <+input>. An input the pipeline does not
	// give (a template changed under it, not reconciled) is one no
	// trigger supplies: the run is not started.
	if msg := unfilledTemplateInputs(fmt.Sprint(pipeline["yaml"]), ev.org, ev.project, w.cloud); msg != "" {
		return "INVALID_RUNTIME_INPUT_YAML", "Failed while requesting Pipeline Execution: " + msg, ""
	}
	return "TARGET_EXECUTION_REQUESTED", "Pipeline execution was requested successfully", core.ShortHash("execution "+ev.payload+ev.trigger) + core.ShortHash(ev.trigger+ev.payload) + core.ShortHash(ev.payload)[:6]
}

var payloadExpr = regexp.MustCompile(`^<\+trigger\.payload\.([A-Za-z0-9_.]+)>$`)

// payloadValue is the payload's value at a <+trigger.payload.a.b> key.
func payloadValue(payload map[string]any, key string) (string, bool) {
	m := payloadExpr.FindStringSubmatch(key)
	if m == nil {
		return "", false
	}
	var v any = payload
	for _, part := range strings.Split(m[1], ".") {
		obj, ok := v.(map[string]any)
		if !ok {
			return "", false
		}
		if v, ok = obj[part]; !ok {
			return "", false
		}
	}
	if v == nil {
		return "", false
	}
	return fmt.Sprint(v), true
}

var allowedValuesExpr = regexp.MustCompile(`^<\+input>\.allowedValues\((.*)\)$`)

// allowedValues are the pipeline variables whose runtime input is
// restricted, with their allowed values.
func allowedValues(pipelineYAML string) map[string][]string {
	var p struct {
		Pipeline struct {
			Variables []struct{ Name, Value string } `yaml:"variables"`
		} `yaml:"pipeline"`
	}
	_ = yaml.Unmarshal([]byte(pipelineYAML), &p)
	out := map[string][]string{}
	for _, v := range p.Pipeline.Variables {
		if m := allowedValuesExpr.FindStringSubmatch(v.Value); m != nil {
			out[v.Name] = strings.Split(m[1], ",")
		}
	}
	return out
}

func jsonEscape(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// unfilledTemplateInputs says which runtime inputs of a pipeline's
// templates, at the versions its references name, the pipeline gives no
// value ("" when none): a pipeline whose templateInputs predate its
// template's version. Harness merges templateInputs into the template
// only where the template has <+input> (harness-core
// mergeTemplateInputsToTemplateSpecInTemplateYaml) and validates the
// resolved YAML without <+input> before it runs (harness-core#42768);
// the Studio asks to reconcile the pipeline
// (developer.harness.io/docs/platform/templates/reconcile-pipeline-templates).
// The wording is the simulation's.
func unfilledTemplateInputs(pipelineYAML, org, project string, cloud *core.Cloud) string {
	expanded, refs, err := expandPipeline(pipelineYAML, org, project, cloud)
	if err != nil {
		return err.Error()
	}
	if len(refs) == 0 {
		return ""
	}
	p, _ := expanded["pipeline"].(map[string]any)
	stages, _ := p["stages"].([]any)
	var out []string
	for _, r := range refs {
		for _, e := range stages {
			st, _ := e.(map[string]any)["stage"].(map[string]any)
			if st == nil || st["identifier"] != r.Where {
				continue
			}
			body := make(map[string]any, len(st))
			for k, v := range st {
				if k != "template" {
					body[k] = v
				}
			}
			if left := template.Inputs(body); len(left) > 0 {
				version := r.Version
				if rec, err := resolveTemplate(cloud, r, org, project); err == nil {
					version = str2(rec.Properties["version"])
				}
				out = append(out, fmt.Sprintf("stage %s: template %s version %s has runtime inputs the pipeline gives no value: %s; the pipeline's template inputs are out of date (reconcile the pipeline with the template)",
					r.Where, r.Template, version, strings.Join(left, ", ")))
			}
		}
	}
	return strings.Join(out, "; ")
}
