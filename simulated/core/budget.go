package core

import (
	"sync"
	"sync/atomic"

	"github.com/company/harness-platform/apibudget"
)

// Meters are a budgeted service's meter (apibudget.Meter: its budgets,
// its simulated clock, what was spent and waited), shared by the
// Provider that spends and whoever reads what was spent. The zero value
// has no meter: nothing is counted.
type Meters struct {
	meter atomic.Pointer[apibudget.Meter]
	// A Paced client sends one request at a time: serial holds the
	// next until the last, and its pause, are done.
	serial sync.Mutex
	last   apibudget.Calls
}

// Store makes m enforce (and count with) meter from now on.
func (m *Meters) Store(meter *apibudget.Meter) { m.meter.Store(meter) }

// Load is the meter m enforces (nil: none).
func (m *Meters) Load() *apibudget.Meter { return m.meter.Load() }

// Spend spends, before a provider answers op on a resource of typ, the
// calls the real provider would send, waiting as its client would when a
// budget is spent (b's Backoff and, when b is Paced, its pauses between
// calls). With no budgets it only counts: nothing waits or is refused.
func (m *Meters) Spend(b Budgeted, typ string, op apibudget.Op, urn string) error {
	if m == nil {
		return nil
	}
	meter := m.meter.Load()
	c := apibudget.Of(typ, op)
	if meter == nil || c.IsZero() {
		return nil
	}
	if len(meter.Budgets()) == 0 {
		_, _ = meter.Spend(urn, c) // counting only: nothing is refused
		return nil
	}
	if p, ok := b.(Paced); ok {
		m.serial.Lock()
		defer m.serial.Unlock()
		if d := p.Pause(m.last); d > 0 {
			meter.Sleep(d)
		}
		m.last = c
	}
	for attempt := 0; ; attempt++ {
		over, wait := meter.Spend(urn, c)
		if over == nil {
			return nil
		}
		d, err := b.Backoff(typ, op, attempt, *over, wait)
		if err != nil {
			return err
		}
		meter.Sleep(d)
	}
}
