package document

import (
	"bytes"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// sample is a pipeline exercising every shape the documents use.
func sample(s string) Document {
	return Document{Pipeline: Pipeline{
		Name: s, Identifier: "id", Description: s,
		Tags:      map[string]string{"team": s, "managed-by": "x", "a_b": "1", "aB": "2", "a-b": s, "Z": "z"},
		Variables: []Variable{{Name: "v", Type: "String", Value: s, Required: true}},
		Stages: []StageElement{{Stage: Stage{Name: s, Identifier: "deploy", Type: "Deployment", Spec: DeploymentSpec{
			Execution: Execution{Steps: []StepElement{
				{Step: Step{Type: "Policy", Name: s, Identifier: "p", Timeout: "2m", Spec: PolicySpec{PolicySets: []string{s, "b"}, PolicySpec: CustomPolicySpec{Payload: s + "\n"}}}},
				{Step: Step{Type: "K8sCanaryDelete", Name: "d", Identifier: "d", Spec: K8sCanaryDeleteSpec{}}},
				{StepGroup: &StepGroup{Name: s, Identifier: "g", StepGroupInfra: &StepGroupInfra{Type: "KubernetesDirect", Spec: ContainerInfra{ConnectorRef: s, Namespace: "n"}},
					FailureStrategies: []FailureStrategy{{OnFailure: OnFailure{Errors: []string{"AllErrors"}, Action: Action{Type: "Abort"}}}},
					Steps: []StepElement{{Step: Step{Type: "Wiz", Name: "w", Identifier: "w", Timeout: "20m", Spec: WizSpec{Mode: "orchestration", Config: "default",
						Target: STOTarget{Type: "container", Detection: "manual", Name: s, Variant: s}, Image: STOImage{Type: "docker_v2", Domain: s, Name: s, Tag: s, AccessToken: s},
						Auth: STOAuth{AccessID: s, AccessToken: s}, Settings: map[string]string{"docker_mode": s}, Advanced: STOAdvanced{FailOnSeverity: s, Log: STOLog{Level: "info"}}}}}}}},
			}},
		}}}},
	}}
}

// Marshal writes exactly what yaml.v3 writes, for strings inside and
// outside the fast subset: every scalar style, literal blocks, map key
// order, empty mappings and sequences, omitted fields.
func TestMarshalMatchesYAMLv3(t *testing.T) {
	cases := []string{
		"plain", "with space", "<+input>.allowedValues(a,b)", `prod_<+<+pipeline.variables.r>.replace("-", "_")>_k8s`,
		"", " leading", "trailing ", "true", "True", "yes", "NO", "~", "null", "10:00", "1.5", "0x1F", "123",
		"- dash", "-dash", "? q", ":colon", "a: b", "a:b", "a #b", "a#b", "#c", "'q'", `"q"`, "[x]", "{x}", "*a", "&a", "!t", "|", ">",
		"%p", "@a", "`b", "tab\there", "ünïcode", "line1\nline2", "line1\nline2\n", "line1\n\nline3\n", "a\n\n", "\nlead", " a\nb",
		"trailing \nspace", "x\r\ny", "---", "...", "a,b", "https://example.com/x?y=1&z=2", strings.Repeat("long ", 40),
	}
	rng := rand.New(rand.NewSource(1))
	alphabet := []byte("aZ_-:# \n'\"<>+.,/0123456789\t")
	for i := 0; i < 2000; i++ {
		b := make([]byte, rng.Intn(12))
		for j := range b {
			b[j] = alphabet[rng.Intn(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	fast := 0
	for _, s := range cases {
		doc := sample(s)
		want, err := MarshalYAMLv3(doc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("string %q:\n--- Marshal\n%s\n--- yaml.v3\n%s", s, got, want)
		}
		e := encoder{buf: &bytes.Buffer{}}
		if e.document(refl(doc)) {
			fast++
		}
	}
	if fast < 10 {
		t.Fatalf("only %d of %d documents took the fast path", fast, len(cases))
	}
	t.Logf("%d of %d documents took the fast path", fast, len(cases))
}

func TestMapKeyOrder(t *testing.T) {
	keys := []string{"a_b", "aB", "a-b", "ab", "a", "Z", "z", "managed-by", "managedby", "m_x", "mX"}
	m := map[string]string{}
	for _, k := range keys {
		m[k] = "v"
	}
	// map[string]any and map[string]string are read directly; any other
	// map with string keys through reflection.
	type named map[string]int
	counts, typed := map[string]int{}, named{}
	for i, k := range keys {
		counts[k], typed[k] = i, i
	}
	for _, doc := range []any{
		map[string]any{"tags": m},
		map[string]any{"counts": counts, "typed": typed, "any": map[string]any{"b": "x", "a": map[string]any{"d": 1, "c": []any{"y"}}}},
	} {
		want, _ := MarshalYAMLv3(doc)
		got, _ := Marshal(doc)
		if !bytes.Equal(got, want) {
			t.Fatalf("key order:\n%s\nyaml.v3:\n%s", got, want)
		}
	}
}

func refl(v any) reflect.Value { return reflect.ValueOf(v) }
