// The project's bindings of the Harness provider (pulumi-harness 0.16.0), for the resources it uses.
package harness
