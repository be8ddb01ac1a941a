package catalog

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/company/harness-platform/diag"
	"github.com/company/harness-platform/ident"
)

// An environment is split into stacks of bounded size: its platform stack,
// named after the environment (dev), holds the project-level objects (the
// foundation in the root environment, the environment, clusters,
// delegates, connectors, infrastructure); its service stacks
// (dev.payments, dev.payments-2, ...) each hold the objects of at most
// serviceStacks.maxServices services. A DIY backend (file, S3, GCS, Azure
// Blob) rewrites the whole checkpoint after every step, so an up is
// quadratic in one stack's size: bounded stacks make an environment's up
// linear in its services.

// DefaultMaxServicesPerStack bounds a service stack when teams.yaml does
// not: about 11 resources per service in the root environment, so about
// 660 resources per stack.
const DefaultMaxServicesPerStack = 60

// StackSeparator joins an environment's platform stack and a service
// stack's shard name: dev.payments. Pulumi stack names may hold '.', and
// Harness identifiers are never derived from stack names.
const StackSeparator = "."

// ServiceStackName is the full name of shard's service stack in the
// environment whose platform stack is env.
func ServiceStackName(env, shard string) string { return env + StackSeparator + shard }

// SplitStack splits a stack name into its environment's platform stack and
// its shard: "dev.payments" is ("dev", "payments"), "dev" is ("dev", ""),
// and the credentials stack "credentials.dev" is ("dev", CredentialsShard).
func SplitStack(name string) (env, shard string) {
	if env, ok := strings.CutPrefix(name, CredentialsShard+StackSeparator); ok && !strings.Contains(env, StackSeparator) {
		return env, CredentialsShard
	}
	env, shard, _ = strings.Cut(name, StackSeparator)
	return env, shard
}

// CredentialsShard is the shard SplitStack gives an environment's
// credentials stack, and a name no service stack or stack file may take.
//
// The credentials stack holds what an environment's clusters must be
// given and no other run may read: each delegate's Harness token, and its
// copy in AWS Secrets Manager, which the cluster's External Secrets
// Operator reads. Reading a stack decrypts it (Pulumi Cloud's Stack Read
// holds stack:export and stack:decrypt), so only the environment's own
// deployer team reads its credentials stack, and its name sits outside
// the patterns the other teams read (dev, dev.*): credentials.dev.
const CredentialsShard = "credentials"

// CredentialsStackName is the credentials stack of the environment whose
// platform stack is env.
func CredentialsStackName(env string) string { return CredentialsShard + StackSeparator + env }

// IsCredentialsStack reports whether name is an environment's credentials
// stack (by its form; HasStack says whether the environment exists).
func IsCredentialsStack(name string) bool {
	_, shard := SplitStack(name)
	return shard == CredentialsShard
}

// CredentialsStacks lists the environments' credentials stacks, in chain
// order.
func (c *Catalog) CredentialsStacks() []string {
	out := make([]string, 0, len(c.Chain))
	for _, env := range c.Chain {
		out = append(out, CredentialsStackName(env))
	}
	return out
}

// ServiceStacks lists the shard names of the service stacks, sorted: the
// same in every environment, so a service stack promotes from the stack
// of the same shard upstream.
func (c *Catalog) ServiceStacks() []string {
	seen := map[string]bool{}
	for i := range c.Services {
		seen[c.Services[i].Stack] = true
	}
	return sortedKeys(seen)
}

// StacksOf lists the stacks of the environment whose platform stack is
// env: the platform stack first, then its service stacks.
func (c *Catalog) StacksOf(env string) []string {
	out := []string{env}
	for _, shard := range c.ServiceStacks() {
		out = append(out, ServiceStackName(env, shard))
	}
	return out
}

// AllStacks lists every stack, environment by environment in chain order.
func (c *Catalog) AllStacks() []string {
	var out []string
	for _, env := range c.Chain {
		out = append(out, c.StacksOf(env)...)
	}
	return out
}

// HasStack reports whether name is a platform or service stack of the
// catalog.
func (c *Catalog) HasStack(name string) bool {
	env, shard := SplitStack(name)
	if _, ok := c.Stacks[env]; !ok {
		return false
	}
	return shard == "" || shard == CredentialsShard || slices.Contains(c.ServiceStacks(), shard)
}

// EnvironmentOf returns the settings of the environment a platform or
// service stack belongs to, and the stack's shard ("" for a platform
// stack). An unknown stack is an error naming the known ones.
func (c *Catalog) EnvironmentOf(name string) (*Stack, string, error) {
	env, shard := SplitStack(name)
	st, err := c.Stack(env)
	if err != nil {
		return nil, "", err
	}
	if shard != "" && shard != CredentialsShard && !slices.Contains(c.ServiceStacks(), shard) {
		return nil, "", &UnknownStackError{Name: name, Known: c.StacksOf(env)}
	}
	return st, shard, nil
}

// ServicesOf lists the catalog services a shard holds, in catalog order.
func (c *Catalog) ServicesOf(shard string) []string {
	var out []string
	for i := range c.Services {
		if c.Services[i].Stack == shard {
			out = append(out, c.Services[i].Name)
		}
	}
	return out
}

func (d *serviceStacksDoc) maxServices() int {
	if d == nil || d.MaxServices == 0 {
		return DefaultMaxServicesPerStack
	}
	return d.MaxServices
}

