package apibudget

import (
	"sync"
	"time"
)

// Meter counts a run's calls, by key (a resource's URN), and, when it
// enforces budgets, spends them in each budget's windows of simulated
// time: Scale simulated seconds pass per real second, so a test meets an
// hour's window in a second. The simulated providers hold one per API.
type Meter struct {
	mu      sync.Mutex
	budgets []Budget
	scale   float64
	start   time.Time
	windows []window
	total   Calls
	byKey   map[string]Calls
	waited  time.Duration // simulated time slept (Sleep)
}

type window struct {
	index int64 // which window of the budget: elapsed / Window
	used  int
}

// NewMeter enforces budgets at scale (simulated seconds per real
// second); no budgets: it only counts.
func NewMeter(budgets []Budget, scale float64) *Meter {
	if scale <= 0 {
		scale = 1
	}
	return &Meter{budgets: budgets, scale: scale, start: time.Now(), windows: make([]window, len(budgets)), byKey: map[string]Calls{}}
}

// Budgets are the budgets the meter enforces.
func (m *Meter) Budgets() []Budget { return m.budgets }

// Scale is the meter's simulated seconds per real second.
func (m *Meter) Scale() float64 { return m.scale }

// elapsed is the simulated time since the meter started.
func (m *Meter) elapsed() time.Duration {
	return time.Duration(float64(time.Since(m.start)) * m.scale)
}

// Spend spends c for key if every budget has room for it now. If one
// has not, nothing is spent: it returns that budget and the simulated
// time until its next window opens.
func (m *Meter) Spend(key string, c Calls) (over *Budget, wait time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.elapsed()
	for i, b := range m.budgets {
		idx := int64(now / b.Window)
		if m.windows[i].index != idx {
			m.windows[i] = window{index: idx}
		}
		if n := b.Counts(c); n > 0 && m.windows[i].used+n > b.Limit {
			return &m.budgets[i], time.Duration(idx+1)*b.Window - now
		}
	}
	for i, b := range m.budgets {
		m.windows[i].used += b.Counts(c)
	}
	m.total.Add(c)
	k := m.byKey[key]
	k.Add(c)
	m.byKey[key] = k
	return nil, 0
}

// Remaining is what is left of b (one of the meter's budgets) in its
// current window, and the simulated time until the window resets.
func (m *Meter) Remaining(name string) (left int, reset time.Duration, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.elapsed()
	for i, b := range m.budgets {
		if b.Name != name {
			continue
		}
		idx := int64(now / b.Window)
		used := 0
		if m.windows[i].index == idx {
			used = m.windows[i].used
		}
		return b.Limit - used, time.Duration(idx+1)*b.Window - now, true
	}
	return 0, 0, false
}

// Sleep waits d of simulated time, as a provider waits out a budget.
func (m *Meter) Sleep(d time.Duration) {
	m.mu.Lock()
	m.waited += d
	m.mu.Unlock()
	time.Sleep(time.Duration(float64(d) / m.scale))
}

// Waited is the simulated time slept since the last Reset, summed over
// the callers (concurrent waits add up).
func (m *Meter) Waited() time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.waited
}

// Used is what was spent since the last Reset: in all, and by key.
func (m *Meter) Used() (Calls, map[string]Calls) {
	m.mu.Lock()
	defer m.mu.Unlock()
	byKey := make(map[string]Calls, len(m.byKey))
	for k, v := range m.byKey {
		byKey[k] = v
	}
	return m.total, byKey
}

// Reset forgets what was counted (the budgets' windows stay: a service
// does not forget a run because the next one starts).
func (m *Meter) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.total = Calls{}
	m.byKey = map[string]Calls{}
	m.waited = 0
}
