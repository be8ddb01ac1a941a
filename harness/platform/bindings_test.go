package platform_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/company/harness-platform/harness/platform"
	"github.com/company/harness-platform/harness/provider"
)

// Every binding's token is the provider's, every input it can send is one
// the provider knows, and every required input can be set.
func TestBindingsMatchProviderFacts(t *testing.T) {
	facts, err := provider.LoadFacts()
	if err != nil {
		t.Fatal(err)
	}
	if len(platform.Resources) < 15 {
		t.Fatalf("only %d bindings registered", len(platform.Resources))
	}
	for token, args := range platform.Resources {
		res, ok := facts.Resources[token]
		if !ok {
			t.Errorf("%s: not a token of the provider", token)
			continue
		}
		elem := args.(interface{ ElementType() reflect.Type }).ElementType()
		fields := map[string]bool{}
		for i := 0; i < elem.NumField(); i++ {
			name := strings.Split(elem.Field(i).Tag.Get("pulumi"), ",")[0]
			fields[name] = true
			if _, ok := res.Inputs[name]; !ok {
				t.Errorf("%s: binding sends unknown input %q", token, name)
			}
			// Public Args must have the same field, as the official SDK does.
			if _, ok := reflect.TypeOf(args).FieldByName(elem.Field(i).Name); !ok {
				t.Errorf("%s: Args lacks field %s", token, elem.Field(i).Name)
			}
		}
		for _, req := range res.RequiredInputs {
			if !fields[req] {
				t.Errorf("%s: required input %q cannot be set", token, req)
			}
		}
	}
}
