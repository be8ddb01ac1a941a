package core

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync/atomic"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/company/harness-platform/apibudget"
)

// Provider is a simulated resource provider served to the engine over
// gRPC: the engine's calls, the store, who may call (Reach) and the
// budgets, the same for every service; what differs is its Behavior's.
type Provider struct {
	pulumirpc.UnimplementedResourceProviderServer

	name, version string
	cloud         *Cloud
	behavior      Behavior
	observers     *Observers
	reach         *atomic.Pointer[Reach]
	meters        *Meters
}

// Config is a Provider's.
type Config struct {
	// Name and Version are the provider's (its package, "harness", and
	// the version of the real provider it stands in for).
	Name, Version string
	// Cloud is its store; Behavior its service's.
	Cloud    *Cloud
	Behavior Behavior
	// Reach is who calls, and from where (nil: everything reaches).
	Reach *atomic.Pointer[Reach]
	// Meters are its service's budgets (nil: not budgeted); a Behavior
	// that is not Budgeted waits a spent budget out.
	Meters *Meters
	// Observers are told what it does (nil: none).
	Observers *Observers
}

// NewProvider is a Provider of c.
func NewProvider(c Config) *Provider {
	return &Provider{name: c.Name, version: c.Version, cloud: c.Cloud, behavior: c.Behavior,
		observers: c.Observers, reach: c.Reach, meters: c.Meters}
}

func (p *Provider) resourceID(typ, key string, props resource.PropertyMap) string {
	if a, ok := p.behavior.(Addressed); ok {
		return a.ResourceID(typ, key, props)
	}
	return key
}

func (p *Provider) keyOf(typ, id string, props resource.PropertyMap) (string, error) {
	if a, ok := p.behavior.(Addressed); ok {
		return a.KeyOf(typ, id, props)
	}
	return id, nil
}

var opts = plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, KeepOutputValues: false, SkipNulls: true}

// Unmarshal reads properties as the providers receive them (unknowns and
// secrets kept, nulls skipped).
func Unmarshal(s *structpb.Struct) (resource.PropertyMap, error) {
	m, err := plugin.UnmarshalProperties(s, opts)
	if m == nil {
		m = resource.PropertyMap{}
	}
	return m, err
}

