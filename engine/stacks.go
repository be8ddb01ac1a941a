package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/company/harness-platform/catalog"
)

// DefaultStackParallel is how many stacks of one environment run at once.
//
// Harness allows about 1,000 API calls a minute per API key. A stack's
// update runs at most --parallel resource operations at once, and each
// Harness operation of the bridged Terraform provider is about two API
// calls (a create or update, then a read), each taking around 0.5 s: one
// operation slot makes up to about 240 calls a minute (CallsPerSlot). Two
// stacks at --parallel 2 are 4 slots, under 1,000 calls a minute with
// room for the reads of a refresh; 2 stacks at --parallel 8 are 16 slots,
// up to about 3,800 calls a minute when every operation is a Harness
// call, so Harness throttles (HTTP 429, which the provider retries ten
// times, then fails the step). Against the real services a run without
// --parallel is therefore paced (PacedParallel: 2 at 2 stacks); one key
// per stack set allows more. Offline (the simulated cloud) the CPU is
// the limit: two stacks keep two cores busy.
const DefaultStackParallel = 2

// Waves are the stacks a --stack argument names, in dependency order: each
// wave after the one before it, the stacks of a wave independent of each
// other. An environment's platform stack (dev) means all of its stacks:
// the platform stack, then its service stacks; a service stack's full name
// (dev.payments) means itself.
func Waves(c *catalog.Catalog, name string) ([][]string, error) {
	st, shard, err := c.EnvironmentOf(name)
	if err != nil {
		return nil, err
	}
	if shard != "" {
		return [][]string{{name}}, nil
	}
	all := c.StacksOf(st.Name)
	if len(all) == 1 {
		return [][]string{all}, nil
	}
	return [][]string{all[:1], all[1:]}, nil
}

// WithCredentials is waves, the stacks name stands for, with, when name
// is an environment's platform stack, its credentials stack
// (catalog.CredentialsStackName) as a first wave: what an up, a recover,
// an unlock or an import of the environment covers. Previews and
// refreshes run as identities that may not read it, and leave it out.
func WithCredentials(waves [][]string, name string) [][]string {
	creds, ok := CredentialsOf(name)
	if !ok {
		return waves
	}
	return append([][]string{{creds}}, waves...)
}

// CredentialsOf is the credentials stack an operation on stack name
// covers: its environment's, when name stands for all of the
// environment's stacks (its platform stack's name); none for one stack.
// An up ups it first, a destroy destroys it last.
func CredentialsOf(name string) (string, bool) {
	env, shard := catalog.SplitStack(name)
	if shard != "" {
		return "", false
	}
	return catalog.CredentialsStackName(env), true
}

// Reverse is waves in the order a destroy needs: dependents first.
func Reverse(waves [][]string) [][]string {
	out := slices.Clone(waves)
	slices.Reverse(out)
	return out
}

// StackRun is one stack's operation in RunStacks; its progress goes to
// stdout and stderr.
type StackRun func(ctx context.Context, stack string, stdout, stderr io.Writer) error

// RunStacks runs op on every stack of waves, each wave after the previous
// one, at most limit stacks at once. When several stacks run, each line
// of their progress is prefixed with the stack's name. A failed wave stops
// the next (its stacks depend on it); every failure of a wave is reported.
func RunStacks(ctx context.Context, waves [][]string, limit int, stdout, stderr io.Writer, op StackRun) error {
	if limit < 1 {
		limit = DefaultStackParallel
	}
	var mu sync.Mutex // one line at a time on the shared writers
	for i, wave := range waves {
		// Every stack of the wave runs, limit at a time; each error is
		// kept (the group only limits: its functions return nil).
		errs := make([]error, len(wave))
		var g errgroup.Group
		g.SetLimit(limit)
		for j, stack := range wave {
			out, errOut := stdout, stderr
			if len(wave) > 1 {
				out, errOut = &prefixWriter{w: stdout, mu: &mu, prefix: stack}, &prefixWriter{w: stderr, mu: &mu, prefix: stack}
			}
			g.Go(func() error {
				if err := op(ctx, stack, out, errOut); err != nil {
					errs[j] = fmt.Errorf("%s: %w", stack, err)
				}
				flush(out)
				flush(errOut)
				return nil
			})
		}
		_ = g.Wait()
		if err := errors.Join(errs...); err != nil {
			if i < len(waves)-1 {
				var skipped []string
				for _, w := range waves[i+1:] {
					skipped = append(skipped, w...)
				}
				err = fmt.Errorf("%w\nnot run, as they depend on the stacks above: %v", err, skipped)
			}
			return err
		}
	}
	return nil
}

// prefixWriter writes whole lines, each prefixed with "[prefix] ".
type prefixWriter struct {
	w      io.Writer
	mu     *sync.Mutex
	prefix string
	buf    bytes.Buffer
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.buf.Write(b)
	for {
		i := bytes.IndexByte(p.buf.Bytes(), '\n')
		if i < 0 {
			return len(b), nil
		}
		line := p.buf.Next(i + 1)
		p.mu.Lock()
		_, err := fmt.Fprintf(p.w, "[%s] %s", p.prefix, line)
		p.mu.Unlock()
		if err != nil {
			return len(b), err
		}
	}
}

func flush(w io.Writer) {
	if p, ok := w.(*prefixWriter); ok && p.buf.Len() > 0 {
		p.buf.WriteByte('\n')
		_, _ = p.Write(nil)
	}
}
