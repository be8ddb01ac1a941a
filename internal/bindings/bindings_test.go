package bindings_test

import (
	"bufio"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/company/harness-platform/harness/provider"
	"github.com/company/harness-platform/internal/bindings"
)

// The table of this package is exactly the generator's list.
func TestCoversTheList(t *testing.T) {
	f, err := os.Open("../../harness/bindings.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var listed []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if line = strings.TrimSpace(line); line != "" {
			listed = append(listed, line)
		}
	}
	slices.Sort(listed)
	have := slices.Sorted(maps.Keys(bindings.Resources))
	if !slices.Equal(listed, have) {
		t.Errorf("harness/bindings.txt lists %v;\nbindings.Resources has %v", listed, have)
	}
}

// Every binding's token is the provider's, every input it can send is one
// the provider knows, and every required input can be set.
func TestBindingsMatchProviderFacts(t *testing.T) {
	facts, err := provider.LoadFacts()
	if err != nil {
		t.Fatal(err)
	}
	if len(bindings.Resources) < 15 {
		t.Fatalf("only %d bindings registered", len(bindings.Resources))
	}
	for token, b := range bindings.Resources {
		res, ok := facts.Resources[token]
		if !ok {
			t.Errorf("%s: not a token of the provider", token)
			continue
		}
		elem := b.Args.(interface{ ElementType() reflect.Type }).ElementType()
		fields := map[string]bool{}
		for i := 0; i < elem.NumField(); i++ {
			name := strings.Split(elem.Field(i).Tag.Get("pulumi"), ",")[0]
			fields[name] = true
			if _, ok := res.Inputs[name]; !ok {
				t.Errorf("%s: binding sends unknown input %q", token, name)
			}
			if _, ok := reflect.TypeOf(b.Args).FieldByName(elem.Field(i).Name); !ok {
				t.Errorf("%s: Args lacks field %s", token, elem.Field(i).Name)
			}
		}
		for _, req := range res.RequiredInputs {
			if !fields[req] {
				t.Errorf("%s: required input %q cannot be set", token, req)
			}
		}
		if got := reflect.TypeOf(b.New()).Elem().Name(); got != token[strings.LastIndex(token, ":")+1:] {
			t.Errorf("%s: New makes a %s", token, got)
		}
	}
}
