package apibudget

import "strings"

// Op is what a run does to one resource, as the engine names its steps.
type Op string

// The steps that call a service. A preview's create, update or delete
// calls nothing (the providers answer from their schemas); the up that
// follows calls what these say. same calls nothing: Pulumi diffs against
// its state, not the service.
const (
	Create  Op = "create"
	Update  Op = "update"
	Replace Op = "replace" // create the new, delete the old
	Delete  Op = "delete"
	Read    Op = "read" // refresh, import, a get
)

// OpOf is the engine step name's Op, and whether it calls a service. The
// engine reports a replacement three times (replace, create-replacement,
// delete-replaced): it is counted once, as replace.
func OpOf(step string) (Op, bool) {
	switch step {
	case "create":
		return Create, true
	case "update":
		return Update, true
	case "replace":
		return Replace, true
	case "delete":
		return Delete, true
	case "refresh", "read", "import":
		return Read, true
	}
	return "", false
}

// Of is the calls the real provider of typ (a Pulumi type token) makes
// for op on one resource:
//
//   - Harness (terraform-provider-harness): a create or update is the
//     write and a read back, because "the create/update methods don't
//     return the yaml in the response, so we need to query for it again"
//     (resource_pipeline.go; every platform resource reads after it
//     writes); a delete is one call, a refresh one read.
//   - GitHub (terraform-provider-github): a create or update writes, then
//     its Read runs (every resource's Create ends in its Read); a delete
//     is one write, a refresh one read. Every write counts as
//     content-generating: GitHub does not list which requests are, so
//     the secondary limit is met by the whole write budget.
//
// Other providers (AWS, Kubernetes) are not budgeted here: a zero Calls.
//
// (terraform-provider-github: resource_github_actions_organization_variable.go,
// _secret.go and resource_github_actions_runner_group.go.)
func Of(typ string, op Op) Calls {
	api, _, _ := strings.Cut(typ, ":")
	if api == "pulumi" { // providers, components, the stack
		return Calls{}
	}
	reads, writes := 0, 0
	switch op {
	case Create, Update:
		reads, writes = 1, 1
	case Replace:
		reads, writes = 1, 2
	case Delete:
		writes = 1
	case Read:
		reads = 1
	}
	if reads > 0 {
		// An organisation variable's or secret's Read also lists its
		// selected repositories (one page of 30 for a service stack's
		// up to 60: counted as one), and a secret's write first reads
		// the organisation's public key to encrypt the value with.
		switch typ {
		case githubOrgVariable:
			reads++
		case githubRunnerGroup:
			// Its Read lists the group's repositories too; its Update
			// also sets them (SetRepositoryAccessRunnerGroup).
			reads++
			if op == Update {
				writes++
			}
		case githubOrgSecret:
			reads++
			if op != Read {
				reads++
			}
		}
	}
	switch api {
	case "harness":
		return Calls{HarnessReads: reads, HarnessWrites: writes}
	case "github":
		return Calls{GitHubReads: reads, GitHubWrites: writes, GitHubContent: writes}
	}
	return Calls{}
}

// The GitHub types whose Read makes more than one call.
const (
	githubOrgVariable = "github:index/actionsOrganizationVariable:ActionsOrganizationVariable"
	githubOrgSecret   = "github:index/actionsOrganizationSecret:ActionsOrganizationSecret"
	githubRunnerGroup = "github:index/actionsRunnerGroup:ActionsRunnerGroup"
)
