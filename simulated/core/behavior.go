package core

import (
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/company/harness-platform/apibudget"
)

// Behavior is what differs between the simulated services: each room
// (package harness, aws, kubernetes, github) implements it, with the
// optional interfaces below for what its service does beyond. The
// Provider asks a Behavior, never a provider's name.
type Behavior interface {
	// Check returns the provider's refusals of a resource's inputs, and
	// the inputs as the provider returns them (defaults filled in).
	Check(typ, name string, news resource.PropertyMap) (resource.PropertyMap, []*pulumirpc.CheckFailure)
	// ID names a new cloud object in the store; the same inputs give the
	// same key. It is also the object's id unless the Behavior is
	// Addressed.
	ID(typ, name string, news resource.PropertyMap) string
	// Computed are the outputs the provider adds to the inputs.
	Computed(typ, id string, news resource.PropertyMap) resource.PropertyMap
	// Replaces lists the changed inputs whose change replaces the object.
	Replaces(typ string, olds, news resource.PropertyMap, changed []string) []string
}

// Addressed is a Behavior whose provider reports ids that may not be
// where the store keeps its objects (the Harness provider's id is an
// object's bare identifier, unique only within its type and scope), and
// that reads an imported object's inputs from its state.
type Addressed interface {
	// ResourceID is the id the provider reports for the object stored
	// under key with these properties.
	ResourceID(typ, key string, props resource.PropertyMap) string
	// KeyOf finds the store key of the object with id: from its
	// properties when the engine passes them (refresh, update, delete),
	// else (an import) from id read as the provider's import ID.
	KeyOf(typ, id string, props resource.PropertyMap) (string, error)
	// ImportedInputs are the inputs the provider reports for an
	// imported object: its inputs as its state holds them.
	ImportedInputs(typ string, state resource.PropertyMap) resource.PropertyMap
}

// Refuser is a Behavior whose service refuses every call from some
// callers (who may call): Refusal is its answer given who calls, nil when
// it answers.
type Refuser interface {
	Refusal(r Reach) error
}

// Configurer is a Behavior whose provider's configuration meets the
// service before any call (from where the run calls): the AWS provider
// assumes its role, the Kubernetes provider's cluster must answer from
// the runner. args are the provider's configuration, variables its
// configuration variables (aws:config:assumeRole); nil: configured.
type Configurer interface {
	Configure(args resource.PropertyMap, variables map[string]string, r Reach) error
}

// ReadGuard is a Behavior whose service refuses some reads (a refresh's)
// given who calls: state is what the engine knows of the object.
type ReadGuard interface {
	CheckRead(typ string, state resource.PropertyMap, r Reach) error
}

// InputReader is a Behavior whose provider reads an object's inputs back
// from its state otherwise than by the old inputs' keys (the Kubernetes
// provider records them beside the live object); false: the default.
type InputReader interface {
	ReadInputs(typ string, state, oldInputs resource.PropertyMap) (resource.PropertyMap, bool)
}

// Storer is a Behavior whose service changes other objects when it
// stores one (Stored: after the object at key is written).
type Storer interface {
	Stored(typ, key string, cloud *Cloud) error
}

// Live is a Behavior whose service stores an object otherwise than it
// was given (Live: the object as stored, from the inputs).
type Live interface {
	Live(typ string, inputs resource.PropertyMap) resource.PropertyMap
}

// ComputedKeeper is a Behavior whose provider plans an update keeping the
// computed outputs it does not change.
type ComputedKeeper interface {
	// KeepsComputed: in an update's plan (a preview), typ's computed
	// outputs keep the values the state holds, as a bridged Terraform
	// provider's plan keeps them (terraform-plugin-sdk v2: an in-place
	// diff marks a computed attribute unknown only where the resource's
	// CustomizeDiff sets it new-computed); false: unknown until applied.
	KeepsComputed(typ string) bool
}

// UnsetKeeper is a Behavior whose provider keeps the value of some inputs
// a configuration leaves unset (Terraform's optional computed ones).
type UnsetKeeper interface {
	KeepsUnset(typ, key string) bool
}

// Invoker is a Behavior that answers invokes (lookups).
type Invoker interface {
	Invoke(token string, args resource.PropertyMap) (resource.PropertyMap, error)
}

// CloudInvoker is a Behavior that answers some invokes from what the
// cloud holds; answered is false for the others (then Invoker's).
type CloudInvoker interface {
	CloudInvoke(token string, args resource.PropertyMap, cloud *Cloud) (out resource.PropertyMap, answered bool, err error)
}

// DuplicateRefuser is a Behavior whose service words its refusal of an
// object that exists (nil: the default, Harness's DUPLICATE_FIELD).
type DuplicateRefuser interface {
	Duplicate(typ, id string, news resource.PropertyMap) error
}

// Revoker is a Behavior whose service keeps some objects for a while
// after their deletion (Harness keeps a revoked delegate token, and its
// name, 30 days): Revoke marks the record instead of removing it
// (handled), and Purged reports a kept record the service has since
// removed for good, so its key is free again.
type Revoker interface {
	Revoke(typ, key string, cloud *Cloud) (handled bool, err error)
	Purged(typ string, r Record) bool
}

// SaveGuard is a Behavior that refuses some creations and updates, as the
// real service refuses an object that names others it cannot use.
type SaveGuard interface {
	CheckSave(typ string, news resource.PropertyMap, cloud *Cloud) error
}

// WriteGuard is a Behavior whose service refuses some creates and
// updates for what they change, or for who writes: EKS's versions,
// GitHub's plans and permissions (olds is nil for a create).
type WriteGuard interface {
	CheckWrite(typ, name string, olds, news resource.PropertyMap, r Reach) error
}

// DeleteGuard is a Behavior that refuses some deletions, as the real
// service refuses to delete an object others still reference.
type DeleteGuard interface {
	CheckDelete(typ, id string, cloud *Cloud) error
}

// Budgeted is a Behavior whose service enforces API budgets (Meters):
// Backoff is how its provider's client meets a call refused over budget
// over, at attempt (0 for the first): how long it waits before trying
// again (wait: until over has room), or the error that fails the step.
type Budgeted interface {
	Backoff(typ string, op apibudget.Op, attempt int, over apibudget.Budget, wait time.Duration) (time.Duration, error)
}

// Paced is a Budgeted Behavior whose provider's client sends one request
// at a time and pauses between them: Pause is its pause before the next
// call after a call of last (0: none).
type Paced interface {
	Pause(last apibudget.Calls) time.Duration
}
