package simulated

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync/atomic"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/company/harness-platform/apibudget"
	"github.com/company/harness-platform/harness/importid"
)

// Behavior is what differs between the simulated providers.
type Behavior interface {
	// Check returns the provider's refusals of a resource's inputs, and
	// the inputs as the provider returns them (defaults filled in).
	Check(typ, name string, news resource.PropertyMap) (resource.PropertyMap, []*pulumirpc.CheckFailure)
	// ID names a new cloud object in the store; the same inputs give the
	// same key. It is also the object's id unless the Behavior is
	// addressed.
	ID(typ, name string, news resource.PropertyMap) string
	// Computed are the outputs the provider adds to the inputs.
	Computed(typ, id string, news resource.PropertyMap) resource.PropertyMap
	// Replaces lists the changed inputs whose change replaces the object.
	Replaces(typ string, olds, news resource.PropertyMap, changed []string) []string
}

// addressed is a Behavior whose provider reports ids that are not where
// the store keeps its objects: the Harness provider's id is an object's
// bare identifier, unique only within its type and scope.
type addressed interface {
	// ResourceID is the id the provider reports for the object stored
	// under key with these properties.
	ResourceID(typ, key string, props resource.PropertyMap) string
	// KeyOf finds the store key of the object with id: from its
	// properties when the engine passes them (refresh, update, delete),
	// else (an import) from id read as the provider's import ID.
	KeyOf(typ, id string, props resource.PropertyMap) (string, error)
	// ImportedInputs are the inputs the provider reports for an
	// imported object: its inputs as its state holds them.
	ImportedInputs(typ string, state resource.PropertyMap) resource.PropertyMap
}

func (p *Provider) resourceID(typ, key string, props resource.PropertyMap) string {
	if a, ok := p.behavior.(addressed); ok {
		return a.ResourceID(typ, key, props)
	}
	return key
}

func (p *Provider) keyOf(typ, id string, props resource.PropertyMap) (string, error) {
	if a, ok := p.behavior.(addressed); ok {
		return a.KeyOf(typ, id, props)
	}
	return id, nil
}

// Provider is a simulated resource provider served to the engine over
// gRPC.
type Provider struct {
	pulumirpc.UnimplementedResourceProviderServer

	name, version string
	cloud         *Cloud
	behavior      Behavior
	hooks         *hooks
	reach         *atomic.Pointer[Reach]
	aws           *Cloud  // the simulated AWS, where a cluster's endpoint access is (Kubernetes only)
	meters        *meters // Harness and GitHub only
	// githubOwner is the organisation the GitHub provider was last
	// configured for (GitHub's URLs name it; the simulation holds one).
	githubOwner atomic.Value
}

var opts = plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, KeepOutputValues: false, SkipNulls: true}

func unmarshal(s *structpb.Struct) (resource.PropertyMap, error) {
	m, err := plugin.UnmarshalProperties(s, opts)
	if m == nil {
		m = resource.PropertyMap{}
	}
	return m, err
}

func marshal(m resource.PropertyMap) (*structpb.Struct, error) {
	return plugin.MarshalProperties(m, opts)
}

func (p *Provider) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: p.version}, nil
}

func (p *Provider) Attach(context.Context, *pulumirpc.PluginAttach) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

func (p *Provider) Handshake(context.Context, *pulumirpc.ProviderHandshakeRequest) (*pulumirpc.ProviderHandshakeResponse, error) {
	return &pulumirpc.ProviderHandshakeResponse{AcceptSecrets: true, AcceptResources: true}, nil
}

func (p *Provider) CheckConfig(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	return &pulumirpc.CheckResponse{Inputs: req.GetNews()}, nil
}

func (p *Provider) DiffConfig(context.Context, *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	return &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE}, nil
}

