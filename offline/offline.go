// Package offline is the seam between the engine and a stand-in for the
// services a run calls: what an offline session needs of it, and nothing
// of how it stands in.
//
// The engine's core knows only these interfaces; it never links the
// simulation. Package simulated implements them (simulated.Simulation),
// and the command line composes the two: engine.Options{Offline: true,
// Simulation: simulated.Simulation{...}}. Online sessions run the stock
// LocalWorkspace against the real services and need none of this.
package offline

import (
	"context"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/preflight"
)

// Simulation starts the stand-in cloud of offline sessions.
type Simulation interface {
	// Start serves the providers from stateDir (the cloud's files under
	// stateDir/cloud), with the provider facts of sharedDir, for the
	// stacks of c. Stop the Cloud.
	Start(stateDir, sharedDir string, c *catalog.Catalog) (Cloud, error)
	// PluginVersion is the version at which the program pins provider
	// name ("harness", "kubernetes", "aws", "github"): a real plugin
	// swapped in for the stand-in is installed at it.
	PluginVersion(name string) (string, bool)
	// ServeGitHubAPI serves GitHub's REST API as the stand-in holds it,
	// on loopback, for a real GitHub plugin to read: its base URL, and
	// how to stop it.
	ServeGitHubAPI() (url string, stop func(), err error)
}

// Cloud is a started stand-in: the providers the CLI talks to, and what
// preflight asks the services.
type Cloud interface {
	preflight.Services
	// Account is the Harness account the stand-in holds.
	Account() string
	// DebugProviders is the CLI's PULUMI_DEBUG_PROVIDERS: every stand-in
	// provider's address but the named real ones.
	DebugProviders(real ...string) string
	// ID is the id the provider gives a new object with these inputs
	// (false: it cannot tell).
	ID(typ, name string, inputs resource.PropertyMap) (string, bool)
	// Calls are the calls the stand-in Harness and GitHub answered, in
	// all and by the URN of the object they were for; Waited, the time
	// their budgets made the providers wait; ResetCalls starts afresh.
	Calls() (apibudget.Calls, map[string]apibudget.Calls)
	Waited() (github, harness time.Duration)
	ResetCalls()
	// Team is the Pulumi Cloud team whose token the run holds ("": one
	// every environment opens for); OpenEnvironmentAs opens env as team,
	// EnvironmentDefinitionAs reads its definition as team.
	Team() string
	OpenEnvironmentAs(ctx context.Context, team, env string) error
	EnvironmentDefinitionAs(ctx context.Context, team, env string) ([]byte, error)
	// Flush writes the cloud's files; Stop stops serving and flushes.
	Flush() error
	Stop()
}
