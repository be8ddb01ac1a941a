// Package program is the Pulumi program. For the current stack it builds
// the plan (package plan), reads the upstream's and its own last output
// contract once, runs the guards, and only then declares the plan: a
// refused update registers nothing and changes nothing. main.go and the
// Automation API (package engine) run the same function.
package program

import (
	"errors"
	"fmt"
	"maps"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/components"
	"github.com/company/harness-platform/ident"
	"github.com/company/harness-platform/plan"
)

// New returns the program of the project's files. Each run resolves them
// with the stack's Pulumi config (catalog.Resolver: runs whose config the
// stack files already say share one resolution), and invalid input, in a
// file or in config, stops it before anything is registered. The
// stack is an environment's platform stack (dev) or one of its service
// stacks (dev.payments), whose settings are the environment's.
func New(files catalog.Files, opts ...Option) pulumi.RunFunc {
	cfg := options{outputs: readDirectly}
	for _, opt := range opts {
		opt(&cfg)
	}
	resolver := catalog.NewResolver(files)
	return func(ctx *pulumi.Context) error {
		c, err := resolver.Resolve(&catalog.Config{Stack: ctx.Stack(), Values: settings(ctx)})
		if err != nil {
			return err
		}
		env, shard := catalog.SplitStack(ctx.Stack())
		st, err := c.Stack(env)
		if err != nil {
			return err
		}
		// One delivery path per environment's stacks: an update from
		// another refuses before it reads or declares anything.
		if !ctx.DryRun() {
			if err := st.CheckDelivery(cfg.delivery); err != nil {
				return err
			}
		}
		if shard == catalog.CredentialsShard {
			done := make(chan error, 1)
			go declareCredentials(ctx, c, env, done)
			return <-done
		}
		p, err := plan.Build(c, ctx.Stack())
		if err != nil {
			return err
		}
		if p.IsPlatform() {
			// What validation warns of in the stack's own file (a version
			// leaving support), on every preview and up of it.
			for _, w := range c.Warnings {
				if w.File == c.Stacks[p.Platform].File {
					if err := warn(ctx, w.String()); err != nil {
						return err
					}
				}
			}
		}
		var o plan.Observed
		// from is the contract this stack re-exports and refers to: the
		// upstream platform stack's (a platform stack) or its own
		// environment's platform stack's (a service stack).
		var from, previous *contract
		if p.IsPlatform() && p.Upstream != "" {
			if from, err = readUpstream(ctx, p.Upstream); err != nil {
				return err
			}
			o.Upstream = from.deployed()
		}
		if !p.IsPlatform() {
			if from, err = readPlatform(ctx, c, p); err != nil {
				return err
			}
			if st := c.Stacks[p.Platform]; st.Upstream != "" {
				if o.Upstream, err = readEnvironment(ctx, c, st.Upstream, p.Upstream, cfg.outputs); err != nil {
					return err
				}
			}
			// Every service stack reads its own last contract: services
			// leaving it may be moves (and in Production, retirements).
			if previous, err = readPrevious(ctx); err != nil {
				return err
			}
			o.Previous = previous.deployed()
			if len(plan.Arrived(p, o.Previous)) > 0 || len(previous.services()) > len(p.Deployments) {
				if o.Siblings, err = readSiblings(ctx, c, p, cfg.outputs); err != nil {
					return err
				}
			}
			if p.Platform == c.Chain[0] && len(plan.RemovedFromCatalog(c, o.Previous)) > 0 {
				if o.Downstream, err = readDownstream(ctx, c, cfg.outputs); err != nil {
					return err
				}
			}
		}
		// A platform stack's templates: the plan's, some saved non-stable
		// while the pipelines move to them, and older versions a service
		// stack's pipelines still use (plan.TemplateVersions).
		templates := p.Templates
		if p.IsPlatform() {
			if previous, err = readPrevious(ctx); err != nil {
				return err
			}
			if previous != nil {
				o.KubernetesVersions = previous.KubernetesVersions
			}
			if templates, err = templateVersions(ctx, c, p, previous, cfg.outputs); err != nil {
				return err
			}
		} else if from != nil {
			// Pipelines whose template is in flight pin its new version.
			if err := plan.PinTemplates(p, from.Templates); err != nil {
				return err
			}
		}
		strict := !ctx.DryRun() || cfg.strict != nil && cfg.strict(ctx.Stack())
		err = enforce(ctx, plan.Guard(c, p, o), strict)
		if cfg.guarded != nil {
			cfg.guarded(ctx.Stack(), err)
		}
		if err != nil {
			return err
		}
		// Declared from a goroutine of its own, with declare as its first
		// frame: the SDK records a stack trace per registration, and a
		// short stack (declare, components, bindings) is as informative
		// and several times cheaper to walk than one that also holds the
		// caller's frames.
		done := make(chan error, 1)
		if p.IsPlatform() {
			ctx.Export(OutServiceStacks, pulumi.ToStringArray(c.StacksOf(p.Platform)[1:]))
			go declarePlatform(ctx, p, templates, from, done)
		} else {
			kept := previous.repositoryIDs()
			if cfg.rereadRepositories {
				kept = nil
			}
			go declareServices(ctx, p, from, kept, done)
		}
		return <-done
	}
}

