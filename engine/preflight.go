package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"

	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/offline"
	"github.com/company/harness-platform/preflight"
	"github.com/company/harness-platform/program"
	"github.com/company/harness-platform/trust"
)

// Preflight checks every credential and endpoint the stacks of env (an
// environment, or the environment of one stack) use, before a real
// preview, up or refresh: the backend and the stacks' locks, then
// preflight.Run's checks (the Harness key, the GitHub credential on every
// owner, the AWS roles, each deployed cluster's API). Offline the
// simulated services answer, as they answer the operation's calls. It
// returns every problem at once; none means the operation may run.
func (s *Session) Preflight(ctx context.Context, env string) ([]preflight.Problem, error) {
	return s.PreflightWith(ctx, env, PreflightOptions{})
}

// PreflightOptions say more of the run preflight checks for.
type PreflightOptions struct {
	// Drift: the run is the drift check (a refresh), which reads every
	// Harness and GitHub object of the stacks: preflight checks that
	// those reads fit the API budgets (with GitHub's remaining budget)
	// within MaxRunTime (default preflight.DefaultMaxRunTime).
	Drift bool
	// PlanDir: the run is the up applying the update plans a preview
	// saved there (<stack>.plan.json, PreviewOptions.PlanDir): preflight
	// checks that the calls of their steps, and the program's lookups,
	// fit the same budgets.
	PlanDir    string
	MaxRunTime time.Duration
}

// PreflightWith is Preflight for the run o describes.
func (s *Session) PreflightWith(ctx context.Context, env string, o PreflightOptions) ([]preflight.Problem, error) {
	st, _, err := s.Catalog.EnvironmentOf(env)
	if err != nil {
		return nil, err
	}
	var problems []preflight.Problem
	existing, err := s.existingStacks(ctx)
	if err != nil {
		// Nothing else can be read without the backend.
		return []preflight.Problem{{Check: "the Pulumi backend", Err: err,
			Fix: "log in to the backend (Pulumi Cloud: PULUMI_ACCESS_TOKEN from pulumi/auth-actions' OIDC exchange; a DIY backend: PULUMI_BACKEND_URL and its cloud credentials)"}}, nil
	}
	for _, name := range s.Catalog.StacksOf(st.Name) {
		if lock := s.lockOf(name); lock != "" {
			problems = append(problems, preflight.Problem{Check: "the lock of stack " + name, Err: fmt.Errorf("held by %s", lock),
				Fix: "wait for that run to end; if it was killed, `platformctl recover --stack " + name + s.mode() + " --unlock --yes`"})
		}
	}
	kubeconfigs := map[string]string{}
	if _, ok := existing[st.Name]; ok {
		outs, err := s.Outputs(ctx, st.Name)
		if err != nil {
			return nil, err
		}
		if k, ok := outs[program.OutKubeconfigs].Value.(map[string]any); ok {
			for region, v := range k {
				if v, ok := v.(string); ok {
					kubeconfigs[region] = v
				}
			}
		}
	}
	req, err := preflight.Require(s.Catalog, s.account(), st.Name, kubeconfigs)
	if err != nil {
		return nil, err
	}
	req.ReadOnly = s.opts.ReadOnly
	req.MaxRunTime = o.MaxRunTime
	if o.Drift {
		for _, name := range s.Catalog.StacksOf(st.Name) {
			if _, ok := existing[name]; !ok {
				continue
			}
			resources, err := s.stateOf(ctx, name)
			if err != nil {
				return nil, err
			}
			for _, r := range resources {
				req.Calls.Add(apibudget.Of(string(r.Type), apibudget.Read))
			}
		}
	}
	if o.PlanDir != "" {
		for _, name := range s.Catalog.StacksOf(st.Name) {
			calls, err := planCalls(planFile(o.PlanDir, name))
			if err != nil {
				return nil, err
			}
			req.Calls.Add(calls)
		}
		req.Calls.Add(req.Lookups)
	}
	if err := s.requireEnvironments(ctx, st.Name, &req); err != nil {
		return nil, err
	}
	return append(problems, preflight.Run(ctx, s.services(st.Name), req)...), nil
}

