package catalog

import "sync"

// derived holds what the plans of several stacks derive alike from one
// resolved catalog, computed by the first plan to ask.
type derived struct {
	m sync.Map // key → *derivedValue
}

type derivedValue struct {
	once sync.Once
	v    any
	err  error
}

// Derived is compute's result for key, computed once per resolved
// catalog: an environment's deploy-stage templates are the same in its
// platform stack's plan and in each of its service stacks' (dozens at
// 1,000 services), so the first plan derives them and the others share
// them. key must name everything compute reads beyond the catalog (a
// stack name, a template key). A catalog is not changed once resolved;
// one that is must not be given to plans that already derived from it.
func (c *Catalog) Derived(key any, compute func() (any, error)) (any, error) {
	if c.derived == nil { // a Catalog not made by Resolve
		return compute()
	}
	e, _ := c.derived.m.LoadOrStore(key, &derivedValue{})
	d := e.(*derivedValue)
	d.once.Do(func() { d.v, d.err = compute() })
	return d.v, d.err
}