// settings are the stack's settings as Pulumi config gives them: the stack
// file's, `pulumi config set` and `-c` values, and those of the ESC
// environments the stack file imports.
func settings(ctx *pulumi.Context) map[string]string {
	out := map[string]string{}
	for _, key := range catalog.SettingKeys() {
		if v, ok := ctx.GetConfig(key); ok {
			out[key] = v
		}
	}
	return out
}

// warn shows a warning in the engine's output (tests: recorded).
var warn = func(ctx *pulumi.Context, msg string) error { return ctx.Log.Warn(msg, nil) }

// Option configures New.
type Option func(*options)

type options struct {
	delivery string
	strict   func(stack string) bool
	guarded  func(stack string, err error)
	outputs  OutputsReader
	// rereadRepositories looks up every repository id again.
	rereadRepositories bool
}

// An OutputsReader reads the outputs of another service stack of the
// program: read reads them from the backend (nil for a stack never
// deployed); the reader may answer instead, with what it knows to be the
// stack's current outputs.
type OutputsReader func(stack string, read func() (map[string]any, error)) (map[string]any, error)

// readDirectly is the OutputsReader without ReadOutputs: from the backend.
func readDirectly(_ string, read func() (map[string]any, error)) (map[string]any, error) {
	return read()
}

// ReadOutputs routes the program's reads of other service stacks' outputs
// (its environment's, for moves; its upstream environment's, for
// promotion; the downstream environments', for retirement) through r. A
// DIY backend loads a stack's whole checkpoint to read its outputs, so an
// environment's up of n service stacks that each read the others would
// load n²/2 checkpoints; the engine answers from what it read or deployed
// in the same session.
func ReadOutputs(r OutputsReader) Option {
	return func(o *options) { o.outputs = r }
}

// RereadRepositoriesEnv, when set, makes a run look up every repository
// id again (RereadRepositories).
const RereadRepositoriesEnv = "HARNESS_PLATFORM_REREAD_REPOSITORIES"

// RereadRepositories makes a service stack's run look up every
// repository's id again, instead of the ids its last update kept: after
// the drift check reports a webhook variable's selected repositories
// changed (a repository deleted and created again under its name).
func RereadRepositories(reread bool) Option {
	return func(o *options) { o.rereadRepositories = reread }
}

// Delivery names the delivery path the run is (catalog.DeliveryEnv; ""
// for none): an update of a stack another path delivers is refused
// (catalog.Stack.CheckDelivery).
func Delivery(path string) Option {
	return func(o *options) { o.delivery = path }
}

// Guarded reports, for every run, the guards' verdict on the stack (nil:
// it may proceed) before anything is registered.
func Guarded(report func(stack string, err error)) Option {
	return func(o *options) { o.guarded = report }
}

// StrictPreview makes the guards refuse a preview of the stacks for which
// strict is true as they refuse an update. The engine previews every stack
// of an environment so before updating any, so that an update refused in
// one stack changes none.
func StrictPreview(strict func(stack string) bool) Option {
	return func(o *options) { o.strict = strict }
}

