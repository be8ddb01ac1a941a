// Package core is what every simulated service shares: the resource
// provider served to the real Pulumi engine over gRPC (Provider), the
// store behind it (Cloud, Record), who calls and from where (Reach), the
// API budgets and their simulated clock (Meters, over apibudget.Meter),
// and an observer API (Observer). What differs between services is a
// Behavior, with optional interfaces for what a service does beyond
// (Addressed, Refuser, Configurer, ReadGuard, WriteGuard, SaveGuard,
// DeleteGuard, Storer, Live, InputReader, UnsetKeeper, Invoker,
// CloudInvoker, DuplicateRefuser, Budgeted, Paced). Each room (packages
// harness, aws, kubernetes and github beside this one) implements them
// for its service; package simulated composes the rooms. This package
// imports no room and never asks which service it serves: a Provider
// asks its Behavior.
//
// A Provider answers the engine's calls as a bridged Terraform provider
// does: Check by the Behavior; Diff by comparing inputs, a zero value
// equal to unset (SDKv2 cannot tell them apart) and an input the old
// inputs leave out compared with the state; Create, Read, Update and
// Delete against the store, refusing what the Behavior refuses; Invoke
// by the Behavior. A preview asks the service nothing: it neither
// spends budget nor meets the service's refusals of writes.
//
// The store is one JSON file per provider under <state>/cloud/, keyed by
// the object's store key. It is read again at the start of every engine
// operation (Configure), so an edit made between runs is seen (that is
// how a test or a person simulates an out-of-band change a refresh
// should report); changes are written back coalesced. A secret is
// stored as its SHA-256 digest, never in plaintext.
//
// Current limitations, as for any fake:
//
//   - No schema: GetSchema answers the provider's name and version only;
//     CheckConfig and DiffConfig accept any configuration, unchanged.
//   - No components, Construct or Call, and no parameterized providers.
//   - No eventual consistency and no concurrency control: every write is
//     seen by the next read at once, and the last write wins.
//   - A replacement always deletes before it creates (the services'
//     identifiers are unique), whatever the real provider would choose.
//   - An object that exists refuses a create in Harness's words
//     (DUPLICATE_FIELD) unless the Behavior words its own
//     (DuplicateRefuser).
//   - Cancel does nothing; no call is slow unless a budget is spent.
//   - Nothing here talks to a network service other than the engine.
package core
