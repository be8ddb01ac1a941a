package harness

import (
	"errors"
	"fmt"
	"maps"
	"sort"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/company/harness-platform/preflight"
	"github.com/company/harness-platform/simulated/core"
)

// Delegate tokens. The provider deletes a token by revoking it
// (terraform-provider-harness resource_delegateToken.go: its DeleteContext
// is resourceDelegateTokenRevoke). A revoked token stops working at once
// and is purged 30 days later; until then its name is taken: "Revoked
// tokens immediately stop functioning and are only purged after 30 days,
// meaning you cannot recreate a token with the same name within that
// period" (the resource's documentation, harness_platform_delegatetoken).
// Creating a token under a held name fails with harness-core's
// InvalidRequestException (DelegateNgTokenServiceImpl.createToken);
// revoking one twice, likewise (validateTokenToBeRevoked).

// DelegateTokenType is the delegate token's resource type.
const DelegateTokenType = "harness:platform/delegatetoken:Delegatetoken"

// RevokedTokenTTL is how long Harness keeps a revoked token's name.
const RevokedTokenTTL = 30 * 24 * time.Hour

// RevokedAtKey is where a revoked token's record holds when it was
// revoked (RFC 3339); tests age it to move past the purge.
const RevokedAtKey = "revokedAt"

// Revoke revokes a delegate token instead of deleting it.
func (Behavior) Revoke(typ, key string, cloud *core.Cloud) (bool, error) {
	if typ != DelegateTokenType {
		return false, nil
	}
	rec, ok := cloud.Get(key)
	if !ok {
		return true, invalidRequest("Specified token does not exist.")
	}
	if rec.Properties["tokenStatus"] == "REVOKED" {
		return true, invalidRequest("Specified token is already revoked.")
	}
	rec.Properties = maps.Clone(rec.Properties)
	rec.Properties["tokenStatus"] = "REVOKED"
	rec.Properties[RevokedAtKey] = time.Now().UTC().Format(time.RFC3339)
	return true, cloud.Put(key, rec)
}

// Purged reports a revoked token past its 30 days: Harness has removed
// it, and its name is free.
func (Behavior) Purged(typ string, r core.Record) bool {
	if typ != DelegateTokenType {
		return false
	}
	at, revoked := revokedAt(r)
	return revoked && time.Since(at) >= RevokedTokenTTL
}

// Duplicate is Harness's refusal of a delegate token whose name is held,
// active or revoked; other types get the default.
func (Behavior) Duplicate(typ, _ string, _ resource.PropertyMap) error {
	if typ == DelegateTokenType {
		return invalidRequest("Token with given name already exists for given account, org and project")
	}
	return nil
}

func invalidRequest(msg string) error {
	return fmt.Errorf(`400 Bad Request: {"status":"ERROR","code":"INVALID_REQUEST","message":%q}`, msg)
}

func revokedAt(r core.Record) (time.Time, bool) {
	s, _ := r.Properties[RevokedAtKey].(string)
	if s == "" {
		return time.Time{}, false
	}
	at, err := time.Parse(time.RFC3339, s)
	return at, err == nil
}

// DelegateTokens is Harness's answer to GET /ng/api/delegate-token-ng
// (the account's tokens, active and revoked, as preflight lists them).
func DelegateTokens(r core.Reach, cloud *core.Cloud, account string) ([]preflight.DelegateToken, error) {
	if err := CheckKey(r, account); err != nil {
		return nil, err
	}
	if cloud == nil {
		return nil, errors.New("the simulated Harness holds no store")
	}
	var out []preflight.DelegateToken
	for _, rec := range cloud.OfType(DelegateTokenType) {
		if (Behavior{}).Purged(DelegateTokenType, rec) {
			continue
		}
		// What Harness's list says: the name and status, not when a
		// revoked token was revoked (preflight.DelegateToken).
		out = append(out, preflight.DelegateToken{Name: fmt.Sprint(rec.Properties["name"]), Status: fmt.Sprint(rec.Properties["tokenStatus"])})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// TokenDigest is the digest (core.SecretDigest) of the active delegate
// token named name, as a store holds a copy of it; false when Harness
// holds no such active token.
func TokenDigest(cloud *core.Cloud, name string) (string, bool) {
	for key, rec := range cloud.OfType(DelegateTokenType) {
		if rec.Properties["name"] == name && rec.Properties["tokenStatus"] == "ACTIVE" {
			return core.SecretDigest(DelegateToken(key)), true
		}
	}
	return "", false
}
