package delivery

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/itchyny/gojq"
	"github.com/rhysd/actionlint"
	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/example"
	"github.com/company/harness-platform/internal/ghrunner"
	"github.com/company/harness-platform/plan"
	"github.com/company/harness-platform/trust"
)

const workflows = "../.github/workflows"

// Every workflow passes actionlint with no finding (pulumi/actions' inputs
// included: actionlint knows its v6 inputs).
func TestActionlint(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(workflows, "*.yml"))
	if len(files) < 4 {
		t.Fatalf("only %d workflows in %s", len(files), workflows)
	}
	var out strings.Builder
	l, err := actionlint.NewLinter(&out, &actionlint.LinterOptions{ConfigFile: "../.github/actionlint.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.LintFiles(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		if newerThanActionlint(e) {
			continue
		}
		t.Errorf("%s:%d:%d: %s [%s]", e.Filepath, e.Line, e.Column, e.Message, e.Kind)
	}
}

// newerThanActionlint: actionlint v1.7.12, the newest release (April
// 2026), predates the concurrency key queue (GitHub changelog
// 2026-05-07, "concurrency groups now allow larger queues": queue: max
// when cancel-in-progress is false). That key, with that value, is the
// one error it may report; everything else in the file is still checked
// (its parser goes on past an unknown key).
func newerThanActionlint(e *actionlint.Error) bool {
	if e.Kind != "syntax-check" || e.Message != `unexpected key "queue" for "concurrency" section. expected one of "cancel-in-progress", "group"` {
		return false
	}
	data, err := os.ReadFile(e.Filepath)
	if err != nil {
		return false
	}
	lines := strings.Split(string(data), "\n")
	return e.Line >= 1 && e.Line <= len(lines) && strings.TrimSpace(lines[e.Line-1]) == "queue: max"
}

