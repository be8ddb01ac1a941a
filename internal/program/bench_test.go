package program

import (
	"fmt"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/platform"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/mocktest"
)

var sizes = []int{100, 1000, 5000}

func synthetic(b *testing.B, n int) *catalog.Catalog {
	files, err := catalogtest.Synthetic("../..", n)
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
			b.ReportAllocs()
			b.ResetTimer()
			total := 0
			for i := 0; i < b.N; i++ {
				total = 0
				for _, stack := range c.Chain {
					rec, err := runStack(b, c, stack, false)
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

// BenchmarkFloor registers as many resources as BenchmarkProgram does, with
// no logic: the cost of the Pulumi SDK and mocks alone. Program/Floor is
// the program's overhead.
func BenchmarkFloor(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			c := synthetic(b, n)
			counts := map[string]int{}
			for _, stack := range c.Chain {
				rec, err := runStack(b, c, stack, false)
				if err != nil {
					b.Fatal(err)
				}
				counts[stack] = len(rec.Resources())
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, stack := range c.Chain {
					floor := func(ctx *pulumi.Context) error {
						for j := 0; j < counts[stack]; j++ {
							id := fmt.Sprintf("r%d", j)
							if _, err := platform.NewService(ctx, id, &platform.ServiceArgs{Identifier: pulumi.String(id)}); err != nil {
								return err
							}
						}
						return nil
					}
					rec := &mocktest.Recorder{StackOutputs: map[string]resource.PropertyMap{}}
					if err := mocktest.Run(floor, stack, rec); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(counts["dev"]+counts["staging"]+counts["production"]), "resources/op")
		})
	}
}
