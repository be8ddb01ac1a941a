package core

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// Str is the string property k of m ("" when it is not a string).
func Str(m resource.PropertyMap, k string) string {
	if v, ok := m[resource.PropertyKey(k)]; ok && v.IsString() {
		return v.StringValue()
	}
	return ""
}

// ShortHash is a stable suffix for generated names.
func ShortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}

// GeneratedID is the id a service generates for the object of type typ
// that Pulumi names name: the name and a stable suffix.
func GeneratedID(typ, name string) string { return name + "-" + ShortHash(typ+name) }

// UnknownType is a provider's refusal of a type it does not serve: a new
// type is simulated on purpose, not by accident.
func UnknownType(provider, typ string) []*pulumirpc.CheckFailure {
	return []*pulumirpc.CheckFailure{{Reason: fmt.Sprintf("unknown resource type %q: the simulated %s provider does not serve it", typ, provider)}}
}

// MissingRequired are the refusals, in a bridged provider's words, of
// the required paths news leaves unset; a dotted path is required
// whenever its enclosing object is given.
func MissingRequired(news resource.PropertyMap, required []string) []*pulumirpc.CheckFailure {
	var failures []*pulumirpc.CheckFailure
	for _, path := range required {
		if missing(news, strings.Split(path, ".")) {
			failures = append(failures, &pulumirpc.CheckFailure{Property: path, Reason: fmt.Sprintf("Missing required argument: %q is required", path)})
		}
	}
	return failures
}

// missing reports a required path whose last key is absent while its
// enclosing object is given (an absent parent is reported on its own, if
// it is required); an unknown value (a preview's output) counts as given.
func missing(m resource.PropertyMap, path []string) bool {
	v, ok := m[resource.PropertyKey(path[0])]
	if len(path) == 1 {
		return !ok || v.IsNull()
	}
	if !ok || v.IsNull() {
		return false
	}
	for v.IsSecret() {
		v = v.SecretValue().Element
	}
	if !v.IsObject() {
		return false
	}
	return missing(v.ObjectValue(), path[1:])
}

// WithoutComputed is state without the properties computed holds: an
// imported object's inputs, for a provider whose importer sets the
// inputs it reads.
func WithoutComputed(state, computed resource.PropertyMap) resource.PropertyMap {
	out := state.Copy()
	for k := range computed {
		delete(out, k)
	}
	return out
}

// KeyIsID is embedded in a Behavior whose objects' ids are their store
// keys, and an import ID the id (Addressed, with ImportedInputs).
type KeyIsID struct{}

// ResourceID: an object's id is its store key.
func (KeyIsID) ResourceID(_, key string, _ resource.PropertyMap) string { return key }

// KeyOf: an object's id is its store key, and an import ID is the id.
func (KeyIsID) KeyOf(_, id string, _ resource.PropertyMap) (string, error) { return id, nil }
