package ident

import (
	"strings"
	"testing"
)

func TestFrom(t *testing.T) {
	for in, want := range map[string]string{
		"payment-service": "payment_service",
		"int-stable":      "int_stable",
		"a.b c":           "a_b_c",
		"already_ok":      "already_ok",
	} {
		if got := From(in); got != want {
			t.Errorf("From(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCheck(t *testing.T) {
	valid := []string{"payment_service", "_x", "a$b", strings.Repeat("a", 128)}
	for _, id := range valid {
		if err := Check(id); err != nil {
			t.Errorf("Check(%q) = %v, want nil", id, err)
		}
	}
	invalid := map[string]string{
		"":                       "empty",
		"9lives":                 "must start",
		"a-b":                    "must start",
		"status":                 "reserves",
		"stepGroup":              "reserves",
		strings.Repeat("a", 129): "at most 128",
	}
	for id, want := range invalid {
		err := Check(id)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Check(%q) = %v, want error containing %q", id, err, want)
		}
	}
}

func TestCheckDNSLabel(t *testing.T) {
	if err := CheckDNSLabel("prod-payment-service-euw1"); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"Payment", "a_b", "-a", strings.Repeat("a", 64)} {
		if CheckDNSLabel(bad) == nil {
			t.Errorf("CheckDNSLabel(%q) = nil, want error", bad)
		}
	}
}

// A deploy-stage template's identifier: the archetype mapped as every
// identifier is, the strategy in lower case, verification a suffix.
func TestDeployTemplate(t *testing.T) {
	if got := DeployTemplate("web-api", "prod", "Canary", true); got != "deploy_web_api_prod_canary_verified" {
		t.Errorf("got %s", got)
	}
	if got := DeployTemplate("worker", "dev", "Rolling", false); got != "deploy_worker_dev_rolling" {
		t.Errorf("got %s", got)
	}
}
