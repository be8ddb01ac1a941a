// Package simulated is a SIMULATION of the cloud APIs this program talks
// to (Harness, Kubernetes, AWS, GitHub), for offline runs and tests only:
// resource providers served in-process to the real Pulumi engine, backed by
// JSON files under <state>/cloud/, one per provider, keyed by store key.
// Editing a property in those files is how a test or a person simulates an
// out-of-band change that a refresh should report as drift.
//
// It composes one room per service around one core:
//
//   - package core: the gRPC provider, the store, who calls and from
//     where (Reach), the budgets and their clock, the Behavior a room
//     implements, and an observer API;
//   - package harness: the Harness provider and platform;
//   - package aws: the AWS provider, EKS included, and STS;
//   - package kubernetes: the Kubernetes provider, its clusters' API
//     reachability, Helm releases, the clusters' CA;
//   - package github: the GitHub provider, its refusals, and the REST API
//     a real GitHub plugin reads.
//
// Each room's package doc says what it stands in for and what it does
// not do. Rooms import core and no other room; what one room needs of
// another (the simulated Kubernetes reaches the clusters the simulated
// AWS made, whose CA is the simulated Kubernetes') is wired here, in
// Start.
//
// The engine reaches it only through package offline: Simulation is the
// offline.Simulation the command line hands the engine, and the Servers
// it starts are the offline.Cloud, answering preflight's checks
// (preflight.Services) through the same rooms, from the same Reach, that
// the providers refuse by.
//
// Nothing here talks to a real service. Secret values are never written to
// the files: a secret is stored as its SHA-256 digest.
package simulated
