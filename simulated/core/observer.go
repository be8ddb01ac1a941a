package core

import "sync"

// Observer is told what the simulated services do as they do it: an
// observer API for whoever follows a run from beside the engine (a
// progress display, a recorder of what a run created, a test that acts
// at a known point of an operation, such as interrupting an up once the
// nth object exists). It changes nothing the services answer.
//
// Created is called once a Provider has stored a new object under key
// (after the service's own follow-ups, Storer), before the engine hears
// of it, synchronously on the goroutine answering the call: the engine
// waits for it. It must not call back into the Provider.
type Observer interface {
	Created(provider, key string)
}

// CreatedFunc is an Observer of creations only.
type CreatedFunc func(provider, key string)

// Created calls f.
func (f CreatedFunc) Created(provider, key string) { f(provider, key) }

// Observers holds the Observer a set of Providers tell (Set); the zero
// value tells none.
type Observers struct {
	mu sync.Mutex
	o  Observer
}

// Set makes o the Observer told from now on (nil: none).
func (s *Observers) Set(o Observer) {
	s.mu.Lock()
	s.o = o
	s.mu.Unlock()
}

func (s *Observers) created(provider, key string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	o := s.o
	s.mu.Unlock()
	if o != nil {
		o.Created(provider, key)
	}
}
