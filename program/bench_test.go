package program

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/platform"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/mocktest"
	"github.com/company/harness-platform/plan"
)

var sizes = []int{100, 1000, 5000}

func synthetic(b *testing.B, n int) *catalog.Catalog {
	files, err := catalogtest.Synthetic("..", n)
	if err != nil {
		b.Fatal(err)
	}
	c, err := catalog.Parse(files)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkProgram runs the whole program under mocks for dev, staging and
// production; resources/op is what the three stacks register.
func BenchmarkProgram(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			c := synthetic(b, n)
			deployed := deployedChain(c)
			b.ReportAllocs()
			b.ResetTimer()
			total := 0
			for i := 0; i < b.N; i++ {
				total = 0
				for _, stack := range c.Chain {
					rec, err := runWith(deployed, c, stack, false)
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
			c := synthetic(b, n)
			replays := map[string]pulumi.RunFunc{}
			total := 0
			for _, stack := range c.Chain {
				rec, err := runStack(b, c, stack, false)
				if err != nil {
					b.Fatal(err)
				}
				replays[stack] = replay(rec.Resources())
				total += len(rec.Resources())
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, stack := range c.Chain {
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

// BenchmarkPlan computes the plans of the three stacks, without Pulumi.
func BenchmarkPlan(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			c := synthetic(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, stack := range c.Chain {
					if _, err := plan.Build(c, stack); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// replay is a program that registers what was recorded, in order, with
// its inputs converted once, before timing.
func replay(recorded []mocktest.Registered) pulumi.RunFunc {
	regs := make([]registration, len(recorded))
	for i, r := range recorded {
		regs[i] = registration{r.Type, r.Name, r.Parent, r.Custom, toInputs(r.Inputs)}
	}
	return func(ctx *pulumi.Context) error {
		// On a goroutine of its own, as the program declares.
		done := make(chan error, 1)
		go func() { done <- replayOn(ctx, regs) }()
		return <-done
	}
}

type registration struct {
	typ, name, parent string
	custom            bool
	inputs            pulumi.Map
}

func replayOn(ctx *pulumi.Context, regs []registration) error {
	components := map[string]pulumi.Resource{}
	for _, r := range regs {
		var opts []pulumi.ResourceOption
		if p, ok := components[componentKey(r.parent)]; ok {
			opts = append(opts, pulumi.Parent(p))
		}
		if r.custom {
			// The same Go resource type the bindings register.
			res := platform.NewState(r.typ)
			if res == nil {
				res = &pulumi.CustomResourceState{}
			}
			if err := ctx.RegisterResource(r.typ, r.name, r.inputs, res, opts...); err != nil {
				return err
			}
			continue
		}
		var res pulumi.ResourceState
		if err := ctx.RegisterComponentResource(r.typ, r.name, &res, opts...); err != nil {
			return err
		}
		components[r.typ+"::"+r.name] = &res
	}
	return nil
}

// componentKey is "type::name" of a component's URN.
func componentKey(urn string) string {
	parts := strings.Split(urn, "::")
	if len(parts) != 4 {
		return ""
	}
	typ := parts[2][strings.LastIndex(parts[2], "$")+1:]
	return typ + "::" + parts[3]
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