// Configure starts an engine operation: the cloud is read again so that
// out-of-band edits are seen.
func (p *Provider) Configure(_ context.Context, req *pulumirpc.ConfigureRequest) (*pulumirpc.ConfigureResponse, error) {
	if err := p.cloud.Reload(); err != nil {
		return nil, err
	}
	if err := p.configureRefusal(req); err != nil {
		return nil, err
	}
	if owner := req.GetArgs().GetFields()["owner"].GetStringValue(); p.name == "github" && owner != "" {
		p.githubOwner.Store(owner)
	}
	return &pulumirpc.ConfigureResponse{AcceptSecrets: true, SupportsPreview: true, AcceptResources: true}, nil
}

func (p *Provider) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

func (p *Provider) GetSchema(context.Context, *pulumirpc.GetSchemaRequest) (*pulumirpc.GetSchemaResponse, error) {
	return &pulumirpc.GetSchemaResponse{Schema: fmt.Sprintf(`{"name":%q,"version":%q}`, p.name, p.version)}, nil
}

func (p *Provider) Check(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	news, err := unmarshal(req.GetNews())
	if err != nil {
		return nil, err
	}
	checked, failures := p.behavior.Check(req.GetType(), req.GetName(), news)
	inputs, err := marshal(checked)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CheckResponse{Inputs: inputs, Failures: failures}, nil
}

// changedKeys are the inputs whose values differ between olds and news.
// With inputsOnly, olds are the old inputs, and an input that is gone is a
// change unless keepsUnset says the provider keeps its value or its value
// was a zero value; otherwise olds are the old outputs, and only inputs
// count.
//
// As in a bridged Terraform (SDKv2) provider's diff, a zero value ("",
// false, 0, [], {}) equals unset: SDKv2 cannot tell them apart, and its
// state holds every attribute of a block. And as there, an input the old
// inputs leave out (an imported object's, whose defaults the bridge
// elides) is compared with the object's state, outs: Terraform plans the
// configuration against the prior state, not against the inputs.
func changedKeys(olds, news resource.PropertyMap, inputsOnly bool, keepsUnset func(string) bool, outs resource.PropertyMap) []string {
	keys := map[resource.PropertyKey]bool{}
	for k := range news {
		keys[k] = true
	}
	for k, v := range olds {
		if _, isInput := news[k]; isInput || inputsOnly && !keepsUnset(string(k)) && !isZero(v) {
			keys[k] = true
		}
	}
	var out []string
	for k := range keys {
		o, n := olds[k], news[k]
		if _, ok := olds[k]; !ok && inputsOnly {
			o = outs[k]
		}
		if n.ContainsUnknowns() || !equalUpToZero(o, n, string(k), keepsUnset) {
			out = append(out, string(k))
		}
	}
	sort.Strings(out)
	return out
}

// equalUpToZero reports whether old and new values a and b (at path:
// principals[].scopeLevel) are equal, a property of an object that one
// side leaves unset and the other holds as a zero value counting as
// equal, and one that the new value leaves unset counting as equal if
// keepsUnset says the provider keeps it (an optional computed one).
func equalUpToZero(a, b resource.PropertyValue, path string, keepsUnset func(string) bool) bool {
	switch {
	case a.IsNull() && isZero(b) || b.IsNull() && isZero(a):
		// Unset on one side, a zero value on the other: an imported
		// object's inputs elide zero values the program may declare.
		return true
	case a.IsObject() && b.IsObject():
		am, bm := a.ObjectValue(), b.ObjectValue()
		for k, v := range am {
			at := path + "." + string(k)
			if w, ok := bm[k]; ok && !equalUpToZero(v, w, at, keepsUnset) || !ok && !isZero(v) && !keepsUnset(at) {
				return false
			}
		}
		for k, w := range bm {
			if _, ok := am[k]; !ok && !isZero(w) {
				return false
			}
		}
		return true
	case a.IsArray() && b.IsArray():
		av, bv := a.ArrayValue(), b.ArrayValue()
		if len(av) != len(bv) {
			return false
		}
		for i := range av {
			if !equalUpToZero(av[i], bv[i], path+"[]", keepsUnset) {
				return false
			}
		}
		return true
	}
	return a.DeepEquals(b)
}

