// Package harness is the simulated Harness: a stand-in for the Harness
// Pulumi provider v0.16.0 (pulumi-harness, bridging
// terraform-provider-harness v0.45.0) and the Harness platform API behind
// it, in one account (Account), for offline runs and tests only.
//
// It serves every resource type of the provider's published facts
// (../shared/harness-provider/schema.json: harness:platform/project,
// pipeline, triggers, inputSet, template, service, environment,
// infrastructure, the connectors, secretText, usergroup,
// roleAssignments, resourceGroup, monitoredService, policy, policySet,
// fileStoreFile, delegatetoken, ...) and refuses any other, with the
// provider's words:
//
//   - Check: unknown and missing inputs, the facts' types, identifiers
//     (^[a-zA-Z_][0-9a-zA-Z_$]{0,127}$), the Terraform constraints
//     (constraints.json: conflicts, exactly-one-of, required-with), a
//     monitored service's health source the provider cannot read; it
//     fills the defaults the real provider fills.
//   - Ids as the provider's: an object's bare identifier (a delegate
//     token's name), its import ID in the provider's formats (package
//     importid); imported inputs as the bridge extracts them.
//   - What Harness computes: webhook URLs (custom webhook tokens
//     included), delegate token values (DelegateToken), computed-only
//     and optional computed properties with the real shape.
//   - What Harness refuses: a second object of one identifier in one
//     scope; a service a pipeline still deploys; a pipeline naming a
//     template or version that does not exist, or chaining a pipeline
//     that does not exist or chains another; a template version in use,
//     or the stable one while others remain; a pipeline an enabled
//     on-save pipeline policy set denies (OPA, Rego v0), evaluated on
//     the pipeline with its templates expanded. A template saved stable
//     makes the template's other versions unstable.
//   - The lookups (get<Type>) and list data sources (get<Type>List,
//     paged as the provider pages) answered from what it holds.
//   - Custom webhooks (Webhooks, an http.Handler over what it holds):
//     a POST to a trigger's URL is accepted at once with its
//     eventCorrelationId; the event's details answer "does not exist"
//     until processed, then the final status Harness gives it (the
//     pipeline started, or the payload conditions or runtime inputs that
//     refused it).
//   - Who may call: an API key Harness refuses (core.Reach) is a 401 on
//     every call; the budgets the run sets (core.Meters) are met as the
//     provider's client meets a 429: backoff, ten retries, then the step
//     fails (Backoff).
//
// It does NOT:
//
//   - run anything: no pipeline executes (a started one is an execution
//     id), a webhook is served only where a test serves Webhooks, and no
//     delegate connects (a delegate
//     token is a value; connectors are stored, never tested against
//     their targets);
//   - enforce RBAC: the key is valid or not; user groups, role
//     assignments and resource groups are stored, never consulted;
//   - check references beyond those listed above (a connector, an
//     environment or a secret an object names need not exist);
//   - evaluate policies other than pipeline on-save ones (other types
//     and actions are stored only);
//   - model Git Experience (remote entities) or more than one account;
//   - limit calls unless budgets are given (by default it only counts
//     them), or page anything but the list data sources;
//   - model eventual consistency: a write is read back at once.
package harness