// services answer preflight's questions for a run of environment env:
// the real services, or offline the stand-in cloud.
func (s *Session) services(env string) preflight.Services {
	if s.cloud == nil {
		// The environments are in the organisation esc/pulumi/access.yaml
		// names, not one this program assumes.
		live := preflight.Live{}
		if m, err := trust.Default(); err == nil {
			live.Organization = m.Access.Organization
		}
		return live
	}
	if s.cloud.Team() == "" {
		// Offline, the run has the token its kind of run gets.
		return asTeam{s.cloud, trust.RunTeam(s.opts.ReadOnly, env)}
	}
	return s.cloud
}

// account is the Harness account the provider is configured with.
func (s *Session) account() string {
	if s.cloud != nil {
		return s.cloud.Account()
	}
	return os.Getenv("HARNESS_ACCOUNT_ID")
}

// lockOf describes the lock a DIY backend holds on stack ("" if none,
// or for a backend that is not a directory: Pulumi Cloud refuses a
// concurrent update itself).
func (s *Session) lockOf(stack string) string {
	dir := s.fileBackend()
	if dir == "" {
		return ""
	}
	files, _ := filepath.Glob(filepath.Join(dir, ".pulumi", "locks", "organization", s.project, stack, "*.json"))
	sort.Strings(files)
	var holders []string
	for _, f := range files {
		var l struct {
			Pid       int    `json:"pid"`
			Username  string `json:"username"`
			Hostname  string `json:"hostname"`
			Timestamp string `json:"timestamp"`
		}
		data, err := os.ReadFile(f)
		if err != nil || json.Unmarshal(data, &l) != nil {
			holders = append(holders, filepath.Base(f))
			continue
		}
		holders = append(holders, fmt.Sprintf("%s@%s (pid %d) since %s", l.Username, l.Hostname, l.Pid, l.Timestamp))
	}
	return strings.Join(holders, ", ")
}

// planCalls are the calls an up applying the update plan in file makes
// (apibudget.Of of each resource's planned steps, a replacement once); no
// file, none: the up of a stack without a plan is refused.
func planCalls(file string) (apibudget.Calls, error) {
	var calls apibudget.Calls
	data, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return calls, nil
	}
	if err != nil {
		return calls, err
	}
	var p apitype.DeploymentPlanV1
	if err := json.Unmarshal(data, &p); err != nil {
		return calls, fmt.Errorf("%s: %w", file, err)
	}
	for urn, rp := range p.ResourcePlans {
		for _, step := range rp.Steps {
			if op, ok := apibudget.OpOf(string(step)); ok {
				calls.Add(apibudget.Of(string(urn.Type()), op))
			}
		}
	}
	return calls, nil
}

// requireEnvironments names the ESC environments env's stacks open (its
// stack file's imports, their -preview ones for a read-only run), those a
// read-only run's token must not open (package trust: every one holding
// a writing credential). How long their logins last, preflight reads
// from Pulumi Cloud.
func (s *Session) requireEnvironments(ctx context.Context, env string, req *preflight.Requirements) error {
	m, err := trust.Default()
	if err != nil {
		return err
	}
	for _, imp := range s.Catalog.Stacks[env].Imports {
		if s.opts.ReadOnly {
			imp = PreviewEnvironment(imp)
		}
		req.Opens = append(req.Opens, imp)
	}
	if s.opts.ReadOnly {
		if req.MustNotOpen, err = m.Writing(ctx); err != nil {
			return err
		}
	}
	return nil
}

// asTeam answers preflight's ESC opens as a token of team.
type asTeam struct {
	offline.Cloud
	team string
}

func (a asTeam) OpenEnvironment(ctx context.Context, env string) error {
	return a.Cloud.OpenEnvironmentAs(ctx, a.team, env)
}

func (a asTeam) EnvironmentDefinition(ctx context.Context, env string) ([]byte, error) {
	return a.Cloud.EnvironmentDefinitionAs(ctx, a.team, env)
}