// Marshal writes properties as the providers send them.
func Marshal(m resource.PropertyMap) (*structpb.Struct, error) {
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
	if c, ok := p.behavior.(Configurer); ok {
		// What the provider's configuration meets before any call, given
		// who calls and from where.
		args, err := plugin.UnmarshalProperties(req.GetArgs(), plugin.MarshalOptions{KeepUnknowns: true, SkipNulls: true})
		if err != nil {
			return nil, err
		}
		if err := c.Configure(args, req.GetVariables(), LoadReach(p.reach)); err != nil {
			return nil, err
		}
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
	news, err := Unmarshal(req.GetNews())
	if err != nil {
		return nil, err
	}
	checked, failures := p.behavior.Check(req.GetType(), req.GetName(), news)
	inputs, err := Marshal(checked)
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
	olds, err := Unmarshal(req.GetOldInputs())
	if err != nil {
		return nil, err
	}
	inputsOnly := len(olds) > 0
	if !inputsOnly {
		if olds, err = Unmarshal(req.GetOlds()); err != nil {
			return nil, err
		}
	}
	news, err := Unmarshal(req.GetNews())
	if err != nil {
		return nil, err
	}
	var outs resource.PropertyMap
	if inputsOnly {
		if outs, err = Unmarshal(req.GetOlds()); err != nil {
			return nil, err
		}
	}
	changed := changedKeys(olds, news, inputsOnly, func(key string) bool {
		k, ok := p.behavior.(UnsetKeeper)
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

// outputs are the inputs plus what the provider computes; in a preview the
// computed ones are unknown.
func (p *Provider) outputs(typ, id string, news resource.PropertyMap, preview bool) resource.PropertyMap {
	out := news.Copy()
	if l, ok := p.behavior.(Live); ok {
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
	news, err := Unmarshal(req.GetProperties())
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
		if rec, ok := p.cloud.Get(key); ok && p.purged(typ, rec) {
			if err := p.cloud.Delete(key); err != nil {
				return nil, err
			}
		} else if ok {
			if d, ok := p.behavior.(DuplicateRefuser); ok {
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
		if err := p.save(typ, req.GetName(), key, nil, news, out); err != nil {
			return nil, err
		}
		p.observers.created(p.name, key)
	}
	props, err := Marshal(out)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CreateResponse{Id: id, Properties: props}, nil
}

func (p *Provider) Read(_ context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	if err := p.refused(); err != nil {
		return nil, err
	}
	known, err := Unmarshal(req.GetProperties())
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
	if g, ok := p.behavior.(ReadGuard); ok {
		if err := g.CheckRead(typ, known, LoadReach(p.reach)); err != nil {
			return nil, err
		}
	}
	rec, ok := p.cloud.Get(key)
	if !ok {
		return &pulumirpc.ReadResponse{}, nil // gone
	}
	state := FromStored(rec.Properties, known)
	oldInputs, err := Unmarshal(req.GetInputs())
	if err != nil {
		return nil, err
	}
	inputs := resource.PropertyMap{}
	for k := range oldInputs {
		if v, ok := state[k]; ok {
			inputs[k] = v
		}
	}
	if r, ok := p.behavior.(InputReader); ok {
		if in, ok := r.ReadInputs(typ, state, oldInputs); ok {
			inputs = in
		}
	}
	if a, ok := p.behavior.(Addressed); ok && len(known) == 0 && len(oldInputs) == 0 {
		inputs = a.ImportedInputs(typ, state) // an import
	}
	props, err := Marshal(state)
	if err != nil {
		return nil, err
	}
	ins, err := Marshal(inputs)
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
	news, err := Unmarshal(req.GetNews())
	if err != nil {
		return nil, err
	}
	typ := req.GetType()
	olds, err := Unmarshal(req.GetOlds())
	if err != nil {
		return nil, err
	}
	key, err := p.keyOf(typ, req.GetId(), olds)
	if err != nil {
		return nil, err
	}
	out := p.outputs(typ, key, news, req.GetPreview())
	if k, ok := p.behavior.(ComputedKeeper); ok && req.GetPreview() && k.KeepsComputed(typ) {
		for name, v := range out {
			if old, held := olds[name]; held && v.IsComputed() {
				out[name] = old
			}
		}
	}
	if !req.GetPreview() {
		if err := p.spend(typ, apibudget.Update, req.GetUrn()); err != nil {
			return nil, err
		}
		if _, ok := p.cloud.Get(key); !ok {
			return nil, fmt.Errorf("%s %q was deleted outside Pulumi; run a refresh", typ, req.GetId())
		}
		if err := p.save(typ, req.GetName(), key, olds, news, out); err != nil {
			return nil, err
		}
		p.observers.updated(p.name, key)
	}
	props, err := Marshal(out)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.UpdateResponse{Properties: props}, nil
}

func (p *Provider) Invoke(_ context.Context, req *pulumirpc.InvokeRequest) (*pulumirpc.InvokeResponse, error) {
	if err := p.refused(); err != nil {
		return nil, err
	}
	args, err := Unmarshal(req.GetArgs())
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
	ret, err := Marshal(out)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.InvokeResponse{Return: ret}, nil
}

var errNoInvoke = errors.New("no such invoke")

// save stores an object a create (olds nil) or an update writes, as the
// service does: after what it refuses of the object (checkSave) and of
// the write (checkWrite), then what the service does once it holds it
// (Storer).
func (p *Provider) save(typ, name, key string, olds, news, out resource.PropertyMap) error {
	if err := p.checkSave(typ, news); err != nil {
		return err
	}
	if err := p.checkWrite(typ, name, olds, news); err != nil {
		return err
	}
	if err := p.cloud.Put(key, Record{Type: typ, Name: name, Properties: toStored(out)}); err != nil {
		return err
	}
	if s, ok := p.behavior.(Storer); ok {
		return s.Stored(typ, key, p.cloud)
	}
	return nil
}

// refused is the service's refusal of every call, given who calls it
// (Reach).
func (p *Provider) refused() error {
	if r, ok := p.behavior.(Refuser); ok {
		return r.Refusal(LoadReach(p.reach))
	}
	return nil
}

// answer answers an invoke: from the cloud (a lookup or listing of what
// the service holds), or as the Behavior's own.
func (p *Provider) answer(token string, args resource.PropertyMap) (resource.PropertyMap, error) {
	if c, ok := p.behavior.(CloudInvoker); ok {
		if out, answered, err := c.CloudInvoke(token, args, p.cloud); answered {
			return out, err
		}
	}
	if inv, ok := p.behavior.(Invoker); ok {
		return inv.Invoke(token, args)
	}
	return nil, fmt.Errorf("the simulated %s provider answers no invoke (%s): %w", p.name, token, errNoInvoke)
}

func (p *Provider) checkWrite(typ, name string, olds, news resource.PropertyMap) error {
	if g, ok := p.behavior.(WriteGuard); ok {
		return g.CheckWrite(typ, name, olds, news, LoadReach(p.reach))
	}
	return nil
}

func (p *Provider) checkSave(typ string, news resource.PropertyMap) error {
	if g, ok := p.behavior.(SaveGuard); ok {
		return g.CheckSave(typ, news, p.cloud)
	}
	return nil
}

func (p *Provider) Delete(_ context.Context, req *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	if err := p.refused(); err != nil {
		return nil, err
	}
	olds, err := Unmarshal(req.GetProperties())
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
	if g, ok := p.behavior.(DeleteGuard); ok {
		if err := g.CheckDelete(req.GetType(), key, p.cloud); err != nil {
			return nil, err
		}
	}
	if r, ok := p.behavior.(Revoker); ok {
		if handled, err := r.Revoke(req.GetType(), key, p.cloud); handled || err != nil {
			if err == nil {
				p.observers.deleted(p.name, key)
			}
			return &emptypb.Empty{}, err
		}
	}
	if err := p.cloud.Delete(key); err != nil {
		return nil, err
	}
	p.observers.deleted(p.name, key)
	return &emptypb.Empty{}, nil
}

// purged reports a record the service kept after its deletion and has
// since removed (Revoker).
func (p *Provider) purged(typ string, rec Record) bool {
	r, ok := p.behavior.(Revoker)
	return ok && r.Purged(typ, rec)
}

// spend spends, before p answers op on a resource of typ, the calls the
// real provider would send (Meters.Spend).
func (p *Provider) spend(typ string, op apibudget.Op, urn string) error {
	if p.meters == nil {
		return nil
	}
	b, ok := p.behavior.(Budgeted)
	if !ok {
		b = waitOut{}
	}
	return p.meters.Spend(b, typ, op, urn)
}

// waitOut is the client of a Behavior that is not Budgeted: it waits a
// spent budget out, however long.
type waitOut struct{}

func (waitOut) Backoff(_ string, _ apibudget.Op, _ int, _ apibudget.Budget, wait time.Duration) (time.Duration, error) {
	return wait, nil
}
