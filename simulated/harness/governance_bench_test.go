package harness

import (
	"testing"

	"github.com/company/harness-platform/policy/rego"
)

// BenchmarkDenyPipelineRules is the cost the on-save rules add to each
// pipeline an offline up saves (one per service and environment).
//
//	go test -run '^$' -bench BenchmarkDenyPipelineRules -benchmem ./simulated
func BenchmarkDenyPipelineRules(b *testing.B) {
	policy := rego.PipelineRules(rego.PipelineRulesSettings{PlatformGroup: "platform_team", MinApprovers: 1})
	input := map[string]any{"pipeline": map[string]any{"identifier": "x", "stages": []any{}}}
	for b.Loop() {
		if _, err := deny(policy, input); err != nil {
			b.Fatal(err)
		}
	}
}