// isZero reports whether v is null or a zero value.
func isZero(v resource.PropertyValue) bool {
	switch {
	case v.IsNull():
		return true
	case v.IsString():
		return v.StringValue() == ""
	case v.IsBool():
		return !v.BoolValue()
	case v.IsNumber():
		return v.NumberValue() == 0
	case v.IsArray():
		return len(v.ArrayValue()) == 0
	case v.IsObject():
		for _, e := range v.ObjectValue() {
			if !isZero(e) {
				return false
			}
		}
		return true
	}
	return false
}

func (p *Provider) Diff(_ context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	olds, err := unmarshal(req.GetOldInputs())
	if err != nil {
		return nil, err
	}
	inputsOnly := len(olds) > 0
	if !inputsOnly {
		if olds, err = unmarshal(req.GetOlds()); err != nil {
			return nil, err
		}
	}
	news, err := unmarshal(req.GetNews())
	if err != nil {
		return nil, err
	}
	var outs resource.PropertyMap
	if inputsOnly {
		if outs, err = unmarshal(req.GetOlds()); err != nil {
			return nil, err
		}
	}
	changed := changedKeys(olds, news, inputsOnly, func(key string) bool {
		k, ok := p.behavior.(unsetKeeper)
		return ok && k.KeepsUnset(req.GetType(), key)
	}, outs)
	changed = slices.DeleteFunc(changed, func(k string) bool { return slices.Contains(req.GetIgnoreChanges(), k) })
	if len(changed) == 0 {
		return &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE}, nil
	}
	replaces := p.behavior.Replaces(req.GetType(), olds, news, changed)
	// Harness identifiers are unique: the old object must go first.
	return &pulumirpc.DiffResponse{
		Changes:             pulumirpc.DiffResponse_DIFF_SOME,
		Diffs:               changed,
		Replaces:            replaces,
		DeleteBeforeReplace: len(replaces) > 0,
	}, nil
}

// storer is a behaviour whose service changes other objects when it
// stores one (Stored: after the object at key is written).
type storer interface {
	Stored(typ, key string, cloud *Cloud) error
}

// live is a behaviour whose service stores an object otherwise than it
// was given (Live: the object as stored, from the inputs).
type live interface {
	Live(typ string, inputs resource.PropertyMap) resource.PropertyMap
}

// outputs are the inputs plus what the provider computes; in a preview the
// computed ones are unknown.
func (p *Provider) outputs(typ, id string, news resource.PropertyMap, preview bool) resource.PropertyMap {
	out := news.Copy()
	if l, ok := p.behavior.(live); ok {
		out = l.Live(typ, out)
	}
	for k, v := range p.behavior.Computed(typ, id, news) {
		if _, input := news[k]; preview && !input {
			v = resource.MakeComputed(resource.NewStringProperty(""))
		}
		out[k] = v
	}
	return out
}

func (p *Provider) Create(_ context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	// A preview asks the service nothing.
	if err := p.refused(); err != nil && !req.GetPreview() {
		return nil, err
	}
	news, err := unmarshal(req.GetProperties())
	if err != nil {
		return nil, err
	}
	typ := req.GetType()
	key := p.behavior.ID(typ, req.GetName(), news)
	id := p.resourceID(typ, key, news)
	out := p.outputs(typ, key, news, req.GetPreview())
	if !req.GetPreview() {
		if err := p.spend(typ, apibudget.Create, req.GetUrn()); err != nil {
			return nil, err
		}
		if _, ok := p.cloud.Get(key); ok {
			if d, ok := p.behavior.(duplicateRefuser); ok {
				if err := d.Duplicate(typ, id, news); err != nil {
					return nil, err
				}
			}
			// Harness refuses a second entity of one type with one
			// identifier in one scope ("Entity name and Id rules",
			// docs.harness.io/article/7rsydu6iq2); so does this simulation,
			// for every provider. An object an interrupted up created is
			// taken back into the state by `platformctl recover`.
			// (The engine says what to do: adopt it, or recover.)
			return nil, fmt.Errorf("%s: DUPLICATE_FIELD: an entity with identifier %q already exists in this scope", typ, id)
		}
		if err := p.checkSave(typ, news); err != nil {
			return nil, err
		}
		if err := p.checkWrite(typ, req.GetName(), nil, news); err != nil {
			return nil, err
		}
		if err := p.cloud.Put(key, Record{Type: typ, Name: req.GetName(), Properties: toStored(out)}); err != nil {
			return nil, err
		}
		if s, ok := p.behavior.(storer); ok {
			if err := s.Stored(typ, key, p.cloud); err != nil {
				return nil, err
			}
		}
		if p.hooks != nil {
			p.hooks.afterCreate(p.name, key)
		}
	}
	props, err := marshal(out)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CreateResponse{Id: id, Properties: props}, nil
}

