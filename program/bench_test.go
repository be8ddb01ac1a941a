package program

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/cloudwatch"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/ec2"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/eks"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/kms"
	"github.com/pulumi/pulumi-github/sdk/v6/go/github"
	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes"
	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/apiextensions"
	corev1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/core/v1"
	helmv3 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/helm/v3"
	networkingv1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/networking/v1"
	rbacv1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/rbac/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/internal/bindings"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/mocktest"
	"github.com/company/harness-platform/plan"
)

var sizes = []int{100, 1000, 5000}

// BenchmarkProgram runs the whole program under mocks for every stack of
// dev, staging and production as an engine session (platformctl's) runs
// them: one program for the chain, reading each service stack's outputs
// once (the session's ReadOutputs); resources/op is what they register.
func BenchmarkProgram(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			c := catalogtest.SyntheticCatalog(b, "..", n)
			deployed := deployedChain(c)
			b.ReportAllocs()
			b.ResetTimer()
			total := 0
			for i := 0; i < b.N; i++ {
				settle(b)
				total = 0
				var read sync.Map
				prog := New(c.Files(), ReadOutputs(func(stack string, outputs func() (map[string]any, error)) (map[string]any, error) {
					if v, ok := read.Load(stack); ok {
						return v.(map[string]any), nil
					}
					v, err := outputs()
					if err == nil {
						read.Store(stack, v)
					}
					return v, err
				}))
				for _, stack := range c.Chain {
					rec, err := runProgram(prog, deployed, c, stack, false)
					if err != nil {
						b.Fatal(err)
					}
					total += len(rec.Resources())
				}
			}
			b.ReportMetric(float64(total), "resources/op")
		})
	}
}

// BenchmarkFloor replays the program's registrations with no logic: the
// same types (token and Go resource struct), names, parents and input
// values, registered under the same mocks. Program/Floor is the program's
// own cost.
func BenchmarkFloor(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			c := catalogtest.SyntheticCatalog(b, "..", n)
			replays := map[string]pulumi.RunFunc{}
			total := 0
			for _, stack := range c.AllStacks() {
				rec := mustRunOne(b, c, stack)
				replays[stack] = replay(stack, rec.Resources())
				total += len(rec.Resources())
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				settle(b)
				for _, stack := range c.AllStacks() {
					rec := &mocktest.Recorder{StackOutputs: map[string]resource.PropertyMap{}}
					if err := mocktest.Run(replays[stack], stack, rec); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(total), "resources/op")
		})
	}
}

// settle collects the last iteration's garbage outside the timer, so that
// each iteration of BenchmarkProgram and BenchmarkFloor starts from the
// same heap: otherwise a collection that one iteration leaves behind is
// paid by the next (the floor moved by a quarter between runs).
func settle(b *testing.B) {
	b.StopTimer()
	runtime.GC()
	b.StartTimer()
}

