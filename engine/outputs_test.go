package engine

import (
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
)

// A service stack's outputs are read from the backend once per session;
// an update replaces them, a destroy or a move makes the next read go to
// the backend again; platform stacks are not kept.
func TestReadOutputsOncePerSession(t *testing.T) {
	s := &Session{}
	reads := 0
	backend := map[string]any{"services": []any{"a"}}
	read := func() (map[string]any, error) { reads++; return backend, nil }
	for range 3 {
		if got, err := s.readOutputs("dev.payments", read); err != nil || got["services"].([]any)[0] != "a" {
			t.Fatalf("read %v, %v", got, err)
		}
	}
	if reads != 1 {
		t.Fatalf("the backend was read %d times for one stack, want 1", reads)
	}
	s.deployedOutputs("dev.payments", auto.OutputMap{"services": {Value: []any{"b"}}})
	if got, _ := s.readOutputs("dev.payments", read); got["services"].([]any)[0] != "b" || reads != 1 {
		t.Fatalf("after an update: %v (%d reads), want the update's outputs", got, reads)
	}
	s.deployedOutputs("dev.payments", nil)
	if _, _ = s.readOutputs("dev.payments", read); reads != 2 {
		t.Fatalf("after a destroy the backend must be read again (%d reads)", reads)
	}
	s.deployedOutputs("dev", auto.OutputMap{"kubeconfigs": {Value: "secret", Secret: true}})
	if _, ok := s.outputs.Load("dev"); ok {
		t.Fatal("a platform stack's outputs (its kubeconfigs) were kept")
	}
}
