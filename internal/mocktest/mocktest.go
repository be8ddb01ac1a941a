// Package mocktest runs the program under Pulumi mocks and records every
// resource it registers, for component tests, conformance checks and
// benchmarks.
package mocktest

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Registered is one resource the program registered.
type Registered struct {
	Type, Name     string
	Custom         bool // false for component resources
	Inputs         resource.PropertyMap
	Parent         string
	Protect        bool
	RetainOnDelete bool
	// Dependencies are the URNs of its DependsOn.
	Dependencies []string
	// Version is the provider version the registration asks for.
	Version string
	// Provider is the explicit provider reference (URN::id), or "".
	Provider string
	// Aliases are the registration's aliases, the SDK's included (the
	// Kubernetes SDK aliases a RoleBinding to its older API versions).
	Aliases []Alias
	// AdditionalSecretOutputs, IgnoreChanges and ReplaceOnChanges are
	// property names the registration asks the engine to treat so.
	AdditionalSecretOutputs, IgnoreChanges, ReplaceOnChanges []string
	DeleteBeforeReplace                                      bool
}

// Project is the Pulumi project the mocks run the program in.
const Project = "harness-platform"

// URN is the URN the engine gives the resource in a stack.
func (r Registered) URN(stack string) string {
	parentType := ""
	if r.Parent != "" {
		if p := resource.URN(r.Parent); p.Type() != "pulumi:pulumi:Stack" {
			parentType = string(p.QualifiedType())
		}
	}
	return string(resource.NewURN(tokens.QName(stack), Project, tokens.Type(parentType), tokens.Type(r.Type), r.Name))
}

// Alias is one alias of a registration: a URN, or the parts that differ
// from the resource's own.
type Alias struct {
	URN, Name, Type, Project, Stack, ParentURN string
	NoParent                                   bool
}

// Recorder is a pulumi.MockResourceMonitor that records resources and
// serves stack references from StackOutputs.
type Recorder struct {
	// StackOutputs are the outputs of the stacks the program references.
	StackOutputs map[string]resource.PropertyMap

	mu        sync.Mutex
	resources []Registered
	reads     []string
	lookups   []string // invoke tokens answered, in order (stack reads apart)
}

// Lookups lists the provider invokes the program made (getTeam,
// getRepository), in order: each is a read of the provider's API.
func (r *Recorder) Lookups() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.lookups...)
}

// Resources returns what was registered, in registration order.
func (r *Recorder) Resources() []Registered {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Registered(nil), r.resources...)
}

// OfType returns the registered resources of one type token.
func (r *Recorder) OfType(token string) []Registered {
	var out []Registered
	for _, res := range r.Resources() {
		if res.Type == token {
			out = append(out, res)
		}
	}
	return out
}

// NewResource records the resource and echoes its inputs as its state,
// adding the outputs the provider computes.
func (r *Recorder) NewResource(args pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	if args.TypeToken == "pulumi:pulumi:StackReference" {
		name := args.Inputs["name"].StringValue()
		out, ok := r.StackOutputs[name]
		if !ok {
			out = resource.PropertyMap{}
		}
		return name, resource.PropertyMap{
			"name":    resource.NewStringProperty(name),
			"outputs": resource.NewObjectProperty(out),
		}, nil
	}
	reg := Registered{Type: args.TypeToken, Name: args.Name, Custom: args.Custom, Inputs: args.Inputs}
	if rpc := args.RegisterRPC; rpc != nil {
		reg.Parent, reg.Protect = rpc.GetParent(), rpc.GetProtect()
		reg.RetainOnDelete = rpc.GetRetainOnDelete()
		reg.Dependencies = rpc.GetDependencies()
		reg.Version = rpc.GetVersion()
		reg.Provider = rpc.GetProvider()
		reg.AdditionalSecretOutputs = rpc.GetAdditionalSecretOutputs()
		reg.IgnoreChanges = rpc.GetIgnoreChanges()
		reg.ReplaceOnChanges = rpc.GetReplaceOnChanges()
		reg.DeleteBeforeReplace = rpc.GetDeleteBeforeReplace()
		for _, a := range rpc.GetAliases() {
			spec := a.GetSpec()
			reg.Aliases = append(reg.Aliases, Alias{
				URN: a.GetUrn(), Name: spec.GetName(), Type: spec.GetType(), Project: spec.GetProject(),
				Stack: spec.GetStack(), ParentURN: spec.GetParentUrn(), NoParent: spec.GetNoParent(),
			})
		}
	}
	r.mu.Lock()
	r.resources = append(r.resources, reg)
	r.mu.Unlock()
	state := args.Inputs.Copy()
	for k, v := range Computed(args.TypeToken, args.Name, reg.Provider, args.Inputs) {
		if _, given := state[k]; !given {
			state[k] = v
		}
	}
	return args.Name + "-id", state, nil
}

// TeamID is the id the mocks give a GitHub team.
func TeamID(slug string) int { return 4200 + len(slug) }

// TestDelegateToken is the value the mocks give every delegate token; tests
// look for it in plaintext where it must never be.
const TestDelegateToken = "delegate_token_never_in_plaintext"