// BenchmarkPlan computes the plans of every stack, without Pulumi.
func BenchmarkPlan(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			c := catalogtest.SyntheticCatalog(b, "..", n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, stack := range c.AllStacks() {
					if _, err := plan.Build(c, stack); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// replay is a program that registers what was recorded, in order, with
// its inputs converted once, before timing, and every registration
// option the program gave: parent, explicit provider, dependencies,
// protect, retain-on-delete and provider version.
func replay(stack string, recorded []mocktest.Registered) pulumi.RunFunc {
	regs := make([]registration, len(recorded))
	for i, r := range recorded {
		regs[i] = registration{Registered: r, urn: r.URN(stack), inputs: toInputs(r.Inputs)}
	}
	return func(ctx *pulumi.Context) error {
		// On a goroutine of its own, as the program declares.
		done := make(chan error, 1)
		go func() { done <- replayOn(ctx, regs) }()
		return <-done
	}
}

type registration struct {
	mocktest.Registered
	urn    string
	inputs pulumi.Map
}

// states are the Go resource types of the non-Harness resources the
// program registers (the Harness ones come from bindings.NewState).
var states = map[string]func() pulumi.Resource{
	"pulumi:providers:aws":                                                 func() pulumi.Resource { return &aws.Provider{} },
	"pulumi:providers:kubernetes":                                          func() pulumi.Resource { return &kubernetes.Provider{} },
	"aws:ec2/vpc:Vpc":                                                      func() pulumi.Resource { return &ec2.Vpc{} },
	"aws:ec2/internetGateway:InternetGateway":                              func() pulumi.Resource { return &ec2.InternetGateway{} },
	"aws:ec2/subnet:Subnet":                                                func() pulumi.Resource { return &ec2.Subnet{} },
	"aws:ec2/routeTable:RouteTable":                                        func() pulumi.Resource { return &ec2.RouteTable{} },
	"aws:ec2/routeTableAssociation:RouteTableAssociation":                  func() pulumi.Resource { return &ec2.RouteTableAssociation{} },
	"aws:ec2/eip:Eip":                                                      func() pulumi.Resource { return &ec2.Eip{} },
	"aws:ec2/natGateway:NatGateway":                                        func() pulumi.Resource { return &ec2.NatGateway{} },
	"aws:ec2/securityGroup:SecurityGroup":                                  func() pulumi.Resource { return &ec2.SecurityGroup{} },
	"aws:ec2/vpcEndpoint:VpcEndpoint":                                      func() pulumi.Resource { return &ec2.VpcEndpoint{} },
	"aws:cloudwatch/logGroup:LogGroup":                                     func() pulumi.Resource { return &cloudwatch.LogGroup{} },
	"aws:kms/key:Key":                                                      func() pulumi.Resource { return &kms.Key{} },
	"aws:iam/role:Role":                                                    func() pulumi.Resource { return &iam.Role{} },
	"aws:iam/rolePolicyAttachment:RolePolicyAttachment":                    func() pulumi.Resource { return &iam.RolePolicyAttachment{} },
	"aws:iam/openIdConnectProvider:OpenIdConnectProvider":                  func() pulumi.Resource { return &iam.OpenIdConnectProvider{} },
	"aws:eks/cluster:Cluster":                                              func() pulumi.Resource { return &eks.Cluster{} },
	"aws:eks/accessEntry:AccessEntry":                                      func() pulumi.Resource { return &eks.AccessEntry{} },
	"aws:eks/accessPolicyAssociation:AccessPolicyAssociation":              func() pulumi.Resource { return &eks.AccessPolicyAssociation{} },
	"aws:eks/nodeGroup:NodeGroup":                                          func() pulumi.Resource { return &eks.NodeGroup{} },
	"aws:eks/addon:Addon":                                                  func() pulumi.Resource { return &eks.Addon{} },
	"kubernetes:core/v1:Namespace":                                         func() pulumi.Resource { return &corev1.Namespace{} },
	"kubernetes:core/v1:Secret":                                            func() pulumi.Resource { return &corev1.Secret{} },
	"kubernetes:core/v1:ResourceQuota":                                     func() pulumi.Resource { return &corev1.ResourceQuota{} },
	"kubernetes:core/v1:LimitRange":                                        func() pulumi.Resource { return &corev1.LimitRange{} },
	"kubernetes:networking.k8s.io/v1:NetworkPolicy":                        func() pulumi.Resource { return &networkingv1.NetworkPolicy{} },
	"kubernetes:helm.sh/v3:Release":                                        func() pulumi.Resource { return &helmv3.Release{} },
	"kubernetes:rbac.authorization.k8s.io/v1:RoleBinding":                  func() pulumi.Resource { return &rbacv1.RoleBinding{} },
	"kubernetes:rbac.authorization.k8s.io/v1:ClusterRole":                  func() pulumi.Resource { return &rbacv1.ClusterRole{} },
	"kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding":           func() pulumi.Resource { return &rbacv1.ClusterRoleBinding{} },
	"kubernetes:external-secrets.io/v1:ExternalSecret":                     func() pulumi.Resource { return &apiextensions.CustomResource{} },
	"kubernetes:external-secrets.io/v1:SecretStore":                        func() pulumi.Resource { return &apiextensions.CustomResource{} },
	"aws:iam/rolePolicy:RolePolicy":                                        func() pulumi.Resource { return &iam.RolePolicy{} },
	"pulumi:providers:github":                                              func() pulumi.Resource { return &github.Provider{} },
	"github:index/actionsRunnerGroup:ActionsRunnerGroup":                   func() pulumi.Resource { return &github.ActionsRunnerGroup{} },
	"github:index/repositoryEnvironment:RepositoryEnvironment":             func() pulumi.Resource { return &github.RepositoryEnvironment{} },
	"github:index/actionsOrganizationVariable:ActionsOrganizationVariable": func() pulumi.Resource { return &github.ActionsOrganizationVariable{} },
	"github:index/actionsOrganizationSecret:ActionsOrganizationSecret":     func() pulumi.Resource { return &github.ActionsOrganizationSecret{} },
	"github:index/branchProtectionV3:BranchProtectionV3":                   func() pulumi.Resource { return &github.BranchProtectionV3{} },
	"github:index/repositoryFile:RepositoryFile":                           func() pulumi.Resource { return &github.RepositoryFile{} },
	"github:index/teamRepository:TeamRepository":                           func() pulumi.Resource { return &github.TeamRepository{} },
}

func newState(typ string) (pulumi.Resource, error) {
	if res := bindings.NewState(typ); res != nil {
		return res, nil
	}
	if f, ok := states[typ]; ok {
		return f(), nil
	}
	return nil, fmt.Errorf("the floor has no Go type for %s: add it to states", typ)
}

func replayOn(ctx *pulumi.Context, regs []registration) error {
	byURN := map[string]pulumi.Resource{}
	for _, r := range regs {
		var opts []pulumi.ResourceOption
		if p, ok := byURN[r.Parent]; ok {
			opts = append(opts, pulumi.Parent(p))
		}
		if r.Provider != "" {
			urn := r.Provider[:strings.LastIndex(r.Provider, "::")] // URN::id
			p, ok := byURN[urn].(pulumi.ProviderResource)
			if !ok {
				return fmt.Errorf("%s: provider %s not replayed", r.urn, r.Provider)
			}
			opts = append(opts, pulumi.Provider(p))
		}
		if len(r.Dependencies) > 0 {
			deps := make([]pulumi.Resource, 0, len(r.Dependencies))
			for _, d := range r.Dependencies {
				res, ok := byURN[d]
				if !ok {
					return fmt.Errorf("%s: dependency %s not replayed", r.urn, d)
				}
				deps = append(deps, res)
			}
			opts = append(opts, pulumi.DependsOn(deps))
		}
		if r.Protect {
			opts = append(opts, pulumi.Protect(true))
		}
		if r.RetainOnDelete {
			opts = append(opts, pulumi.RetainOnDelete(true))
		}
		if r.Version != "" {
			opts = append(opts, pulumi.Version(r.Version))
		}
		if len(r.Aliases) > 0 {
			opts = append(opts, pulumi.Aliases(aliases(r.Aliases)))
		}
		if len(r.AdditionalSecretOutputs) > 0 {
			opts = append(opts, pulumi.AdditionalSecretOutputs(r.AdditionalSecretOutputs))
		}
		if len(r.IgnoreChanges) > 0 {
			opts = append(opts, pulumi.IgnoreChanges(r.IgnoreChanges))
		}
		if len(r.ReplaceOnChanges) > 0 {
			opts = append(opts, pulumi.ReplaceOnChanges(r.ReplaceOnChanges))
		}
		if r.DeleteBeforeReplace {
			opts = append(opts, pulumi.DeleteBeforeReplace(true))
		}
		if !r.Custom {
			var res pulumi.ResourceState
			if err := ctx.RegisterComponentResource(r.Type, r.Name, &res, opts...); err != nil {
				return err
			}
			byURN[r.urn] = &res
			continue
		}
		res, err := newState(r.Type)
		if err != nil {
			return err
		}
		if err := ctx.RegisterResource(r.Type, r.Name, r.inputs, res.(pulumi.CustomResource), opts...); err != nil {
			return err
		}
		byURN[r.urn] = res
	}
	return nil
}

// aliases are the recorded aliases as the options that give them.
func aliases(recorded []mocktest.Alias) []pulumi.Alias {
	out := make([]pulumi.Alias, len(recorded))
	str := func(s string) pulumi.StringInput {
		if s == "" {
			return nil
		}
		return pulumi.String(s)
	}
	for i, a := range recorded {
		if a.URN != "" {
			out[i] = pulumi.Alias{URN: pulumi.URN(a.URN)}
			continue
		}
		out[i] = pulumi.Alias{Name: str(a.Name), Type: str(a.Type), Project: str(a.Project), Stack: str(a.Stack)}
		if a.ParentURN != "" {
			out[i].ParentURN = pulumi.URN(a.ParentURN)
		} else if a.NoParent {
			out[i].NoParent = pulumi.Bool(true)
		}
	}
	return out
}

// toInputs converts recorded inputs back to the values a program passes,
// secrets included.
func toInputs(m resource.PropertyMap) pulumi.Map {
	out := make(pulumi.Map, len(m))
	for k, v := range m {
		out[string(k)] = toInput(v)
	}
	return out
}

func toInput(v resource.PropertyValue) pulumi.Input {
	switch {
	case v.IsSecret():
		return pulumi.ToSecret(toInput(v.SecretValue().Element))
	case v.IsString():
		return pulumi.String(v.StringValue())
	case v.IsBool():
		return pulumi.Bool(v.BoolValue())
	case v.IsNumber():
		return pulumi.Float64(v.NumberValue())
	case v.IsArray():
		arr := make(pulumi.Array, len(v.ArrayValue()))
		for i, e := range v.ArrayValue() {
			arr[i] = toInput(e)
		}
		return arr
	case v.IsObject():
		return toInputs(v.ObjectValue())
	}
	return nil
}

// The floor is fair only if it registers exactly what the program does:
// the same types, names, parents, inputs and options.
func TestFloorReplaysTheProgram(t *testing.T) {
	c := example(t)
	for _, stack := range c.AllStacks() {
		want := mustRunOne(t, c, stack).Resources()
		rec := &mocktest.Recorder{StackOutputs: map[string]resource.PropertyMap{}}
		if err := mocktest.Run(replay(stack, want), stack, rec); err != nil {
			t.Fatal(err)
		}
		got := rec.Resources()
		// Registrations reach the monitor in the order their inputs
		// resolve: compare them by URN.
		byURN := func(a, b mocktest.Registered) int { return strings.Compare(a.URN(stack), b.URN(stack)) }
		slices.SortFunc(want, byURN)
		slices.SortFunc(got, byURN)
		if len(got) != len(want) {
			t.Fatalf("%s: the floor registers %d resources, the program %d", stack, len(got), len(want))
		}
		for i := range want {
			w, g := want[i], got[i]
			if !w.Inputs.DeepEquals(g.Inputs) {
				t.Errorf("%s: registration %d's inputs differ:\nprogram %v\n  floor %v", stack, i, w.Inputs, g.Inputs)
			}
			w.Inputs, g.Inputs = nil, nil
			if !reflect.DeepEqual(w, g) {
				t.Errorf("%s: registration %d differs:\nprogram %+v\n  floor %+v", stack, i, w, g)
			}
		}
	}
}
