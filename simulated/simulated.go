package simulated

import (
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"

	"github.com/company/harness-platform/harness/provider"
	"github.com/company/harness-platform/offline"
	"github.com/company/harness-platform/simulated/aws"
	"github.com/company/harness-platform/simulated/core"
	"github.com/company/harness-platform/simulated/github"
	"github.com/company/harness-platform/simulated/harness"
	"github.com/company/harness-platform/simulated/kubernetes"
)

// The shared types, as the engine's tests and the command line name them.
type (
	// Record is one simulated cloud object (core.Record).
	Record = core.Record
	// Cloud is the store of one provider (core.Cloud).
	Cloud = core.Cloud
	// Reach is who calls the simulated services, and from where
	// (core.Reach).
	Reach = core.Reach
	// GitHubAccount is what GitHub allows the token in the organisation
	// (core.GitHubAccount).
	GitHubAccount = core.GitHubAccount
	// Observer is told what the simulated services do (core.Observer).
	Observer = core.Observer
	// CreatedFunc is an Observer of creations only (core.CreatedFunc).
	CreatedFunc = core.CreatedFunc
	// StepFunc is an Observer of every write (core.StepFunc).
	StepFunc = core.StepFunc
	// GitHubAPI is the simulated GitHub's REST API (github.API).
	GitHubAPI = github.API
)

// Account is the identifier of the simulated Harness account.
const Account = harness.Account

// DelegateToken is the value the simulated Harness gives the delegate
// token with this id (tests look for it where it must never be in
// plaintext).
func DelegateToken(id string) string { return harness.DelegateToken(id) }

// StartGitHubAPI serves the simulated GitHub's REST API on 127.0.0.1, for
// a real GitHub plugin to read (github.StartAPI). Close it.
func StartGitHubAPI() (*GitHubAPI, error) { return github.StartAPI() }

// names are the simulated providers, in the order they are served (the
// rooms Start composes).
var names = []string{"harness", "kubernetes", "aws", "github"}

// Versions of the real providers each simulation stands in for.
var Versions = map[string]string{
	"harness":    harness.Version,
	"kubernetes": kubernetes.Version,
	"aws":        aws.Version,
	"github":     github.Version,
}

// Servers are the simulated providers, each on its own loopback port,
// and the answers to preflight's checks (offline.Cloud).
type Servers struct {
	servers   []*grpc.Server
	ports     map[string]int
	clouds    map[string]*core.Cloud
	behaviors map[string]core.Behavior
	// clusters are the simulated AWS's EKS clusters, as the simulated
	// Kubernetes reaches them.
	clusters core.Clusters
	// observers are told what the providers do (Observe).
	observers core.Observers
	// reach is who calls the services, and from where (SetReach).
	reach atomic.Pointer[Reach]
	// harnessCalls and githubCalls count (and, SetBudgets, limit) the
	// Harness and GitHub calls.
	harnessCalls, githubCalls *core.Meters
}

var _ offline.Cloud = (*Servers)(nil)

// Start serves every simulated provider, with its cloud under
// <stateDir>/cloud/. The Harness simulation needs the provider's facts and
// constraints, from shared (../shared beside the project).
func Start(stateDir, shared string) (*Servers, error) {
	facts, constraints, err := provider.LoadFrom(shared)
	if err != nil {
		return nil, fmt.Errorf("the simulated Harness provider checks inputs against the provider's facts and constraints: %w", err)
	}
	s := &Servers{ports: map[string]int{}, clouds: map[string]*core.Cloud{}, behaviors: map[string]core.Behavior{},
		harnessCalls: &core.Meters{}, githubCalls: &core.Meters{}}
	s.SetBudgets(Budgets{}) // count only
	for _, name := range names {
		cloud, err := core.OpenCloud(filepath.Join(stateDir, "cloud"), name)
		if err != nil {
			return nil, err
		}
		s.clouds[name] = cloud
	}
	// A cluster's API answers by the endpoint access the simulated AWS
	// gave the cluster, whose CA is the simulated Kubernetes'.
	s.clusters = aws.Clusters(s.clouds["aws"])
	rooms := []struct {
		name     string
		behavior core.Behavior
		meters   *core.Meters // nil: not budgeted
	}{
		{"harness", harness.New(facts, constraints), s.harnessCalls},
		{"kubernetes", kubernetes.New(s.clusters, s.clouds["kubernetes"]), nil},
		{"aws", aws.New(kubernetes.ClusterCA), nil},
		{"github", github.New(), s.githubCalls},
	}
	for _, room := range rooms {
		name := room.name
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			s.Stop()
			return nil, err
		}
		srv := grpc.NewServer(grpc.MaxRecvMsgSize(256 << 20))
		pulumirpc.RegisterResourceProviderServer(srv, core.NewProvider(core.Config{
			Name: name, Version: Versions[name], Cloud: s.clouds[name], Behavior: room.behavior,
			Reach: &s.reach, Meters: room.meters, Observers: &s.observers,
		}))
		s.behaviors[name] = room.behavior
		go func() { _ = srv.Serve(lis) }()
		s.servers = append(s.servers, srv)
		s.ports[name] = lis.Addr().(*net.TCPAddr).Port
	}
	return s, nil
}

// Observe makes o the Observer of what the simulated providers do from
// now on (nil: none): an observer API for whoever follows a run from
// beside the engine (core.Observer says when it is called).
func (s *Servers) Observe(o Observer) { s.observers.Set(o) }

// ID is the id the simulated provider of typ gives a new object with these
// inputs, and whether a simulated provider serves typ.
func (s *Servers) ID(typ, name string, inputs resource.PropertyMap) (string, bool) {
	b, ok := s.behaviors[strings.SplitN(typ, ":", 2)[0]]
	if !ok {
		return "", false
	}
	key := b.ID(typ, name, inputs)
	if a, ok := b.(core.Addressed); ok {
		return a.ResourceID(typ, key, inputs), true
	}
	return key, true
}

// DebugProviders is the value of PULUMI_DEBUG_PROVIDERS that attaches the
// engine to these servers instead of plugin binaries, but for the
// providers in real: those the engine loads as plugins (their real
// binaries, installed in PULUMI_HOME).
func (s *Servers) DebugProviders(real ...string) string {
	var parts []string
	for _, name := range names {
		if slices.Contains(real, name) {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s:%d", name, s.ports[name]))
	}
	return strings.Join(parts, ",")
}

// Cloud returns the store of one provider.
func (s *Servers) Cloud(provider string) *Cloud { return s.clouds[provider] }

// Flush writes every provider's pending changes.
func (s *Servers) Flush() error {
	var errs []error
	for _, c := range s.clouds {
		errs = append(errs, c.Flush())
	}
	return errors.Join(errs...)
}

// Stop ends the servers and writes what is pending.
func (s *Servers) Stop() {
	for _, srv := range s.servers {
		srv.Stop()
	}
	_ = s.Flush()
}

// SetReach sets who calls the simulated services, and from where.
func (s *Servers) SetReach(r Reach) { s.reach.Store(&r) }

// Reach is who calls the simulated services (SetReach).
func (s *Servers) Reach() Reach { return core.LoadReach(&s.reach) }
