package ghrunner

import (
	"fmt"
	"strings"

	"github.com/rhysd/actionlint"
	"gopkg.in/yaml.v3"
)

// Workflow is a workflow file as actionlint parses it, with what its
// parser does not know yet.
type Workflow struct {
	// Path is the file's path in the repository (.github/workflows/up.yml).
	Path string
	*actionlint.Workflow
	// Queue is the concurrency key queue of the workflow ("" or "max";
	// GitHub changelog 2026-05-07), and by job id of its jobs':
	// actionlint v1.7.12 predates it and reports it as an unknown key,
	// so it is read from the YAML here.
	Queue     string
	JobQueues map[string]string
}

// ParseWorkflow parses a workflow file with actionlint's parser. Any
// error it reports fails, but for the one key it does not know
// (concurrency's queue).
func ParseWorkflow(path string, data []byte) (*Workflow, error) {
	w, errs := actionlint.Parse(data)
	var bad []string
	for _, e := range errs {
		if strings.HasPrefix(e.Message, `unexpected key "queue" for "concurrency" section`) {
			continue
		}
		bad = append(bad, fmt.Sprintf("%s:%d:%d: %s", path, e.Line, e.Column, e.Message))
	}
	if len(bad) > 0 || w == nil {
		return nil, fmt.Errorf("%s", strings.Join(bad, "\n"))
	}
	var raw struct {
		Concurrency any `yaml:"concurrency"`
		Jobs        map[string]struct {
			Concurrency any `yaml:"concurrency"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := &Workflow{Path: path, Workflow: w, Queue: queueOf(raw.Concurrency), JobQueues: map[string]string{}}
	if err := queueWithCancel(raw.Concurrency); err != nil {
		bad = append(bad, path+": concurrency: "+err.Error())
	}
	for id, j := range raw.Jobs {
		if q := queueOf(j.Concurrency); q != "" {
			out.JobQueues[strings.ToLower(id)] = q
		}
		if err := queueWithCancel(j.Concurrency); err != nil {
			bad = append(bad, fmt.Sprintf("%s: jobs.%s.concurrency: %v", path, id, err))
		}
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(bad, "\n"))
	}
	return out, nil
}

func queueOf(c any) string {
	m, ok := c.(map[string]any)
	if !ok {
		return ""
	}
	q, _ := m["queue"].(string)
	return q
}

// queueWithCancel refuses queue: max beside cancel-in-progress: true,
// which GitHub refuses as a workflow error (a queue of pending runs and
// the cancellation of the one in progress contradict each other; issue
// 59's reading of GitHub's concurrency docs). An expression is judged
// when it is evaluated, not here.
func queueWithCancel(c any) error {
	m, ok := c.(map[string]any)
	if !ok {
		return nil
	}
	if m["queue"] == "max" && m["cancel-in-progress"] == true {
		return fmt.Errorf("queue: max cannot be used with cancel-in-progress: true")
	}
	return nil
}

// Call is the workflow_call trigger of a reusable workflow, or nil.
func (w *Workflow) Call() *actionlint.WorkflowCallEvent {
	e, _ := w.FindWorkflowCallEvent()
	return e
}

// str is a *actionlint.String's value ("" for nil).
func str(s *actionlint.String) string {
	if s == nil {
		return ""
	}
	return s.Value
}
