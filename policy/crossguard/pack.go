// Package crossguard is the project's CrossGuard policy pack: the seeds'
// guardrails (production gates, no script steps, delegate-only
// credentials, secrets, tags, hardened clusters, pinned versions) checked
// on every resource of every preview and up. The analyzer binary is
// policy/cmd/harness-platform-policy; engine.BuildPolicyPack builds it.
//
// Every policy is a resource policy and none depends on preview versus
// update: in SDK v3.256.0 stack policies are never run and DryRun is not
// set. A value not known yet (an output in a preview) is judged on the up.
package crossguard

import (
	"context"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/policyx"
)

// Name and Version of the pack.
const (
	Name    = "harness-platform"
	Version = "1.0.0"
)

// ManagedBy is the value of the managed-by tag (plan.ManagedBy; the pack
// does not import the program's packages).
const ManagedBy = "harness-platform"

// New returns the policy pack.
func New() (policyx.PolicyPack, error) {
	return policyx.NewPolicyPack(Name, semver.MustParse(Version), policyx.EnforcementLevelMandatory, Policies())
}

// Policies are the pack's policies.
func Policies() []policyx.Policy {
	return []policyx.Policy{
		productionGates,
		productionImageScan,
		noScriptSteps,
		delegateCredentials,
		secretsAreSecret,
		requiredTags,
		addManagedBy,
		eksHardened,
		vpcCNINetworkPolicy,
		pinnedReleases,
		harnessProviderPinned,
		namespaceGuardrails,
	}
}

// resourcePolicy is a validation policy whose check returns the problems
// it finds, each a message that says what to fix.
func resourcePolicy(name, description string, level policyx.EnforcementLevel, schema *policyx.ConfigSchema,
	check func(r policyx.AnalyzerResource, cfg config) []string) policyx.ResourceValidationPolicy {
	return policyx.NewResourceValidationPolicy(name, policyx.ResourceValidationPolicyArgs{
		Description:      description,
		EnforcementLevel: level,
		ConfigSchema:     schema,
		ValidateResource: func(_ context.Context, args policyx.ResourceValidationArgs) error {
			for _, msg := range check(args.Resource, config{values: args.Config, schema: schema}) {
				args.Manager.ReportViolation(msg, args.Resource.URN)
			}
			return nil
		},
	})
}

// config reads a policy's settings, falling back to the defaults of its
// schema when the engine sends none.
type config struct {
	values map[string]any
	schema *policyx.ConfigSchema
}

func (c config) get(key string) any {
	if v, ok := c.values[key]; ok && v != nil {
		return v
	}
	if c.schema != nil {
		return c.schema.Properties[key]["default"]
	}
	return nil
}

func (c config) number(key string) float64 {
	switch v := c.get(key).(type) {
	case float64:
		return v
	case int:
		return float64(v)
	}
	return 0
}

func (c config) string(key string) string { s, _ := c.get(key).(string); return s }

func (c config) stringMap(key string) map[string]string {
	out := map[string]string{}
	if m, ok := c.get(key).(map[string]any); ok {
		for k, v := range m {
			if s, ok := v.(string); ok {
				out[k] = s
			}
		}
	}
	return out
}

func (c config) strings(key string) []string {
	switch v := c.get(key).(type) {
	case []string:
		return v
	case []any:
		out := make([]string, 0, len(v))
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// at reads a dotted path of a resource's properties; ok is false when a
// part is absent or not known yet.
func at(m property.Map, path ...string) (property.Value, bool) {
	v := property.New(m)
	for _, k := range path {
		if v.IsComputed() || !v.IsMap() {
			return property.Value{}, false
		}
		var ok bool
		if v, ok = v.AsMap().GetOk(k); !ok || v.IsNull() {
			return property.Value{}, false
		}
	}
	return v, !v.IsComputed()
}

func stringAt(m property.Map, path ...string) (string, bool) {
	v, ok := at(m, path...)
	if !ok || !v.IsString() {
		return "", false
	}
	return v.AsString(), true
}

func stringsAt(m property.Map, path ...string) ([]string, bool) {
	v, ok := at(m, path...)
	if !ok || !v.IsArray() {
		return nil, ok
	}
	var out []string
	for _, e := range v.AsArray().All {
		if e.IsComputed() {
			return nil, false
		}
		if e.IsString() {
			out = append(out, e.AsString())
		}
	}
	return out, true
}
