package engine

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/offline"
)

// installPlugins installs opts.Plugins in the offline PULUMI_HOME, each at
// the version the program pins, and returns their names: the engine then
// loads them as it would downloaded plugins.
func (s *Session) installPlugins(ctx context.Context, env map[string]string) ([]string, error) {
	var names, extra []string
	for k, v := range env {
		extra = append(extra, k+"="+v)
	}
	for name, path := range s.opts.Plugins {
		version, ok := s.opts.Simulation.PluginVersion(name)
		if !ok {
			return nil, fmt.Errorf("plugin %s: no such provider (one of harness, kubernetes, aws, github)", name)
		}
		path, err := filepath.Abs(path)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("plugin %s: %w (the pulumi-resource-%s binary of v%s)", name, err, name, version)
		}
		_, stderr, _, err := s.cli.Run(ctx, s.opts.StateDir, nil, nil, nil, extra,
			"plugin", "install", "resource", name, "v"+version, "--file", path, "--reinstall")
		if err != nil {
			return nil, fmt.Errorf("installing the %s plugin from %s: %w: %s", name, path, err, strings.TrimSpace(stderr))
		}
		names = append(names, name)
	}
	sort.Strings(names)
	return names, nil
}

// PluginReport is what the real plugins said of one stack's preview.
type PluginReport struct {
	Stack string
	// Fresh: the stack's first preview (nothing deployed: every object a
	// create, through the provider's Check); else a preview of the stack
	// as the simulation deployed it (the real provider's Diff of what
	// the simulation stored).
	Fresh bool
	// Objects is how many of the plugins' objects (providers included)
	// the preview stepped through.
	Objects int
	// Errors and Warnings are the diagnostics on the plugins' objects;
	// Changes, their steps other than same (on a fresh state, creates
	// are expected and not counted).
	Errors, Warnings []string
	Changes          map[apitype.OpType]int
	// Diffs name each change's object and the properties that differ.
	Diffs []string
	// Other are errors not on a plugin's object (the run's own failure).
	Other []string
}