func (p *Provider) Read(_ context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	if err := p.refused(); err != nil {
		return nil, err
	}
	known, err := unmarshal(req.GetProperties())
	if err != nil {
		return nil, err
	}
	typ := req.GetType()
	if typ == "" {
		typ = string(resource.URN(req.GetUrn()).Type())
	}
	key, err := p.keyOf(typ, req.GetId(), known)
	if err != nil {
		return nil, err
	}
	if err := p.spend(typ, apibudget.Read, req.GetUrn()); err != nil {
		return nil, err
	}
	if p.name == "github" {
		owner, _ := p.githubOwner.Load().(string)
		if err := loadReach(p.reach).githubRead(typ, known, owner); err != nil {
			return nil, err
		}
	}
	rec, ok := p.cloud.Get(key)
	if !ok {
		return &pulumirpc.ReadResponse{}, nil // gone
	}
	state := fromStored(rec.Properties, known)
	oldInputs, err := unmarshal(req.GetInputs())
	if err != nil {
		return nil, err
	}
	inputs := resource.PropertyMap{}
	for k := range oldInputs {
		if v, ok := state[k]; ok {
			inputs[k] = v
		}
	}
	if in, ok := state["__inputs"]; ok && in.IsObject() && len(oldInputs) > 0 {
		// The real Kubernetes provider reads its inputs back from the
		// ones it recorded beside the live object (which, for a Secret,
		// has data where the inputs had stringData).
		inputs = in.ObjectValue().Copy()
	}
	if a, ok := p.behavior.(addressed); ok && len(known) == 0 && len(oldInputs) == 0 {
		inputs = a.ImportedInputs(typ, state) // an import
	}
	props, err := marshal(state)
	if err != nil {
		return nil, err
	}
	ins, err := marshal(inputs)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.ReadResponse{Id: p.resourceID(typ, key, state), Properties: props, Inputs: ins}, nil
}

func (p *Provider) Update(_ context.Context, req *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error) {
	// A preview asks the service nothing.
	if err := p.refused(); err != nil && !req.GetPreview() {
		return nil, err
	}
	news, err := unmarshal(req.GetNews())
	if err != nil {
		return nil, err
	}
	typ := req.GetType()
	olds, err := unmarshal(req.GetOlds())
	if err != nil {
		return nil, err
	}
	key, err := p.keyOf(typ, req.GetId(), olds)
	if err != nil {
		return nil, err
	}
	out := p.outputs(typ, key, news, req.GetPreview())
	if !req.GetPreview() {
		if err := p.spend(typ, apibudget.Update, req.GetUrn()); err != nil {
			return nil, err
		}
		if _, ok := p.cloud.Get(key); !ok {
			return nil, fmt.Errorf("%s %q was deleted outside Pulumi; run a refresh", typ, req.GetId())
		}
		if err := p.checkSave(typ, news); err != nil {
			return nil, err
		}
		if err := p.checkWrite(typ, req.GetName(), olds, news); err != nil {
			return nil, err
		}
		if err := p.cloud.Put(key, Record{Type: typ, Name: req.GetName(), Properties: toStored(out)}); err != nil {
			return nil, err
		}
		if s, ok := p.behavior.(storer); ok {
			if err := s.Stored(typ, key, p.cloud); err != nil {
				return nil, err
			}
		}
	}
	props, err := marshal(out)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.UpdateResponse{Properties: props}, nil
}

// unsetKeeper is a Behavior whose provider keeps the value of some inputs
// a configuration leaves unset (Terraform's optional computed ones).
type unsetKeeper interface {
	KeepsUnset(typ, key string) bool
}