type workflow struct {
	On          map[string]any    `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Env         map[string]string `yaml:"env"`
	Concurrency map[string]any    `yaml:"concurrency"`
	Jobs        map[string]struct {
		RunsOn         any               `yaml:"runs-on"`
		TimeoutMinutes *float64          `yaml:"timeout-minutes"`
		Needs          any               `yaml:"needs"`
		Uses           string            `yaml:"uses"`
		With           map[string]any    `yaml:"with"`
		Environment    any               `yaml:"environment"`
		Permissions    map[string]string `yaml:"permissions"`
		If             string            `yaml:"if"`
		Concurrency    map[string]any    `yaml:"concurrency"`
		Env            map[string]string `yaml:"env"`
		Steps          []struct {
			Uses  string            `yaml:"uses"`
			If    string            `yaml:"if"`
			Run   string            `yaml:"run"`
			Shell string            `yaml:"shell"`
			With  map[string]any    `yaml:"with"`
			Env   map[string]string `yaml:"env"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

func load(t *testing.T, name string) (workflow, string) {
	t.Helper()
	// With the example's values, which the tests below name.
	data := example.ReadFile(t, filepath.Join(workflows, name))
	var w workflow
	if err := yaml.Unmarshal(data, &w); err != nil {
		t.Fatal(err)
	}
	return w, string(data)
}

// What the workflows promise: previews on pull requests in chain order
// with the policy pack; ups on main dev -> staging -> production, each in
// its environment; a scheduled and manual drift check that manages one
// issue per stack; OIDC and secrets, never cloud keys; one run per stack
// at a time; --parallel capped.
func TestWorkflowContract(t *testing.T) {
	preview, _ := load(t, "preview.yml")
	if _, ok := preview.On["pull_request"]; !ok || len(preview.Permissions) != 0 {
		t.Errorf("preview: triggers %v permissions %v: want each job to ask for its own", preview.On, preview.Permissions)
	}
	// The job that runs the pull request's code may read the repository
	// and ask for the preview team's token, nothing else, and leaves no
	// GITHUB_TOKEN in .git/config; only the comment job, which runs none
	// of its code, writes (comments).
	if got := preview.Jobs["stacks"].Permissions; !maps.Equal(got, map[string]string{"contents": "read", "id-token": "write"}) {
		t.Errorf("preview: job preview's permissions %v", got)
	}
	for _, s := range preview.Jobs["stacks"].Steps {
		if strings.HasPrefix(s.Uses, "actions/checkout@") && s.With["persist-credentials"] != false {
			t.Errorf("preview: a checkout leaves the GITHUB_TOKEN to the pull request's code (persist-credentials: %v)", s.With["persist-credentials"])
		}
	}
	comment := preview.Jobs["comment"]
	if !maps.Equal(comment.Permissions, map[string]string{"pull-requests": "write"}) {
		t.Errorf("preview: job comment's permissions %v", comment.Permissions)
	}
	for _, s := range comment.Steps {
		if s.Run != "" || strings.HasPrefix(s.Uses, "actions/checkout@") {
			t.Errorf("preview: the comment job, which may write, runs the pull request's code: %+v", s)
		}
	}
	run := ""
	for _, s := range preview.Jobs["stacks"].Steps {
		run += s.Run
		if strings.Contains(s.Run, "|") && strings.Contains(s.Run, "tee") && s.Shell != "bash" {
			t.Errorf("preview: a step pipes into tee without shell: bash (no pipefail)")
		}
	}
	for _, want := range []string{"--policy-pack", "--policy-pack-config policy/config.json", "--parallel 8", "--event-log", "platformctl summary"} {
		if !strings.Contains(run, want) {
			t.Errorf("preview does not run %q", want)
		}
	}
	// The stacks come from the catalog (platformctl stacks): platform and
	// service stacks, those a change may touch; a new one is left to the
	// up of main, as the preview token may not create a stack.
	for _, want := range []string{"platformctl stacks --base", "platformctl stacks)", `pulumi stack history --stack "$stack"`, `STACKS=`, `xargs -P "$PREVIEWS"`} {
		if !strings.Contains(run, want) {
			t.Errorf("preview does not run %q", want)
		}
	}
	// Previews at once must not race for the workspace's current stack.
	if strings.Contains(run, "pulumi stack select") {
		t.Error("preview selects stacks: previews running at once race for the workspace's current stack")
	}
	// One comment for the whole change, updated in place.
	var script string
	for _, st := range comment.Steps {
		if sc, ok := st.With["script"].(string); ok {
			script += sc
		}
	}
	if strings.Count(script, "createComment") != 1 || !strings.Contains(script, "updateComment") || strings.Contains(script, "for (const file of") ||
		!strings.Contains(script, "const marker = '<!-- harness-platform preview -->'") || !strings.Contains(script, "65000") {
		t.Error("preview: want one comment for every stack, found by its marker and updated in place, within GitHub's size limit")
	}
	if strings.Contains(run, "--create") {
		t.Error("preview creates stacks: a pull request's token may not")
	}

	up, upText := load(t, "up.yml")
	if _, ok := up.On["push"]; !ok {
		t.Errorf("up: triggers %v", up.On)
	}
	// Production applies the plans of a preview made after staging's up,
	// which its reviewers saw before approving.
	// Each runs only where its environment's delivery path is this
	// workflow (harness-platform:delivery; job paths reads them), and a
	// skipped one does not hold the next back, a failed one does.
	chain := []struct{ job, needs, uses, stack string }{
		{"dev", "", "up-stack.yml", "dev"}, {"staging", "dev", "up-stack.yml", "staging"},
		{"plan-production", "staging", "plan-stack.yml", "production"}, {"production", "plan-production", "up-stack.yml", "production"},
	}
	for _, c := range chain {
		j, ok := up.Jobs[c.job]
		if !ok || j.Uses != "./.github/workflows/"+c.uses || j.With["stack"] != c.stack {
			t.Errorf("up: job %s: %+v", c.job, j)
		}
		var needs []string
		switch n := j.Needs.(type) {
		case string:
			needs = []string{n}
		case []any:
			for _, x := range n {
				needs = append(needs, fmt.Sprint(x))
			}
		}
		want := []string{"paths"}
		if c.needs != "" {
			want = append(want, c.needs)
		}
		if !slices.Equal(needs, want) {
			t.Errorf("up: %s needs %q, want %q", c.job, needs, want)
		}
		if c.needs != "" {
			checkGate(t, c.job, j.If, c.needs, up.Jobs[c.needs].With["stack"])
		} else if !strings.Contains(j.If, "needs.paths.outputs."+c.stack+" == 'github-actions'") {
			t.Errorf("up: %s runs if %q: want only where %s's delivery path is github-actions", c.job, j.If, c.stack)
		}
	}
	if !strings.Contains(upText, "platformctl delivery --stack") {
		t.Error("up: the delivery paths are not read from the catalog (platformctl delivery)")
	}
	if up.Jobs["production"].With["plan"] != true {
		t.Error("up: production does not apply the saved plans")
	}
	// A new cluster: the plan was a first step; the rest is planned once
	// it is applied, and approved and applied from its own plan.
	rest, upRest := up.Jobs["plan-production-rest"], up.Jobs["production-rest"]
	if rest.Uses != "./.github/workflows/plan-stack.yml" || rest.With["round"] != "2" || !strings.Contains(rest.If, "needs.plan-production.outputs.first-step == 'true'") ||
		fmt.Sprint(rest.Needs) != "[paths plan-production production]" {
		t.Errorf("up: plan-production-rest %+v", rest)
	}
	if upRest.Uses != "./.github/workflows/up-stack.yml" || upRest.With["plan"] != true || upRest.With["round"] != "2" || !strings.Contains(fmt.Sprint(upRest.Needs), "plan-production-rest") {
		t.Errorf("up: production-rest %+v", upRest)
	}
	planJob, planText := load(t, "plan-stack.yml")
	if planJob.Jobs["plan"].Concurrency["queue"] != "max" {
		t.Error("plan-stack: a pending plan is cancelled by the next run of its stack's group (queue: max)")
	}
	if planJob.Jobs["plan"].Environment != nil || !strings.Contains(planText, "--save-plan plans") || !strings.Contains(planText, "name: plans-${{ inputs.stack }}-${{ github.run_id }}-${{ inputs.round }}") ||
		!strings.Contains(planText, "first-step=$first") {
		t.Error("plan-stack: want a preview saving its plans as this run's artifact, outside the protected environment")
	}
	// Production's plan covers exactly the stacks its up applies: both
	// --changed, with the history to compare against.
	if !strings.Contains(planText, "preview --stack \"$STACK\" --changed --save-plan plans") || !strings.Contains(planText, "fetch-depth: 0") {
		t.Error("plan-stack: want the preview of the changed stacks only (--changed), with the whole history (fetch-depth: 0)")
	}
	stackJob, stackText := load(t, "up-stack.yml")
	if !strings.Contains(stackText, "fetch-depth: 0") {
		t.Error("up-stack: --changed needs the whole history (fetch-depth: 0)")
	}
	job := stackJob.Jobs["up"]
	if job.Environment != "${{ inputs.stack }}" || job.Concurrency["group"] != "stack-${{ inputs.stack }}" || job.Concurrency["cancel-in-progress"] != false || job.Concurrency["queue"] != "max" {
		t.Errorf("up-stack: environment %v concurrency %v", job.Environment, job.Concurrency)
	}
	if job.Env["HARNESS_PLATFORM_DELIVERY"] != "github-actions" {
		t.Errorf("up-stack: the run does not name its delivery path (HARNESS_PLATFORM_DELIVERY: %q)", job.Env["HARNESS_PLATFORM_DELIVERY"])
	}
	pulumiAction, upRun, backups := false, "", false
	for _, s := range job.Steps {
		// The state backups up takes (docs/operating.md, State backups and
		// restore), kept even when the up fails.
		if strings.HasPrefix(s.Uses, "actions/upload-artifact@") && s.With["path"] == ".backups/" && s.If == "always()" {
			backups = true
		}
		if strings.HasPrefix(s.Uses, "pulumi/actions@v6") {
			pulumiAction = true
			if s.With["command"] != nil || s.With["pulumi-version"] != "3.256.0" {
				t.Errorf("up-stack: pulumi/actions with %v: want the pinned CLI installed only", s.With)
			}
		}
		upRun += s.Run
	}
	if !pulumiAction {
		t.Error("up-stack does not install the CLI with pulumi/actions@v6")
	}
	if !backups {
		t.Error("up-stack does not keep the state backups (.backups/) as an artifact, even on failure")
	}
	// Every stack of the environment, in dependency order.
	// Within Harness's API budget with one key (README).
	// Stale plans (platformctl exits 4) told from a failure, and only in
	// the first round.
	for _, want := range []string{"platformctl\" up --stack \"$STACK\" --yes", "--policy-pack", "--parallel 2 --stack-parallel 2", "plan=(--plan plans)",
		`[ "$code" = 4 ] && [ "$PLAN" = true ] && [ "$ROUND" = 1 ]`,
		// A merge ups only the stacks its change touches.
		`--yes --changed`} {
		if !strings.Contains(upRun, want) {
			t.Errorf("up-stack does not run %q", want)
		}
	}

	drift, driftText := load(t, "drift.yml")
	if _, ok := drift.On["schedule"]; !ok {
		t.Error("drift: no schedule")
	}
	if _, ok := drift.On["workflow_dispatch"]; !ok {
		t.Error("drift: cannot be run by hand")
	}
	if drift.Permissions["issues"] != "write" || drift.Jobs["drift"].Concurrency["group"] != "stack-${{ matrix.stack }}" || drift.Jobs["drift"].Concurrency["queue"] != "max" {
		t.Errorf("drift: permissions %v concurrency %v", drift.Permissions, drift.Jobs["drift"].Concurrency)
	}
	for _, want := range []string{"--preview-only --expect-no-changes", "issues.create", "state: 'closed'", "labels: ['drift']",
		// drift (platformctl exits 3) told from a failure to check
		"3) result=drift", "if: steps.check.outputs.result == 'drift' || steps.check.outputs.result == 'clean'",
		"if: steps.check.outputs.result == 'failed'"} {
		if !strings.Contains(driftText, want) {
			t.Errorf("drift does not %q", want)
		}
	}
	// Credentials from one place: Pulumi Cloud by OIDC (no stored token),
	// every other credential from the stack's ESC environment, which the
	// repository's esc/ defines; no repository secret, no cloud key.
	for _, name := range []string{"preview.yml", "up.yml", "up-stack.yml", "plan-stack.yml", "drift.yml"} {
		_, text := load(t, name)
		for _, bad := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "aws-secret-access-key", "secrets.", "configure-aws-credentials"} {
			if strings.Contains(text, bad) {
				t.Errorf("%s uses %s: credentials come from ESC (and Pulumi Cloud by OIDC)", name, bad)
			}
		}
	}
	for name, opens := range map[string]string{
		"preview.yml":    `pulumi env run "company/harness-platform/$env-preview" -- \`,
		"up-stack.yml":   "environment: company/harness-platform/${{ inputs.stack }}",
		"plan-stack.yml": "environment: company/harness-platform/${{ inputs.stack }}-preview",
		"drift.yml":      "environment: company/harness-platform/${{ matrix.stack }}",
	} {
		_, text := load(t, name)
		if !strings.Contains(text, "uses: pulumi/auth-actions@v1") || !strings.Contains(text, opens) {
			t.Errorf("%s: want Pulumi Cloud by OIDC (pulumi/auth-actions) and the stack's ESC environment (%s)", name, opens)
		}
	}
	for _, env := range []string{"dev", "staging", "production"} {
		for _, file := range []string{"harness-platform-" + env + ".yaml", "harness-platform-" + env + "-preview.yaml"} {
			if _, err := os.Stat(filepath.Join("..", "esc", file)); err != nil {
				t.Errorf("the workflows open an ESC environment esc/ does not define: %v", err)
			}
		}
	}
}

// The reusable workflow service repositories call after a build posts the
// payload the trigger reads, to the URL and with the key the stacks wrote
// into the organisation variables the caller's repository sees (names
// and value from package plan, so the two cannot drift apart).
func TestDeployToHarnessWorkflow(t *testing.T) {
	w, text := load(t, "deploy-to-harness.yml")
	call, ok := w.On["workflow_call"].(map[string]any)
	if !ok {
		t.Fatal("deploy-to-harness is not a reusable workflow (on: workflow_call)")
	}
	inputs, _ := call["inputs"].(map[string]any)
	for _, name := range []string{"environment", plan.PayloadServiceName, plan.PayloadImageTag, plan.PayloadTargetRegion} {
		in, _ := inputs[name].(map[string]any)
		if in["required"] != true {
			t.Errorf("input %s is not required", name)
		}
	}
	job := w.Jobs["start"]
	if job.Environment != "${{ inputs.environment }}" || len(w.Permissions) != 0 {
		t.Errorf("the job runs in environment %v with permissions %v: want the caller's environment, no token permissions", job.Environment, w.Permissions)
	}
	if len(job.Steps) != 2 {
		t.Fatalf("%d steps, want find and start", len(job.Steps))
	}
	find, start := job.Steps[0], job.Steps[1]
	if find.Env["VARIABLES"] != "${{ toJSON(vars) }}" || !strings.Contains(find.Env["FILTER"], `startswith("`+plan.WebhookVariablePrefix+`")`) {
		t.Errorf("the webhook is not looked up among the caller's %s variables: %v", plan.WebhookVariablePrefix, find.Env)
	}
	for _, want := range []string{
		"{" + plan.PayloadServiceName + ": $s, " + plan.PayloadImageTag + ": $t, " + plan.PayloadTargetRegion + ": $r}",
		`X-Api-Key: $HARNESS_API_KEY`, `"$WEBHOOK_URL"`, ".data.eventCorrelationId", ".data.webhookProcessingDetails.status",
	} {
		if !strings.Contains(start.Run, want) {
			t.Errorf("the step does not %q", want)
		}
	}
	if strings.Contains(start.Run, "--retry") && strings.Index(start.Run, "--retry") < strings.Index(start.Run, "-X POST") {
		t.Error("the webhook's POST is retried: Harness queues the event it answered, so a second POST may start the pipeline twice")
	}
	if start.Env["HARNESS_API_KEY"] != "${{ steps.webhook.outputs.key != '' && secrets[steps.webhook.outputs.key] || '' }}" {
		t.Errorf("the key comes from %q, want the organisation secret the variable names", start.Env["HARNESS_API_KEY"])
	}
	if !strings.Contains(text, "uses: company/harness-platform/.github/workflows/deploy-to-harness.yml@main") || !strings.Contains(text, "#     secrets: inherit\n") {
		t.Error("the workflow does not show the lines a service repository adds (the call, and secrets: inherit for the API key)")
	}

	// The filter, run by a jq (gojq) on what a repository sees: the
	// variables of its stack in every environment, an unrelated one, one
	// not JSON, another stack's, and the variable the plan writes.
	filter, err := gojq.Parse(find.Env["FILTER"])
	if err != nil {
		t.Fatalf("FILTER: %v", err)
	}
	code, err := gojq.Compile(filter, gojq.WithVariables([]string{"$e", "$s"}))
	if err != nil {
		t.Fatal(err)
	}
	c := catalogtest.Example(t, "..")
	vars := map[string]any{"HARNESS_WEBHOOKS_BROKEN": "{not json", "UNRELATED": "x"}
	type want struct{ env, service, url, key string }
	var wants []want
	for _, env := range c.Chain {
		for _, stack := range c.StacksOf(env) {
			p, err := plan.Build(c, stack)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range p.GitHub.Webhooks {
				urls := map[string]string{}
				for _, h := range v.Hooks {
					urls[h.TriggerID] = "https://hooks.example/" + stack + "/" + h.TriggerID
				}
				withKey := env == "production" // a key in one environment only
				value, err := v.Value(urls, withKey)
				if err != nil {
					t.Fatal(err)
				}
				vars[v.Name] = value
				for _, h := range v.Hooks {
					key := ""
					if withKey {
						key = v.APIKeySecret
					}
					wants = append(wants, want{v.Environment, h.Service, urls[h.TriggerID], key})
				}
			}
		}
	}
	if len(wants) == 0 {
		t.Fatal("the example writes no webhook variable")
	}
	run := func(env, service string) map[string]any {
		it := code.Run(vars, env, service)
		v, ok := it.Next()
		if !ok {
			return nil
		}
		if err, ok := v.(error); ok {
			t.Fatalf("%s in %s: %v", service, env, err)
		}
		m, _ := v.(map[string]any)
		return m
	}
	for _, w := range wants {
		got := run(w.env, w.service)
		if got["url"] != w.url || got["key"] != w.key {
			t.Errorf("%s in %s: found %v, want url %s and key %q", w.service, w.env, got, w.url, w.key)
		}
	}
	if got := run("no-such-environment", wants[0].service); got != nil {
		t.Errorf("an environment no stack writes finds %v", got)
	}
	if got := run(wants[0].env, "no-such-service"); got != nil {
		t.Errorf("a service no stack writes finds %v", got)
	}
}

// Every job that previews, updates or checks stacks runs on the runners
// the stack files name (harness-platform:runner), which validate holds to
// reach every cluster's API: derived from the stack files, not written
// twice. Saved plans are made on the deployer runners.
func TestJobsRunWhereTheStacksReach(t *testing.T) {
	c := catalogtest.Example(t, "..")
	for file, job := range map[string]string{"preview.yml": "stacks", "up-stack.yml": "up", "plan-stack.yml": "plan", "drift.yml": "drift"} {
		w, _ := load(t, file)
		for _, env := range c.Chain {
			_, labels := runsOn(w.Jobs[job].RunsOn)
			r := c.Stacks[env].Runner
			if r == nil {
				t.Fatalf("stack %s names no runners", env)
			}
			want := r.Labels
			if file == "preview.yml" || file == "drift.yml" {
				// What changes nothing, on hosts no up runs on. A saved
				// plan (plan-stack.yml) is made where the up that applies
				// it runs: pull requests' code runs on the preview hosts.
				want = r.PreviewLabels
			}
			if !slices.Equal(labels, toAny(want)) {
				t.Errorf("%s: job %s runs on %v; stack %s's runners are %v", file, job, w.Jobs[job].RunsOn, env, r)
			}
		}
	}
}

// runsOn is a job's runs-on: its runner group ("" for none) and labels
// (a list, or a mapping with group and labels: GitHub's "Choosing the
// runner for a job").
func runsOn(v any) (group string, labels []any) {
	switch r := v.(type) {
	case []any:
		return "", r
	case string:
		return "", []any{r}
	case map[string]any:
		group, _ = r["group"].(string)
		switch l := r["labels"].(type) {
		case []any:
			labels = l
		case string:
			labels = []any{l}
		}
	}
	return group, labels
}

// The deployer runners are a runner group only the workflows that
// update stacks, or save the plans an update applies, may use, at main
// (plan.RunnerGroup, declared by the program): every job that runs in it
// is defined in one of those workflows, every job of them runs in it, and
// no workflow a pull request runs (or calls) names it. GitHub runs a
// group's runners only for its selected workflows at their pinned ref, so
// a pull request's copy of up-stack.yml (ref refs/pull/<n>/merge) waits
// for runners forever instead of taking one.
func TestPullRequestsCannotTakeTheDeployerRunners(t *testing.T) {
	c := catalogtest.Example(t, "..")
	p, err := plan.Build(c, c.Chain[0])
	if err != nil {
		t.Fatal(err)
	}
	r := p.GitHub.Repository
	if r == nil || r.RunnerGroup.Name != plan.DeployerRunnerGroup {
		t.Fatalf("the foundation stack declares no deployer runner group: %+v", r)
	}
	var want []string
	for _, w := range plan.DeployerWorkflows {
		want = append(want, r.Owner+"/"+r.Name+"/"+w+"@refs/heads/main")
	}
	if !slices.Equal(r.RunnerGroup.Workflows, want) {
		t.Errorf("the group selects %v, want %v", r.RunnerGroup.Workflows, want)
	}
	names, err := filepath.Glob(filepath.Join(workflows, "*.yml"))
	if err != nil {
		t.Fatal(err)
	}
	inGroup := map[string]bool{}
	for _, path := range names {
		file := ".github/workflows/" + filepath.Base(path)
		w, _ := load(t, filepath.Base(path))
		selected := slices.Contains(plan.DeployerWorkflows, file)
		for id, job := range w.Jobs {
			if job.Uses != "" {
				continue
			}
			group, labels := runsOn(job.RunsOn)
			switch {
			case group == plan.DeployerRunnerGroup && !selected:
				t.Errorf("%s: job %s runs in %s, which does not select %s: GitHub would never run it", file, id, group, file)
			case selected && group != plan.DeployerRunnerGroup:
				t.Errorf("%s: job %s runs on %v outside the deployer runner group", file, id, job.RunsOn)
			case group == "" && slices.Contains(labels, any("harness-platform")) && slices.Contains(labels, any("self-hosted")) && !slices.Contains(labels, any("harness-platform-preview")):
				t.Errorf("%s: job %s asks for the deployer runners' labels outside their group", file, id)
			}
			if group == plan.DeployerRunnerGroup {
				inGroup[file] = true
			}
		}
		if _, pr := w.On["pull_request"]; pr {
			for id, job := range w.Jobs {
				if slices.Contains(plan.DeployerWorkflows, strings.TrimPrefix(job.Uses, "./")) {
					t.Errorf("%s runs on pull requests and its job %s calls %s, whose jobs run on the deployer runners", file, id, job.Uses)
				}
			}
		}
	}
	for _, w := range plan.DeployerWorkflows {
		if !inGroup[w] {
			t.Errorf("%s is selected by the deployer runner group but none of its jobs runs there", w)
		}
	}
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, e := range s {
		out[i] = e
	}
	return out
}

// The organisation's policy config (policy/config.json, which every run
// of the project's pack uses) lets each stack's clusters open their public
// endpoint to its runners and to nothing wider: otherwise the pack would
// refuse the very stacks the runners must reach.
func TestPolicyConfigAllowsTheRunners(t *testing.T) {
	c := catalogtest.Example(t, "..")
	data, err := os.ReadFile("../policy/config.json")
	if err != nil {
		t.Fatal(err)
	}
	var config struct {
		EKS struct {
			AllowedPublicCidrs []string `json:"allowedPublicCidrs"`
		} `json:"eks-cluster-hardened"`
	}
	if err := json.Unmarshal(data, &config); err != nil {
		t.Fatal(err)
	}
	within := func(cidr string) bool {
		p, err := netip.ParsePrefix(cidr)
		for _, a := range config.EKS.AllowedPublicCidrs {
			if ap, aerr := netip.ParsePrefix(a); err == nil && aerr == nil && ap.Bits() <= p.Bits() && ap.Contains(p.Addr()) {
				return true
			}
		}
		return false
	}
	for _, env := range c.Chain {
		st := c.Stacks[env]
		if st.Cluster == nil || !st.Cluster.PublicEndpoint {
			continue
		}
		for _, cidr := range st.Cluster.PublicAccessCidrs {
			if !within(cidr) {
				t.Errorf("stack %s opens its clusters to %s, which policy/config.json does not allow (%v)", env, cidr, config.EKS.AllowedPublicCidrs)
			}
		}
	}
}

// Every job that runs Pulumi checks first: after its credentials (Pulumi
// Cloud by OIDC, the stack's ESC environment) and before the first step
// that previews, updates or refreshes, a step runs `platformctl
// preflight` on the same stack.
func TestPreflightFirst(t *testing.T) {
	runsPulumi := regexp.MustCompile(`(platformctl"?|pulumi) (preview|up|refresh) `)
	for file, job := range map[string]string{"preview.yml": "stacks", "up-stack.yml": "up", "plan-stack.yml": "plan", "drift.yml": "drift"} {
		w, _ := load(t, file)
		steps := w.Jobs[job].Steps
		preflight, first, auth, esc := -1, -1, -1, -1
		for i, s := range steps {
			switch {
			case strings.HasPrefix(s.Uses, "pulumi/auth-actions@"):
				auth = i
			case strings.HasPrefix(s.Uses, "pulumi/esc-action@") || strings.Contains(s.Run, "pulumi env run"):
				if esc < 0 {
					esc = i
				}
			}
			if strings.Contains(s.Run, "platformctl preflight --stack") && preflight < 0 {
				preflight = i
			}
			if runsPulumi.MatchString(s.Run) && first < 0 {
				first = i
			}
		}
		switch {
		case first < 0:
			t.Errorf("%s: job %s runs no Pulumi operation", file, job)
		case preflight < 0 || preflight > first:
			t.Errorf("%s: job %s runs Pulumi (step %d) before any preflight (step %d)", file, job, first, preflight)
		case auth < 0 || auth > preflight || esc < 0 || esc > preflight:
			t.Errorf("%s: job %s's preflight (step %d) runs before its credentials (OIDC step %d, ESC step %d)", file, job, preflight, auth, esc)
		}
	}
}

// The example call a service repository copies (in the workflow and the
// docs/delivery.md) names a GitHub environment the stacks write (a Harness
// environment's name) and a region the service deploys to there, as the
// trigger's targetRegion allows: copied as is, it starts a deployment.
func TestDeployExampleCallIsReal(t *testing.T) {
	c := catalogtest.Example(t, "..")
	for _, file := range []string{"../.github/workflows/deploy-to-harness.yml", "../docs/delivery.md"} {
		data := example.ReadFile(t, file)
		_, rest, ok := strings.Cut(string(data), "uses: company/harness-platform/.github/workflows/deploy-to-harness.yml@main\n")
		line, _, _ := strings.Cut(rest, "\n")
		_, with, ok2 := strings.Cut(line, "with: ")
		var call map[string]string
		if !ok || !ok2 || yaml.Unmarshal([]byte(with), &call) != nil {
			t.Errorf("%s: no example call (uses: ... with: {...})", file)
			continue
		}
		s, ok := c.Service(call[plan.PayloadServiceName])
		if !ok {
			t.Errorf("%s: the example calls unknown service %q", file, call[plan.PayloadServiceName])
			continue
		}
		found := false
		for _, name := range c.Chain {
			st := c.Stacks[name]
			if st.Environment.Name != call["environment"] {
				continue
			}
			found = true
			if in, ok := s.In[name]; !ok || !slices.Contains(in.Regions, call[plan.PayloadTargetRegion]) {
				t.Errorf("%s: %s does not deploy to region %q in %s (its regions there: %v)", file, s.Name, call[plan.PayloadTargetRegion], call["environment"], in.Regions)
			}
		}
		if !found {
			t.Errorf("%s: the example calls environment %q, which no stack writes (the Harness environments' names)", file, call["environment"])
		}
	}
}

// Pull requests run the program's tests: the README's test command (make
// test) in its two halves, fast layers first, the engine tests after
// them with the pinned CLI cached by the install script's own key, each
// with ../shared checked out beside the clone; the preview waits for
// both.
func TestPullRequestsRunTheTests(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile("(?m)^make test +#").Match(readme) {
		t.Fatal("the README's test command is not make test")
	}
	makefile, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^test:(.*)$`).FindSubmatch(makefile)
	if m == nil {
		t.Fatal("the Makefile has no test target")
	}
	halves := strings.Fields(string(m[1]))
	w, _ := load(t, "preview.yml")
	var ran []string
	for i, job := range []string{"test-fast", "test-engine"} {
		j, ok := w.Jobs[job]
		if !ok {
			t.Fatalf("preview.yml has no job %s", job)
		}
		checkouts := map[string]string{}
		cached := false
		for _, s := range j.Steps {
			if strings.HasPrefix(s.Uses, "actions/checkout@") {
				repo, _ := s.With["repository"].(string)
				path, _ := s.With["path"].(string)
				checkouts[repo] = path
			}
			if strings.HasPrefix(s.Uses, "actions/cache@") {
				cached = s.With["key"] == "${{ steps.cli.outputs.key }}" && s.With["path"] == "${{ steps.cli.outputs.dir }}"
			}
			if strings.Contains(s.Run, "install-pulumi.sh --cache-key") != strings.Contains(s.Run, "install-pulumi.sh --cache-dir") {
				t.Errorf("%s: the cache key and directory come from different places", job)
			}
			if target, ok := strings.CutPrefix(strings.TrimSpace(s.Run), "make "); ok {
				ran = append(ran, target)
			}
		}
		// ../shared resolves from the clone: both side by side.
		if checkouts[""] != "project" || checkouts["company/harness-platform-shared"] != "shared" {
			t.Errorf("%s checks out %v: want the project and ../shared side by side", job, checkouts)
		}
		if job == "test-engine" && !cached {
			t.Errorf("%s does not cache the pinned CLI by the install script's key and directory", job)
		}
		if needs := fmt.Sprint(j.Needs); i == 1 && needs != "test-fast" {
			t.Errorf("%s needs %s: the fast layers go first", job, needs)
		}
	}
	if !slices.Equal(ran, halves) {
		t.Errorf("the pull-request jobs run make %v; make test is %v", ran, halves)
	}
	// The previews start at once: the gate below joins them with the
	// tests (issue 47: a pull request's checks in minutes).
	if w.Jobs["stacks"].Needs != nil {
		t.Errorf("the preview needs %v: it waits for the tests, which the required check joins anyway", w.Jobs["stacks"].Needs)
	}
	// The required check joins every job and always runs: a job skipped
	// because the tests failed would satisfy a required check.
	gate := w.Jobs[plan.PreviewCheck]
	joined, _ := gate.Needs.([]any)
	for _, job := range []string{"test-fast", "test-engine", "stacks"} {
		if !slices.Contains(joined, any(job)) {
			t.Errorf("the required check %s does not join %s (needs %v)", plan.PreviewCheck, job, gate.Needs)
		}
	}
	if gate.If != "always()" || len(gate.Steps) != 1 || !strings.Contains(gate.Steps[0].Run, `!= success`) {
		t.Errorf("the required check %s: if %q, steps %+v: want it always to run and to fail unless every job succeeded", plan.PreviewCheck, gate.If, gate.Steps)
	}
}

// A rerun of a job uploads its artifact again, and upload-artifact@v4
// refuses a name the run already holds ("an artifact with this name
// already exists on the workflow run"): every upload either replaces it
// (overwrite: true) or names the attempt (github.run_attempt).
// https://github.com/actions/upload-artifact#overwriting-an-artifact
func TestArtifactsSurviveReruns(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(workflows, "*.yml"))
	uploads := 0
	for _, file := range files {
		w, _ := load(t, filepath.Base(file))
		for name, job := range w.Jobs {
			for _, s := range job.Steps {
				if !strings.HasPrefix(s.Uses, "actions/upload-artifact@") {
					continue
				}
				uploads++
				artifact, _ := s.With["name"].(string)
				if s.With["overwrite"] != true && !strings.Contains(artifact, "github.run_attempt") {
					t.Errorf("%s: job %s uploads %q, which a rerun cannot upload again", filepath.Base(file), name, artifact)
				}
			}
		}
	}
	if uploads == 0 {
		t.Fatal("no artifact uploads")
	}
}

// A job's Pulumi Cloud token outlives the job: pulumi/auth-actions asks
// for token-expiration seconds, or none, and then Pulumi Cloud grants 2
// hours; the issuer's maxExpiration caps it (trust.Access.TokenLifetime).
// GitHub cancels a job after timeout-minutes, 360 when unset (workflow
// syntax, jobs.<job_id>.timeout-minutes). A job that outlives its token
// fails halfway, its stack locked, with 401s from Pulumi Cloud.
func TestTokensOutliveTheirJobs(t *testing.T) {
	m, err := trust.Load()
	if err != nil {
		t.Fatal(err)
	}
	names, err := filepath.Glob(filepath.Join(workflows, "*.yml"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, path := range names {
		w, _ := load(t, filepath.Base(path))
		for id, job := range w.Jobs {
			timeout := 360 * time.Minute
			if job.TimeoutMinutes != nil {
				timeout = time.Duration(*job.TimeoutMinutes * float64(time.Minute))
			}
			for _, s := range job.Steps {
				if !strings.HasPrefix(s.Uses, "pulumi/auth-actions@") {
					continue
				}
				checked++
				expiration := ""
				if v, ok := s.With["token-expiration"]; ok {
					expiration = fmt.Sprint(v)
				}
				life, err := m.Access.GrantedLifetime(expiration)
				if err != nil {
					t.Errorf("%s: job %s: %v", filepath.Base(path), id, err)
					continue
				}
				if life < timeout {
					t.Errorf("%s: job %s may run %s, and its Pulumi Cloud token lasts %s: set token-expiration to at least %d (and the issuer's maxExpiration, esc/pulumi/access.yaml), or lower timeout-minutes",
						filepath.Base(path), id, timeout, life, int(timeout.Seconds()))
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no job logs in to Pulumi Cloud")
	}
}

// Production applies exactly the plans its reviewers approved: every up
// of saved plans gets the digest the plan job reported (a job output,
// which GitHub keeps apart from the artifact), and checks it before any
// step that runs Pulumi; the digest tells one byte apart.
func TestAppliedPlansAreTheSavedOnes(t *testing.T) {
	up, _ := load(t, "up.yml")
	calls := 0
	for id, job := range up.Jobs {
		if job.Uses != "./.github/workflows/up-stack.yml" || job.With["plan"] != true {
			continue
		}
		calls++
		needs, _ := job.Needs.([]any)
		digest, _ := job.With["plans-digest"].(string)
		m := regexp.MustCompile(`^\$\{\{ needs\.([a-z-]+)\.outputs\.plans-digest \}\}$`).FindStringSubmatch(digest)
		if m == nil || !slices.Contains(needs, any(m[1])) || up.Jobs[m[1]].Uses != "./.github/workflows/plan-stack.yml" {
			t.Errorf("up.yml: job %s applies saved plans with plans-digest %q; want the output of the plan-stack.yml job it needs", id, digest)
		}
	}
	if calls == 0 {
		t.Fatal("up.yml applies no saved plans")
	}
	w, _ := load(t, "up-stack.yml")
	check, first := -1, -1
	for i, s := range w.Jobs["up"].Steps {
		if strings.Contains(s.Run, "scripts/plans-digest.sh plans") && s.If == "inputs.plan" && check < 0 {
			check = i
		}
		if (strings.Contains(s.Run, "platformctl preflight") || strings.Contains(s.Run, "platformctl up")) && first < 0 {
			first = i
		}
	}
	if check < 0 || check > first {
		t.Errorf("up-stack.yml: the plans' digest is checked at step %d, the first step that reads or applies them is %d", check, first)
	}

	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	digest := func() string {
		out, err := exec.Command("../scripts/plans-digest.sh", dir).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	write("production.json", `{"a":1}`)
	write("production.payments.json", `{"b":2}`)
	saved := digest()
	write("production.payments.json", `{"b":3}`)
	if digest() == saved {
		t.Error("plans-digest.sh: a changed plan has the saved digest")
	}
	write("production.payments.json", `{"b":2}`)
	if digest() != saved || len(saved) != 64 {
		t.Errorf("plans-digest.sh: the same plans give %s, then %s", saved, digest())
	}
	write("extra.json", `{}`)
	if digest() == saved {
		t.Error("plans-digest.sh: an added plan keeps the saved digest")
	}
}

// checkGate evaluates a chain job's if: (with the runner's evaluator,
// as GitHub does) after its need ends each way it can: it runs after a
// need that succeeded, or one skipped because another path delivers its
// environment; never after one that failed, or was cancelled while
// queued in its concurrency group. That cancellation is the job's, not
// the run's, so cancelled() is false there ("Returns true if the
// workflow was canceled", docs.github.com, Status check functions):
// `!failure() && !cancelled()` would promote a commit the environment
// before never applied.
func checkGate(t *testing.T, job, cond, need string, needStack any) {
	t.Helper()
	for _, tc := range []struct {
		result, path string
		want         bool
	}{
		{"success", "github-actions", true},
		{"failure", "github-actions", false},
		{"cancelled", "github-actions", false},
		{"skipped", "operator", needStack != nil && job != "production"},
		{"skipped", "github-actions", false},
	} {
		outputs := map[string]any{}
		for _, env := range []string{"dev", "staging", "production"} {
			outputs[env] = "github-actions"
		}
		if s, ok := needStack.(string); ok {
			outputs[s] = tc.path
		}
		needs := map[string]any{
			"paths": map[string]any{"result": "success", "outputs": outputs},
			need:    map[string]any{"result": tc.result, "outputs": map[string]any{"first-step": "false"}},
		}
		scope := &ghrunner.Scope{Contexts: map[string]any{"needs": needs}, Status: ghrunner.Status{
			Success:   func() bool { return tc.result == "success" },
			Failure:   func() bool { return tc.result == "failure" },
			Cancelled: func() bool { return false },
		}}
		got, err := scope.Condition(cond)
		if err != nil {
			t.Errorf("up: %s's if: %v", job, err)
			continue
		}
		if got != tc.want {
			t.Errorf("up: %s runs (%v) after %s ended %s with its environment delivered by %s; want %v (if: %s)", job, got, need, tc.result, tc.path, tc.want, cond)
		}
	}
}
