package core

import (
	"sync"

	"github.com/company/harness-platform/apibudget"
)

// Observer is told what the simulated services do as they do it: an
// observer API for whoever follows a run from beside the engine (a
// progress display, a recorder of what a run created, a test that acts
// at a known point of an operation, such as interrupting an up once the
// nth object exists, or once the first update or delete is done). It
// changes nothing the services answer.
//
// Created is called once a Provider has stored a new object under key
// (after the service's own follow-ups, Storer); Updated once it has
// stored an update of one; Deleted once it has removed one (or marked it
// removed, Revoker). Each is called before the engine hears of it,
// synchronously on the goroutine answering the call: the engine waits
// for it. None may call back into the Provider (reading its Cloud is
// fine).
type Observer interface {
	Created(provider, key string)
	Updated(provider, key string)
	Deleted(provider, key string)
}

// CreatedFunc is an Observer of creations only.
type CreatedFunc func(provider, key string)

// Created calls f.
func (f CreatedFunc) Created(provider, key string) { f(provider, key) }

// Updated does nothing.
func (CreatedFunc) Updated(string, string) {}

// Deleted does nothing.
func (CreatedFunc) Deleted(string, string) {}

// StepFunc is an Observer of every write, told which it was:
// apibudget.Create, Update or Delete.
type StepFunc func(op apibudget.Op, provider, key string)

// Created calls f with apibudget.Create.
func (f StepFunc) Created(provider, key string) { f(apibudget.Create, provider, key) }

// Updated calls f with apibudget.Update.
func (f StepFunc) Updated(provider, key string) { f(apibudget.Update, provider, key) }

// Deleted calls f with apibudget.Delete.
func (f StepFunc) Deleted(provider, key string) { f(apibudget.Delete, provider, key) }

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

func (s *Observers) observer() Observer {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.o
}

func (s *Observers) created(provider, key string) {
	if o := s.observer(); o != nil {
		o.Created(provider, key)
	}
}

func (s *Observers) updated(provider, key string) {
	if o := s.observer(); o != nil {
		o.Updated(provider, key)
	}
}

func (s *Observers) deleted(provider, key string) {
	if o := s.observer(); o != nil {
		o.Deleted(provider, key)
	}
}
