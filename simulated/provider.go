package simulated

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

// Behavior is what differs between the simulated providers.
type Behavior interface {
	// Check returns the provider's refusals of a resource's inputs, and
	// the inputs as the provider returns them (defaults filled in).
	Check(typ, name string, news resource.PropertyMap) (resource.PropertyMap, []*pulumirpc.CheckFailure)
	// ID names a new cloud object; the same inputs give the same id.
	ID(typ, name string, news resource.PropertyMap) string
	// Computed are the outputs the provider adds to the inputs.
	Computed(typ, id string, news resource.PropertyMap) resource.PropertyMap
	// Replaces lists the changed inputs whose change replaces the object.
	Replaces(typ string, olds, news resource.PropertyMap, changed []string) []string
}

// Provider is a simulated resource provider served to the engine over
// gRPC.
type Provider struct {
	pulumirpc.UnimplementedResourceProviderServer

	name, version string
	cloud         *Cloud
	behavior      Behavior
	hooks         *hooks
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
func (p *Provider) Configure(context.Context, *pulumirpc.ConfigureRequest) (*pulumirpc.ConfigureResponse, error) {
	if err := p.cloud.Reload(); err != nil {
		return nil, err
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
// change; otherwise olds are the old outputs, and only inputs count.
func changedKeys(olds, news resource.PropertyMap, inputsOnly bool) []string {
	keys := map[resource.PropertyKey]bool{}
	for k := range news {
		keys[k] = true
	}
	for k := range olds {
		if _, isInput := news[k]; isInput || inputsOnly {
			keys[k] = true
		}
	}
	var out []string
	for k := range keys {
		o, n := olds[k], news[k]
		if n.ContainsUnknowns() || !o.DeepEquals(n) {
			out = append(out, string(k))
		}
	}
	sort.Strings(out)
	return out
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
	changed := changedKeys(olds, news, inputsOnly)
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
	for k, v := range p.behavior.Computed(typ, id, news) {
		if preview {
			v = resource.MakeComputed(resource.NewStringProperty(""))
		}
		out[k] = v
	}
	return out
}

func (p *Provider) Create(_ context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	news, err := unmarshal(req.GetProperties())
	if err != nil {
		return nil, err
	}
	typ := req.GetType()
	id := p.behavior.ID(typ, req.GetName(), news)
	out := p.outputs(typ, id, news, req.GetPreview())
	if !req.GetPreview() {
		if _, ok := p.cloud.Get(id); ok {
			// Harness refuses a second entity of one type with one
			// identifier in one scope ("Entity name and Id rules",
			// docs.harness.io/article/7rsydu6iq2); so does this simulation,
			// for every provider. An object an interrupted up created is
			// taken back into the state by `platformctl recover`.
			return nil, fmt.Errorf("%s: DUPLICATE_FIELD: an entity with identifier %q already exists in this scope; "+
				"if an interrupted up created it, run `platformctl recover --stack STACK` (pulumi refresh --import-pending-creates URN ID)", typ, id)
		}
		if err := p.cloud.Put(id, Record{Type: typ, Name: req.GetName(), Properties: toStored(out)}); err != nil {
			return nil, err
		}
		if p.hooks != nil {
			p.hooks.afterCreate(p.name, id)
		}
	}
	props, err := marshal(out)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CreateResponse{Id: id, Properties: props}, nil
}

func (p *Provider) Read(_ context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	rec, ok := p.cloud.Get(req.GetId())
	if !ok {
		return &pulumirpc.ReadResponse{}, nil // gone
	}
	known, err := unmarshal(req.GetProperties())
	if err != nil {
		return nil, err
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
	props, err := marshal(state)
	if err != nil {
		return nil, err
	}
	ins, err := marshal(inputs)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.ReadResponse{Id: req.GetId(), Properties: props, Inputs: ins}, nil
}

func (p *Provider) Update(_ context.Context, req *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error) {
	news, err := unmarshal(req.GetNews())
	if err != nil {
		return nil, err
	}
	typ := req.GetType()
	out := p.outputs(typ, req.GetId(), news, req.GetPreview())
	if !req.GetPreview() {
		if _, ok := p.cloud.Get(req.GetId()); !ok {
			return nil, fmt.Errorf("%s %q was deleted outside Pulumi; run a refresh", typ, req.GetId())
		}
		if err := p.cloud.Put(req.GetId(), Record{Type: typ, Name: req.GetName(), Properties: toStored(out)}); err != nil {
			return nil, err
		}
	}
	props, err := marshal(out)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.UpdateResponse{Properties: props}, nil
}

// invoker is a Behavior that answers invokes (lookups).
type invoker interface {
	Invoke(token string, args resource.PropertyMap) (resource.PropertyMap, error)
}

func (p *Provider) Invoke(_ context.Context, req *pulumirpc.InvokeRequest) (*pulumirpc.InvokeResponse, error) {
	inv, ok := p.behavior.(invoker)
	if !ok {
		return nil, fmt.Errorf("the simulated %s provider answers no invoke (%s)", p.name, req.GetTok())
	}
	args, err := unmarshal(req.GetArgs())
	if err != nil {
		return nil, err
	}
	out, err := inv.Invoke(req.GetTok(), args)
	if err != nil {
		return &pulumirpc.InvokeResponse{Failures: []*pulumirpc.CheckFailure{{Reason: err.Error()}}}, nil
	}
	ret, err := marshal(out)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.InvokeResponse{Return: ret}, nil
}

// deleteGuard is a Behavior that refuses some deletions, as the real
// service refuses to delete an object others still reference.
type deleteGuard interface {
	CheckDelete(typ, id string, cloud *Cloud) error
}

func (p *Provider) Delete(_ context.Context, req *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	if g, ok := p.behavior.(deleteGuard); ok {
		if err := g.CheckDelete(req.GetType(), req.GetId(), p.cloud); err != nil {
			return nil, err
		}
	}
	return &emptypb.Empty{}, p.cloud.Delete(req.GetId())
}

// shortHash is a stable suffix for generated names.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}
