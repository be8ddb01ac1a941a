package components

import (
	"encoding/json"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/equality"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/plan"
)

// The NetworkPolicy a namespace gets is the plan's (plan.GuardrailPolicy),
// field for field: its inputs, read back as Kubernetes' own type, equal
// the object the connectivity matrix evaluates.
func TestGuardrailPolicyIsThePlans(t *testing.T) {
	net := plan.PodNetwork{VPC: "10.1.0.0/17", Services: "172.20.0.0/16",
		Scraper: &catalog.Scraper{Namespace: "monitoring", PodLabels: map[string]string{"app.kubernetes.io/name": "prometheus"}}}
	for _, g := range []plan.Guardrail{
		{Service: "api", Ingress: true, Egress: []string{"10.0.0.0/8"}},
		{Service: "worker"},
	} {
		rec := run(t, "dev", func(ctx *pulumi.Context) error {
			return declareGuardrails(ctx, "ns", g, net, nil)
		})
		policies := rec.OfType("kubernetes:networking.k8s.io/v1:NetworkPolicy")
		if len(policies) != 1 {
			t.Fatalf("%s: %d NetworkPolicies", g.Service, len(policies))
		}
		data, err := json.Marshal(policies[0].Inputs["spec"].Mappable())
		if err != nil {
			t.Fatal(err)
		}
		var got networkingv1.NetworkPolicySpec
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatal(err)
		}
		if want := plan.GuardrailPolicy("ns", g, net).Spec; !equality.Semantic.DeepEqual(got, want) {
			t.Errorf("%s: declared\n  %+v\nplanned\n  %+v", g.Service, got, want)
		}
	}
}