// invoker is a Behavior that answers invokes (lookups).
type invoker interface {
	Invoke(token string, args resource.PropertyMap) (resource.PropertyMap, error)
}

// cloudInvoker is a Behavior that answers some invokes from what the
// cloud holds; answered is false for the others.
type cloudInvoker interface {
	CloudInvoke(token string, args resource.PropertyMap, cloud *Cloud) (out resource.PropertyMap, answered bool, err error)
}

// duplicateRefuser is a Behavior whose service words its refusal of an
// object that exists (nil: the default, Harness's).
type duplicateRefuser interface {
	Duplicate(typ, id string, news resource.PropertyMap) error
}

func (p *Provider) Invoke(_ context.Context, req *pulumirpc.InvokeRequest) (*pulumirpc.InvokeResponse, error) {
	if err := p.refused(); err != nil {
		return nil, err
	}
	args, err := unmarshal(req.GetArgs())
	if err != nil {
		return nil, err
	}
	// A lookup (getTeam, a list for import) is a read, in a preview too.
	if err := p.spend(req.GetTok(), apibudget.Read, req.GetTok()); err != nil {
		return nil, err
	}
	out, err := p.answer(req.GetTok(), args)
	if errors.Is(err, errNoInvoke) {
		return nil, err
	}
	if err != nil {
		return &pulumirpc.InvokeResponse{Failures: []*pulumirpc.CheckFailure{{Reason: err.Error()}}}, nil
	}
	ret, err := marshal(out)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.InvokeResponse{Return: ret}, nil
}

var errNoInvoke = errors.New("no such invoke")

// refused is the service's refusal of every call, given who calls it
// (Reach).
func (p *Provider) refused() error { return refusal(p.name, loadReach(p.reach)) }

// answer answers an invoke: from the cloud, as a provider's lookup or
// listing, or as the Behavior's own.
func (p *Provider) answer(token string, args resource.PropertyMap) (resource.PropertyMap, error) {
	if c, ok := p.behavior.(cloudInvoker); ok {
		if out, answered, err := c.CloudInvoke(token, args, p.cloud); answered {
			return out, err
		}
	}
	if typ, ok := p.lookedUp(token); ok {
		return p.lookup(typ, args)
	}
	if l, ok := p.listing(token); ok {
		return p.list(l, args), nil
	}
	if inv, ok := p.behavior.(invoker); ok {
		return inv.Invoke(token, args)
	}
	return nil, fmt.Errorf("the simulated %s provider answers no invoke (%s): %w", p.name, token, errNoInvoke)
}

// lookedUp is the resource type a lookup token reads, for an addressed
// Behavior's types (package importid: the provider's data sources).
func (p *Provider) lookedUp(token string) (string, bool) {
	if _, ok := p.behavior.(addressed); !ok {
		return "", false
	}
	return importid.LookedUp(token)
}

// lookup answers a lookup as the provider's data source: the object's
// state with its id, or a not-found error.
func (p *Provider) lookup(typ string, args resource.PropertyMap) (resource.PropertyMap, error) {
	key := p.behavior.ID(typ, "", args)
	rec, ok := p.cloud.Get(key)
	if !ok {
		return nil, fmt.Errorf("%s: RESOURCE_NOT_FOUND: %s not found", typ, p.resourceID(typ, key, args))
	}
	state := fromStored(rec.Properties, nil)
	for k, v := range state {
		if v.IsSecret() {
			delete(state, k) // a lookup does not return what Harness never shows
		}
	}
	state["id"] = resource.NewStringProperty(p.resourceID(typ, key, state))
	return state, nil
}

// listing is the list data source a token names, for an addressed
// Behavior's types (importid.Listings).
func (p *Provider) listing(token string) (importid.Listing, bool) {
	if _, ok := p.behavior.(addressed); !ok {
		return importid.Listing{}, false
	}
	return importid.ListingOf(token)
}

// defaultPageSize is the Harness API's page size when a listing does not
// page (platform_environment_list).
const defaultPageSize = 100