// Computed are the outputs the providers compute that the program reads:
// webhook URLs, delegate tokens, ARNs, the EKS cluster's endpoint, CA and
// OIDC issuer, a Helm release's status, a GitHub environment's
// repository id. provider is the resource's provider reference, inputs
// its inputs.
func Computed(typ, name, provider string, inputs resource.PropertyMap) resource.PropertyMap {
	str := resource.NewStringProperty
	out := resource.PropertyMap{}
	if strings.HasPrefix(typ, "aws:") {
		out["arn"] = str("arn:aws:mock::000000000000:" + name)
	}
	switch typ {
	case "harness:platform/triggers:Triggers":
		out["webhookUrl"] = str("https://app.harness.io/webhook/" + name)
	case "harness:platform/delegatetoken:Delegatetoken":
		out["value"] = str(TestDelegateToken)
	case "aws:iam/role:Role":
		out["name"] = str(name + "-mock")
	case "aws:eks/cluster:Cluster":
		out["endpoint"] = str("https://" + name + ".eks.mock")
		out["certificateAuthority"] = resource.NewObjectProperty(resource.PropertyMap{"data": str("bW9jaw==")})
		out["identities"] = resource.NewArrayProperty([]resource.PropertyValue{resource.NewObjectProperty(resource.PropertyMap{
			"oidcs": resource.NewArrayProperty([]resource.PropertyValue{resource.NewObjectProperty(resource.PropertyMap{
				"issuer": str("https://oidc.eks.mock/id/" + name)})})})})
	case "kubernetes:helm.sh/v3:Release":
		out["status"] = resource.NewObjectProperty(resource.PropertyMap{"name": str(name), "status": str("deployed")})
	case "github:index/repositoryEnvironment:RepositoryEnvironment":
		// As the provider sets it on create: the id of the repository
		// named, in its owner's organisation (the provider's, github-<owner>).
		if i := strings.Index(provider, "::github-"); i >= 0 {
			owner, _, _ := strings.Cut(provider[i+len("::github-"):], "::")
			out["repositoryId"] = resource.NewNumberProperty(float64(RepoID(owner + "/" + inputs["repository"].StringValue())))
		}
	}
	return out
}

// Call answers the engine's built-in readStackOutputs invoke from
// StackOutputs (a stack never deployed has none), and GitHub's getTeam
// and getRepository (team and repository ids are GitHub's: RepoID), and
// refuses any other invoke: the program looks nothing else up.
func (r *Recorder) Call(args pulumi.MockCallArgs) (resource.PropertyMap, error) {
	if args.Token != "pulumi:pulumi:readStackOutputs" {
		r.mu.Lock()
		r.lookups = append(r.lookups, args.Token)
		r.mu.Unlock()
	}
	if args.Token == "github:index/getTeam:getTeam" {
		// GitHub's team ids are GitHub's; the program looks them up by slug.
		slug := args.Args["slug"].StringValue()
		return resource.PropertyMap{"id": resource.NewStringProperty(strconv.Itoa(TeamID(slug))), "slug": resource.NewStringProperty(slug)}, nil
	}
	if args.Token == "github:index/getRepository:getRepository" {
		full := args.Args["fullName"].StringValue()
		return resource.PropertyMap{"fullName": resource.NewStringProperty(full), "repoId": resource.NewNumberProperty(float64(RepoID(full)))}, nil
	}
	if args.Token != "pulumi:pulumi:readStackOutputs" {
		return nil, fmt.Errorf("unexpected invoke %s", args.Token)
	}
	name := args.Args["name"].StringValue()
	r.mu.Lock()
	r.reads = append(r.reads, name)
	r.mu.Unlock()
	out, ok := r.StackOutputs[name[strings.LastIndex(name, "/")+1:]]
	if !ok {
		out = resource.PropertyMap{}
	}
	return resource.PropertyMap{
		"name":    resource.NewStringProperty(name),
		"outputs": resource.NewObjectProperty(out),
	}, nil
}

// RepoID is the id the mocks give the repository full ("owner/name"):
// distinct for distinct names.
func RepoID(full string) int {
	h := sha256.Sum256([]byte(full))
	return 1 + int(binary.BigEndian.Uint32(h[:4])>>1)
}

// Reads lists the stacks whose outputs the program read, in order.
func (r *Recorder) Reads() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.reads...)
}

// WithConfig sets the stack's config (and which keys are secret).
func WithConfig(config map[string]string, secretKeys ...string) pulumi.RunOption {
	return func(info *pulumi.RunInfo) {
		info.Config, info.ConfigSecretKeys = config, secretKeys
	}
}

// WithDryRun makes the run a preview.
func WithDryRun(dryRun bool) pulumi.RunOption {
	return func(info *pulumi.RunInfo) { info.DryRun = dryRun }
}

// TestToken is the GitHub token tests configure.
const TestToken = "ghp_test_token_never_in_plaintext"

// TestAccount is the Harness account tests configure.
const TestAccount = "test_account"

// TestRegistryPassword is the Docker registry password tests configure.
const TestRegistryPassword = "registry_password_never_in_plaintext"

// Run runs prog as stack with the recorder; the GitHub token and the
// registry password are configured as secrets.
func Run(prog pulumi.RunFunc, stack string, rec *Recorder, opts ...pulumi.RunOption) error {
	all := append([]pulumi.RunOption{
		pulumi.WithMocks(Project, stack, rec),
		WithConfig(map[string]string{"harness-platform:githubToken": TestToken, "harness-platform:registryPassword": TestRegistryPassword, "harness:accountId": TestAccount},
			"harness-platform:githubToken", "harness-platform:registryPassword"),
	}, opts...)
	return pulumi.RunErr(prog, all...)
}
