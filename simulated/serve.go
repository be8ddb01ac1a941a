package simulated

import (
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"

	"github.com/company/harness-platform/harness/provider"
)

// Versions of the real providers each simulation stands in for.
var Versions = map[string]string{
	"harness":    "0.16.0",
	"kubernetes": "4.33.0",
	"aws":        "6.83.2",
	"github":     "6.14.1",
}

// Servers are the simulated providers, each on its own loopback port.
type Servers struct {
	servers   []*grpc.Server
	ports     map[string]int
	clouds    map[string]*Cloud
	behaviors map[string]Behavior
	hooks     *hooks
	// reach is who calls the services, and from where (SetReach).
	reach atomic.Pointer[Reach]
	// meters count (and, SetBudgets, limit) the Harness and GitHub calls.
	meters map[string]*meters
}

// hooks let tests act at a precise point of an operation.
type hooks struct {
	mu     sync.Mutex
	create func(provider, id string)
}

func (h *hooks) afterCreate(provider, id string) {
	h.mu.Lock()
	f := h.create
	h.mu.Unlock()
	if f != nil {
		f(provider, id)
	}
}

// AfterCreate calls f once each object is stored, before the engine hears
// of it (tests: interrupt an up at a known point).
func (s *Servers) AfterCreate(f func(provider, id string)) {
	s.hooks.mu.Lock()
	s.hooks.create = f
	s.hooks.mu.Unlock()
}

// ID is the id the simulated provider of typ gives a new object with these
// inputs, and whether a simulated provider serves typ.
func (s *Servers) ID(typ, name string, inputs resource.PropertyMap) (string, bool) {
	b, ok := s.behaviors[strings.SplitN(typ, ":", 2)[0]]
	if !ok {
		return "", false
	}
	key := b.ID(typ, name, inputs)
	if a, ok := b.(addressed); ok {
		return a.ResourceID(typ, key, inputs), true
	}
	return key, true
}

// Start serves every simulated provider, with its cloud under
// <stateDir>/cloud/. The Harness simulation needs the provider's facts and
// constraints, from shared (../shared beside the project).
func Start(stateDir, shared string) (*Servers, error) {
	facts, constraints, err := provider.LoadFrom(shared)
	if err != nil {
		return nil, fmt.Errorf("the simulated Harness provider checks inputs against the provider's facts and constraints: %w", err)
	}
	s := &Servers{ports: map[string]int{}, clouds: map[string]*Cloud{}, behaviors: map[string]Behavior{}, hooks: &hooks{},
		meters: map[string]*meters{"harness": {}, "github": {}}}
	s.SetBudgets(Budgets{}) // count only
	names := []string{"harness", "kubernetes", "aws", "github"}
	for _, name := range names {
		cloud, err := OpenCloud(filepath.Join(stateDir, "cloud"), name)
		if err != nil {
			return nil, err
		}
		s.clouds[name] = cloud
	}
	for _, name := range names {
		cloud := s.clouds[name]
		var behavior Behavior = infra{provider: name}
		if name == "harness" {
			behavior = harness{facts: facts, constraints: constraints}
		}
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			s.Stop()
			return nil, err
		}
		srv := grpc.NewServer(grpc.MaxRecvMsgSize(256 << 20))
		p := &Provider{name: name, version: Versions[name], cloud: cloud, behavior: behavior, hooks: s.hooks, reach: &s.reach, meters: s.meters[name]}
		if name == "kubernetes" {
			// A cluster's API answers by the endpoint access the
			// simulated AWS gave the cluster.
			p.aws = s.clouds["aws"]
		}
		pulumirpc.RegisterResourceProviderServer(srv, p)
		s.behaviors[name] = behavior
		go func() { _ = srv.Serve(lis) }()
		s.servers = append(s.servers, srv)
		s.ports[name] = lis.Addr().(*net.TCPAddr).Port
	}
	return s, nil
}

// DebugProviders is the value of PULUMI_DEBUG_PROVIDERS that attaches the
// engine to these servers instead of plugin binaries, but for the
// providers in real: those the engine loads as plugins (their real
// binaries, installed in PULUMI_HOME).
func (s *Servers) DebugProviders(real ...string) string {
	var parts []string
	for _, name := range []string{"harness", "kubernetes", "aws", "github"} {
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