// list answers a listing as the provider's data source: one page of the
// identifiers and names of the objects of its type in the scope its
// arguments name, sorted by identifier; an empty list has no id (the data
// source sets it to "").
func (p *Provider) list(l importid.Listing, args resource.PropertyMap) resource.PropertyMap {
	var items []map[string]string
	for _, rec := range p.cloud.OfType(l.Type) {
		inScope := true
		for _, k := range []string{"orgId", "projectId"} {
			want := ""
			if slices.Contains(l.Scope, k) {
				want = str(args, k)
			}
			if got, _ := rec.Properties[k].(string); got != want {
				inScope = false
			}
		}
		if inScope {
			id, _ := rec.Properties["identifier"].(string)
			name, _ := rec.Properties["name"].(string)
			items = append(items, map[string]string{"identifier": id, "name": name})
		}
	}
	sort.Slice(items, func(i, j int) bool { return items[i]["identifier"] < items[j]["identifier"] })
	page, size := 0, defaultPageSize
	if l.Page != "" {
		if v, ok := args[resource.PropertyKey(l.Page)]; ok && v.IsNumber() {
			page = int(v.NumberValue())
		}
		if v, ok := args[resource.PropertyKey(l.Size)]; ok && v.IsNumber() {
			size = int(v.NumberValue())
		}
	}
	from, to := min(page*size, len(items)), min((page+1)*size, len(items))
	out := args.Copy()
	var list []resource.PropertyValue
	for _, it := range items[from:to] {
		list = append(list, resource.NewObjectProperty(resource.NewPropertyMapFromMap(map[string]any{
			"identifier": it["identifier"], "name": it["name"]})))
	}
	out["id"] = resource.NewStringProperty("")
	if len(list) > 0 {
		out[resource.PropertyKey(l.Field)] = resource.NewArrayProperty(list)
		out["id"] = resource.NewStringProperty(shortHash(l.Token + fmt.Sprint(args)))
	}
	return out
}

// saveGuard is a Behavior that refuses some creations and updates, as the
// real service refuses an object that names others it cannot use.
type saveGuard interface {
	CheckSave(typ string, news resource.PropertyMap, cloud *Cloud) error
}

// writeGuard is a Behavior whose service refuses some creates and
// updates for what they change, not only for what they name: EKS's
// versions (olds is nil for a create).
type writeGuard interface {
	CheckWrite(typ, name string, olds, news resource.PropertyMap) error
}

func (p *Provider) checkWrite(typ, name string, olds, news resource.PropertyMap) error {
	if g, ok := p.behavior.(writeGuard); ok {
		if err := g.CheckWrite(typ, name, olds, news); err != nil {
			return err
		}
	}
	if p.name == "github" {
		owner, _ := p.githubOwner.Load().(string)
		return loadReach(p.reach).githubWrite(typ, news, owner, olds == nil)
	}
	return nil
}

func (p *Provider) checkSave(typ string, news resource.PropertyMap) error {
	if g, ok := p.behavior.(saveGuard); ok {
		return g.CheckSave(typ, news, p.cloud)
	}
	return nil
}

// deleteGuard is a Behavior that refuses some deletions, as the real
// service refuses to delete an object others still reference.
type deleteGuard interface {
	CheckDelete(typ, id string, cloud *Cloud) error
}

func (p *Provider) Delete(_ context.Context, req *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	if err := p.refused(); err != nil {
		return nil, err
	}
	olds, err := unmarshal(req.GetProperties())
	if err != nil {
		return nil, err
	}
	key, err := p.keyOf(req.GetType(), req.GetId(), olds)
	if err != nil {
		return nil, err
	}
	if err := p.spend(req.GetType(), apibudget.Delete, req.GetUrn()); err != nil {
		return nil, err
	}
	if g, ok := p.behavior.(deleteGuard); ok {
		if err := g.CheckDelete(req.GetType(), key, p.cloud); err != nil {
			return nil, err
		}
	}
	return &emptypb.Empty{}, p.cloud.Delete(key)
}

// shortHash is a stable suffix for generated names.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}
