// Package adopt adopts the Harness objects that already exist into a
// stack's state.
//
// The organisation already runs Harness under the identifiers the catalog
// derives, and Harness refuses a second object with an existing
// identifier, so a first up over such an account fails object by object.
// Import (engine.Session.Import) adopts what exists into the state
// instead, unchanged:
//
//  1. a preview lists what the stack would create (type, URN, inputs;
//     DeclaredBy);
//  2. a probe asks the provider, for each Harness object among them,
//     whether it exists: a second preview, in which the program first
//     calls the provider's lookup (harness:platform/getPipeline, ...) with
//     each object's scope and identifier, so an object that does not
//     exist is an answer rather than a failure (Run.Probe, Probes);
//  3. with yes, `pulumi import --file` reads what exists into the state by
//     the provider's import IDs (package importid), under the URNs the
//     program declares, with their components (Imports); nothing in the
//     account changes.
//
// The next preview then shows the differences between what exists and
// what the catalog declares as in-place updates; the findings name them
// beforehand, as the provider's Diff will see them (Status Different).
//
// This package says what to ask and what the answers mean; the engine
// runs the previews and the CLI. It does not import the engine.
package adopt