// enforce refuses the run on a blocking violation, or on any violation
// when strict (an update); otherwise the others are warnings.
func enforce(ctx *pulumi.Context, violations []plan.Violation, strict bool) error {
	var errs []error
	for _, v := range violations {
		if v.Blocking || strict {
			errs = append(errs, errors.New(v.String()))
			continue
		}
		if err := warn(ctx, v.String()); err != nil {
			return err
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("nothing was changed: %w", errors.Join(errs...))
	}
	return nil
}

// accountID is the Harness account the provider works in, from where the
// provider reads it: harness:accountId config, else HARNESS_ACCOUNT_ID.
func accountID(ctx *pulumi.Context) string {
	if id := config.Get(ctx, "harness:accountId"); id != "" {
		return id
	}
	return os.Getenv("HARNESS_ACCOUNT_ID")
}

// declarePlatform registers a platform stack's plan and exports the
// contract; it sends its outcome to done.
func declarePlatform(ctx *pulumi.Context, p *plan.Plan, templates []plan.StageTemplate, upstream *contract, done chan<- error) (err error) {
	defer func() { done <- err }()
	resources := components.Resources{}
	account := accountID(ctx)
	if account == "" && (p.Foundation != nil || len(p.Clusters) > 0) {
		return errors.New("nothing was changed: resource groups and delegates name the Harness account; set HARNESS_ACCOUNT_ID or `pulumi config set harness:accountId ID`, as for the provider")
	}
	// Secrets are read before the first registration, so that a missing
	// one stops the update before it changes anything.
	var kubeconfigs pulumi.StringOutput
	for _, c := range p.Clusters {
		if c.Existing != nil {
			kubeconfigs = config.RequireSecret(ctx, c.Existing.ConfigKey)
			break
		}
	}
	if p.Foundation != nil {
		args := &components.FoundationArgs{Plan: p.Foundation, Scope: p.Scope, AccountID: account}
		f, err := components.NewFoundation(ctx, "foundation", args)
		if err != nil {
			return err
		}
		maps.Copy(resources, f.Resources)
	}
	clusters, err := declareClusters(ctx, p, account, kubeconfigs, resources)
	if err != nil {
		return err
	}
	env, err := components.NewEnvironmentSlice(ctx, p.Environment.Identifier, &components.EnvironmentSliceArgs{
		Scope:        p.Scope,
		Environment:  p.Environment,
		Clusters:     p.Clusters,
		Selectors:    clusters.selectors,
		Prometheus:   p.Prometheus,
		ChangeWindow: p.ChangeWindow,
		Templates:    templates,
		Needs:        resources,
	})
	if err != nil {
		return err
	}
	maps.Copy(resources, env.Resources)
	if p.GitHub.Repository != nil {
		if _, err := components.NewGitHub(ctx, "github", &components.GitHubArgs{Plan: p.GitHub, AccountID: account}); err != nil {
			return err
		}
	}
	export(ctx, p, upstream, pulumi.StringMap{}, templates)
	ctx.Export(OutKubeconfigs, pulumi.ToSecret(clusters.kubeconfigs))
	tokens := pulumi.StringMap{}
	for _, cl := range p.Clusters {
		tokens[cl.Delegate.Name] = pulumi.String(cl.Delegate.Token)
	}
	ctx.Export(OutDelegateTokens, tokens)
	versions := pulumi.StringMap{}
	for _, cl := range p.Clusters {
		if cl.EKS != nil {
			versions[cl.Region] = pulumi.String(cl.EKS.KubernetesVersion)
		}
	}
	if len(versions) > 0 {
		ctx.Export(OutKubernetesVersions, versions)
	}
	return nil
}

// declareServices registers a service stack's plan and exports its
// contract; platform is its environment's platform stack's contract,
// repositoryIDs the repository ids the stack kept. It sends its outcome
// to done.
func declareServices(ctx *pulumi.Context, p *plan.Plan, platform *contract, repositoryIDs map[string]int, done chan<- error) (err error) {
	defer func() { done <- err }()
	resources := components.Resources{}
	account := accountID(ctx)
	// The webhook API key is optional: only accounts that require
	// authorised webhooks set it.
	var webhookAPIKey pulumi.StringInput
	if _, ok := ctx.GetConfig(p.GitHub.WebhookAPIKeyConfig); ok {
		webhookAPIKey = config.RequireSecret(ctx, p.GitHub.WebhookAPIKeyConfig)
	}
	if err := components.DeclareCatalogServices(ctx, p.Scope, p.CatalogServices, resources); err != nil {
		return err
	}
	for _, c := range p.Clusters {
		if len(c.Delegate.Namespaces) == 0 {
			continue
		}
		kubeconfig, err := platform.kubeconfig(ctx, c.Region)
		if err != nil {
			return err
		}
		provider, err := components.ClusterProvider(ctx, ident.ClusterName(p.Environment.Name, c.Region), kubeconfig)
		if err != nil {
			return err
		}
		if err := components.DeclareNamespaces(ctx, c.Delegate, provider); err != nil {
			return err
		}
	}
	webhooks := pulumi.StringMap{}
	byTrigger := map[string]pulumi.StringOutput{}
	for _, d := range p.Deployments {
		sd, err := components.NewServiceDeployment(ctx, d.Service, &components.ServiceDeploymentArgs{
			Scope:      p.Scope,
			Deployment: d,
			Needs:      resources,
		})
		if err != nil {
			return err
		}
		webhooks[d.Service] = sd.WebhookURL
		byTrigger[d.Trigger.Identifier] = sd.WebhookURL
	}
	gh := &components.GitHubArgs{Plan: p.GitHub, AccountID: account, Webhooks: byTrigger, APIKey: webhookAPIKey, RepositoryIDs: repositoryIDs}
	ids, err := components.DeclareServiceGitHub(ctx, gh)
	if err != nil {
		return err
	}
	export(ctx, p, platform, webhooks, nil)
	ctx.Export(OutRepositoryIDs, ids)
	return nil
}