// CheckPlugins previews every stack of the chain with the named providers
// served by their real plugins (Options.Plugins) and the others simulated,
// on a new offline state (opts.StateDir, which must not exist): each
// stack first on a fresh state, then deployed by the simulation, so the
// next stacks find their upstream; then every stack again as deployed.
//
// charts, when set, is a Helm repository directory (index.yaml and the
// chart archives) served on loopback as every delegate's chart
// repository: the real Kubernetes plugin's Helm release reads its chart
// in Check, which offline cannot reach Harness's repository.
func CheckPlugins(ctx context.Context, opts Options, parallel int, charts string) ([]PluginReport, error) {
	o := runOptions{Parallel: parallel}
	if len(opts.Plugins) == 0 {
		return nil, fmt.Errorf("no plugins to check")
	}
	if _, err := os.Stat(opts.StateDir); err == nil {
		return nil, fmt.Errorf("%s exists: the check starts from an empty state; name a new directory", opts.StateDir)
	}
	opts.Offline = true
	if opts.Catalog == nil {
		c, err := catalog.Load(opts.ProjectDir)
		if err != nil {
			return nil, err
		}
		opts.Catalog = c
	}
	if _, ok := opts.Plugins["github"]; ok {
		// The real GitHub provider reads GitHub in a preview (the owner,
		// getTeam, state upgrades): it reads the simulated GitHub on
		// loopback instead. The base URL is an input of the program's
		// GitHub providers, which the SDK takes from GITHUB_BASE_URL in
		// the program's process: this one, as the program runs inline.
		url, stop, err := opts.Simulation.ServeGitHubAPI()
		if err != nil {
			return nil, err
		}
		defer stop()
		defer os.Setenv("GITHUB_BASE_URL", os.Getenv("GITHUB_BASE_URL"))
		os.Setenv("GITHUB_BASE_URL", url)
	}
	if charts != "" {
		if err := os.MkdirAll(opts.StateDir, 0o700); err != nil {
			return nil, err
		}
		repo, err := offline.ServeCharts(charts, opts.StateDir)
		if err != nil {
			return nil, err
		}
		defer repo.Close()
		if opts.Catalog, err = offline.WithChartRepository(opts.Catalog, repo.URL()); err != nil {
			return nil, err
		}
		env := map[string]string{"SSL_CERT_FILE": repo.CertFile()}
		for k, v := range opts.Env {
			env[k] = v
		}
		opts.Env = env
	}
	simOpts := opts
	simOpts.Plugins = nil
	var reports []PluginReport
	preview := func(stack string, fresh bool) error {
		s, err := Open(ctx, opts)
		if err != nil {
			return err
		}
		defer s.Close()
		var log bytes.Buffer
		po := o
		po.EventLog = &log
		po.PolicyPacks, po.PolicyPackConfigs = nil, nil
		_, runErr := s.previewStack(ctx, stack, po)
		phase := "deployed"
		if fresh {
			phase = "fresh"
		}
		// Kept for the detail behind each figure (--diff's, as JSON).
		if err := os.WriteFile(filepath.Join(opts.StateDir, "events", stack+"."+phase+".jsonl"), log.Bytes(), 0o600); err != nil {
			return err
		}
		r, err := readPluginEvents(&log, stack, fresh, opts.Plugins)
		if err != nil {
			return err
		}
		if runErr != nil && len(r.Errors)+len(r.Other) == 0 {
			r.Other = append(r.Other, runErr.Error())
		}
		reports = append(reports, r)
		return nil
	}
	if err := os.MkdirAll(filepath.Join(opts.StateDir, "events"), 0o700); err != nil {
		return nil, err
	}
	for _, env := range opts.Catalog.Chain {
		waves, err := Waves(opts.Catalog, env)
		if err != nil {
			return reports, err
		}
		for _, wave := range WithCredentials(waves, env) {
			for _, stack := range wave {
				if err := preview(stack, true); err != nil {
					return reports, err
				}
				s, err := Open(ctx, simOpts)
				if err != nil {
					return reports, err
				}
				_, err = s.upStack(ctx, stack, o)
				s.Close()
				if err != nil {
					return reports, fmt.Errorf("deploying %s with the simulation: %w", stack, err)
				}
			}
		}
	}
	for _, env := range opts.Catalog.Chain {
		for _, stack := range opts.Catalog.StacksOf(env) {
			if err := preview(stack, false); err != nil {
				return reports, err
			}
		}
	}
	return reports, nil
}

// readPluginEvents reads a preview's event log for what happened to the
// plugins' objects.
func readPluginEvents(r io.Reader, stack string, fresh bool, plugins map[string]string) (PluginReport, error) {
	rep := PluginReport{Stack: stack, Fresh: fresh, Changes: map[apitype.OpType]int{}}
	ours := func(urn string) bool {
		parts := strings.Split(urn, "::")
		if len(parts) < 4 {
			return false
		}
		types := strings.Split(parts[2], "$")
		typ := types[len(types)-1]
		pkg := strings.SplitN(strings.TrimPrefix(typ, "pulumi:providers:"), ":", 2)[0]
		_, ok := plugins[pkg]
		return ok
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e apitype.EngineEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return rep, err
		}
		switch {
		case e.ResourcePreEvent != nil:
			m := e.ResourcePreEvent.Metadata
			if !ours(m.URN) {
				continue
			}
			rep.Objects++
			if m.Op != apitype.OpSame && !(fresh && m.Op == apitype.OpCreate) {
				rep.Changes[m.Op]++
				rep.Diffs = append(rep.Diffs, fmt.Sprintf("%s %s: %s", m.Op, m.URN, strings.Join(m.Diffs, ", ")))
			}
		case e.DiagnosticEvent != nil:
			d := e.DiagnosticEvent
			msg := strings.TrimSpace(d.Message)
			switch {
			case d.URN != "" && ours(d.URN):
				if d.Severity == "error" {
					rep.Errors = append(rep.Errors, d.URN+": "+msg)
				} else if d.Severity == "warning" {
					rep.Warnings = append(rep.Warnings, d.URN+": "+msg)
				}
			case d.Severity == "error":
				rep.Other = append(rep.Other, msg)
			}
		}
	}
	return rep, sc.Err()
}
