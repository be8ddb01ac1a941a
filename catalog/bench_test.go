package catalog_test

import (
	"fmt"
	"testing"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/internal/catalogtest"
)

// BenchmarkLoad parses and validates the catalog and the stack files.
func BenchmarkLoad(b *testing.B) {
	for _, n := range []int{100, 1000, 5000} {
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			files, err := catalogtest.Synthetic("..", n)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := catalog.Parse(files); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
