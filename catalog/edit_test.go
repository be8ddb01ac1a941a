package catalog

import (
	"strings"
	"testing"
)

func TestSetTokenGeneration(t *testing.T) {
	const file = `config:
  # the regions
  harness-platform:regions:
    - name: euw1   # Ireland
      networkCidr: 10.1.0.0/17
    - name: euw2
      delegateTokenGeneration: 2 # rotated
      networkCidr: 10.1.128.0/17
`
	got, err := SetTokenGeneration([]byte(file), "Pulumi.dev.yaml", "euw1", 2)
	if err != nil {
		t.Fatal(err)
	}
	want := `config:
  # the regions
  harness-platform:regions:
    - name: euw1   # Ireland
      delegateTokenGeneration: 2
      networkCidr: 10.1.0.0/17
    - name: euw2
      delegateTokenGeneration: 2 # rotated
      networkCidr: 10.1.128.0/17
`
	if string(got) != want {
		t.Errorf("added:\n%s\nwant:\n%s", got, want)
	}
	got, err = SetTokenGeneration([]byte(file), "Pulumi.dev.yaml", "euw2", 13)
	if err != nil {
		t.Fatal(err)
	}
	if want := `      delegateTokenGeneration: 13 # rotated`; !strings.Contains(string(got), want) || len(got) != len(file)+1 {
		t.Errorf("replaced:\n%s\nwant a line %q", got, want)
	}
	if _, err := SetTokenGeneration([]byte(file), "Pulumi.dev.yaml", "use1", 2); err == nil || err.Error() != "Pulumi.dev.yaml: no region use1 in harness-platform:regions" {
		t.Errorf("unknown region: %v", err)
	}
}