// stackOf is the shard of s: its own stack, else its team's, split over
// the team's stacks by rendezvous hashing (each service goes to the shard
// whose hash of its name is highest): adding a shard moves only the
// services the new shard wins, about 1/k of them, and adding or removing
// a service moves no other.
func stackOf(s *serviceDoc, t *teamDoc) string {
	if s.Stack != "" {
		return s.Stack
	}
	base := t.Stack
	if base == "" {
		base = t.Name
	}
	best, bestHash := 1, uint64(0)
	for i := 1; i <= max(t.Stacks, 1); i++ {
		// SHA-256, not FNV: FNV's hashes of names differing only in their
		// last byte are correlated, and one shard would win most ties.
		h := sha256.Sum256([]byte(s.Name + "#" + strconv.Itoa(i)))
		if sum := binary.BigEndian.Uint64(h[:8]); i == 1 || sum > bestHash {
			best, bestHash = i, sum
		}
	}
	if best == 1 {
		return base
	}
	return base + "-" + strconv.Itoa(best)
}

// shardPattern is a Pulumi stack name without the separator.
var shardPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,60}$`)

// checkServiceStacks assigns every valid service its shard and checks the
// shards: valid names, distinct as GitHub names them (ident.GitHubName),
// no more than maxServices services each, and one shard per repository
// (a repository reads its webhook URLs from one stack's variable per
// environment, and GitHub passes a run at most 256 KB of organisation
// variables).
func (v *validator) checkServiceStacks(d *serviceStacksDoc) {
	limit := d.maxServices()
	if d != nil && d.MaxServices < 0 {
		v.at(d.At.Field("maxServices"), "set a positive number, such as 60", "serviceStacks.maxServices must be positive")
		limit = DefaultMaxServicesPerStack
	}
	for _, t := range v.files.teams {
		if t.Stacks < 0 {
			v.at(t.At.Field("stacks"), "set a positive number of stacks", "team %q: stacks must be positive", t.Name)
		}
	}
	count, badShard, githubName := map[string]int{}, map[string]bool{}, map[string]string{}
	repoStack, repoAt := map[string]string{}, map[string]diag.Pos{}
	for _, s := range v.files.services {
		t, ok := v.teams[s.Team]
		if v.services[s.Name] != s || !ok {
			continue
		}
		shard := stackOf(s, t)
		pos := s.At.Field("stack")
		if s.Stack == "" {
			pos = t.At.Field("stack")
			if t.Stack == "" {
				pos = t.At.Field("name")
			}
		}
		if !shardPattern.MatchString(shard) {
			if !badShard[shard] {
				v.at(pos, "name the service stack with at most 60 letters, digits, '-' and '_'", "service stack %q is not a valid stack name", shard)
			}
			badShard[shard] = true
			continue
		}
		if shard == CredentialsShard {
			if !badShard[shard] {
				v.at(pos, "choose another service stack name", "service stack %q of service %q has the name reserved for the environments' credentials stacks (%s)", shard, s.Name, CredentialsStackName("<environment>"))
			}
			badShard[shard] = true
			continue
		}
		if _, clash := v.stacks[shard]; clash {
			v.at(pos, "choose a service stack name that is not a stack file's", "service stack %q of service %q has the name of stack file Pulumi.%s.yaml", shard, s.Name, shard)
			continue
		}
		if other, ok := githubName[ident.GitHubName(shard)]; ok && other != shard {
			if !badShard[shard] {
				v.at(pos, fmt.Sprintf("rename one of the two service stacks (`stack:` in %s or %s)", TeamsFile, ServicesFile),
					"service stacks %q and %q would share their GitHub variables (HARNESS_WEBHOOKS_<ENV>_%s: GitHub's names compare without case and hold no '-')", other, shard, ident.GitHubName(shard))
			}
			badShard[shard] = true
			continue
		}
		githubName[ident.GitHubName(shard)] = shard
		v.shards[s] = shard
		count[shard]++
		if count[shard] == limit+1 {
			v.at(s.At.Field("name"), fmt.Sprintf("split it (`stack:` or `stacks:` on a team in %s, or `stack:` on some services), then run `platformctl move` for each environment; or raise serviceStacks.maxServices", TeamsFile),
				"service stack %q holds more than %d services (serviceStacks.maxServices) from this entry on", shard, limit)
		}
		if prev, ok := repoStack[s.Repo]; ok && prev != shard {
			v.at(pos, fmt.Sprintf("put every service of %s in one service stack: set `stack: %s` on this entry", s.Repo, prev),
				"service %q is in service stack %q, but another service of repository %s (line %d) is in %q, and a repository reads its webhooks from one stack",
				s.Name, shard, s.Repo, repoAt[s.Repo].Line, prev)
		} else if !ok {
			repoStack[s.Repo], repoAt[s.Repo] = shard, s.At.Field("repo")
		}
	}
}

// checkServiceStackFiles checks the stack files of service stacks
// (Pulumi.dev.payments.yaml, which the CLI writes to hold a stack's
// encryption salt): they belong to an environment's platform stack, whose
// settings they share.
func (v *validator) checkServiceStackFiles() {
	for _, file := range v.files.serviceStackFiles {
		name := strings.TrimSuffix(strings.TrimPrefix(file, "Pulumi."), ".yaml")
		env, _ := SplitStack(name)
		if _, ok := v.stacks[env]; !ok {
			v.diags.Add(file, 1, 1, "name it Pulumi.<environment stack>.<service stack>.yaml, or remove it",
				"service stack %q belongs to no environment: there is no Pulumi.%s.yaml", name, env)
		}
	}
}
