package core

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

// Record is one simulated cloud object.
type Record struct {
	Type       string         `json:"type"`
	Name       string         `json:"name"`
	Properties map[string]any `json:"properties"`
}

// secretKey marks a stored secret digest in a Record's properties.
const secretKey = "secretSha256"

// SecretDigest is the digest a Record holds for the secret value v, as
// the store writes it: the hex SHA-256 of v's JSON form.
func SecretDigest(v any) string {
	raw, _ := json.Marshal(v)
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// StoredDigest is the digest a stored property holds, if it is a secret.
func StoredDigest(v any) (string, bool) {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 1 {
		return "", false
	}
	d, ok := m[secretKey].(string)
	return d, ok
}

// Cloud is the persistent store of one provider. It is reloaded from disk
// at the start of every engine operation (Configure), so edits made between
// runs are seen; a file whose content is what the store last read or wrote
// is not parsed again. Changes are written back coalesced, after
// flushDelay or ten times the last write's duration, whichever is longer:
// a rewrite per change, or a fixed pace, would make large stacks
// quadratic (a write is the whole file). Flush writes them at once; the
// engine session flushes when each operation ends.
//
// Every change is also appended to a journal beside the file before it
// is acknowledged, as a real service persists a write before answering
// it: a process killed before the coalesced write loses nothing it
// answered, and the next Reload replays the journal (a snapshot written
// empties it).
type Cloud struct {
	path string

	mu      sync.Mutex
	records map[string]Record
	sum     [sha256.Size]byte // of the file as last read or written
	pace    time.Duration     // the delay before a coalesced write
	dirty   bool
	timer   *time.Timer
	err     error // the last failed write, reported by Flush
}

const flushDelay = 200 * time.Millisecond

// OpenCloud opens (or creates) the store of provider under dir.
func OpenCloud(dir, provider string) (*Cloud, error) {
	c := &Cloud{path: filepath.Join(dir, provider+".json")}
	if err := c.Reload(); err != nil {
		return nil, err
	}
	if _, err := os.Stat(c.path); os.IsNotExist(err) {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c, c.save() // an empty cloud is a file too, ready to inspect
	}
	return c, nil
}

// Reload reads the file again, after writing pending changes, and
// replays the journal a killed process left.
func (c *Cloud) Reload() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.flushLocked(); err != nil {
		return err
	}
	data, err := os.ReadFile(c.path)
	switch {
	case os.IsNotExist(err):
		c.records, c.sum = map[string]Record{}, [sha256.Size]byte{}
	case err != nil:
		return err
	case c.records == nil || sha256.Sum256(data) != c.sum:
		records := map[string]Record{}
		if err := json.Unmarshal(data, &records); err != nil {
			return fmt.Errorf("simulated cloud %s is not valid JSON: %w", c.path, err)
		}
		c.records, c.sum = records, sha256.Sum256(data)
	}
	// What is in the file is what the store holds; what a killed process
	// acknowledged after its last snapshot is in its journal.
	replayed, err := c.replay()
	if err != nil || !replayed {
		return err
	}
	c.dirty = true
	return c.flushLocked()
}

// Get returns the record with id.
func (c *Cloud) Get(id string) (Record, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.records[id]
	return r, ok
}

// Put stores a record.
func (c *Cloud) Put(id string, r Record) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.journal(journalEntry{ID: id, Record: &r}); err != nil {
		return err
	}
	c.records[id] = r
	return c.changed()
}

// Delete removes a record.
func (c *Cloud) Delete(id string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.journal(journalEntry{ID: id, Deleted: true}); err != nil {
		return err
	}
	delete(c.records, id)
	return c.changed()
}

// journalEntry is one change, a line of the journal.
type journalEntry struct {
	ID      string  `json:"id"`
	Record  *Record `json:"record,omitempty"`
	Deleted bool    `json:"deleted,omitempty"`
}

// journalPath is the journal beside the file.
func (c *Cloud) journalPath() string { return c.path + ".journal" }

// journal appends e to the journal, in one write; the caller holds mu.
func (c *Cloud) journal(e journalEntry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(c.journalPath(), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// replay applies the journal a process left unwritten to records, and
// reports whether it held any change; the caller holds mu.
func (c *Cloud) replay() (bool, error) {
	data, err := os.ReadFile(c.journalPath())
	if os.IsNotExist(err) || err == nil && len(data) == 0 {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		var e journalEntry
		if len(line) == 0 || json.Unmarshal(line, &e) != nil {
			continue // a line cut by the kill was never acknowledged
		}
		if e.Deleted {
			delete(c.records, e.ID)
		} else if e.Record != nil {
			c.records[e.ID] = *e.Record
		}
	}
	return true, nil
}

// changed schedules a write; the caller holds mu.
func (c *Cloud) changed() error {
	c.dirty = true
	if c.timer == nil {
		c.timer = time.AfterFunc(max(c.pace, flushDelay), func() { _ = c.Flush() })
	}
	return c.err
}

// Flush writes pending changes now.
func (c *Cloud) Flush() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.flushLocked()
}

func (c *Cloud) flushLocked() error {
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	if !c.dirty {
		return c.err
	}
	c.dirty = false
	c.err = c.save()
	return c.err
}

// OfType returns the records of one type by id.
func (c *Cloud) OfType(typ string) map[string]Record {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]Record{}
	for id, r := range c.records {
		if r.Type == typ {
			out[id] = r
		}
	}
	return out
}

// IDs lists the stored ids, sorted.
func (c *Cloud) IDs() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	ids := make([]string, 0, len(c.records))
	for id := range c.records {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// save writes the file atomically; the caller holds mu.
func (c *Cloud) save() error {
	start := time.Now()
	defer func() { c.pace = 10 * time.Since(start) }()
	data, err := json.MarshalIndent(c.records, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return err
	}
	tmp := c.path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, c.path); err != nil {
		return err
	}
	c.sum = sha256.Sum256(data)
	// The snapshot holds every change: the journal is spent.
	if err := os.Remove(c.journalPath()); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}

// toStored converts properties to what the file holds: plain JSON values,
// with secrets replaced by their digest.
func toStored(props resource.PropertyMap) map[string]any {
	out := map[string]any{}
	for k, v := range props {
		if s := storedValue(v); s != nil {
			out[string(k)] = s
		}
	}
	return out
}

func storedValue(v resource.PropertyValue) any {
	switch {
	case v.IsSecret():
		return map[string]any{secretKey: SecretDigest(v.SecretValue().Element.Mappable())}
	case v.IsComputed(), v.IsOutput() && !v.OutputValue().Known:
		return nil
	case v.IsOutput():
		return storedValue(v.OutputValue().Element)
	case v.IsArray():
		out := []any{}
		for _, e := range v.ArrayValue() {
			out = append(out, storedValue(e))
		}
		return out
	case v.IsObject():
		return toStored(v.ObjectValue())
	default:
		return v.Mappable()
	}
}

// FromStored converts stored properties back. A secret whose digest still
// matches keeps the value the engine knows (known); one that changed comes
// back as a different secret, so a refresh reports it.
func FromStored(stored map[string]any, known resource.PropertyMap) resource.PropertyMap {
	out := resource.PropertyMap{}
	for k, v := range stored {
		out[resource.PropertyKey(k)] = fromStoredValue(v, known[resource.PropertyKey(k)])
	}
	return out
}

func fromStoredValue(v any, known resource.PropertyValue) resource.PropertyValue {
	if m, ok := v.(map[string]any); ok {
		if digest, ok := m[secretKey].(string); ok && len(m) == 1 {
			if known.IsSecret() && storedValue(known).(map[string]any)[secretKey] == digest {
				return known
			}
			return resource.MakeSecret(resource.NewStringProperty("<changed out of band: sha256 " + digest + ">"))
		}
		var knownObj resource.PropertyMap
		if known.IsObject() {
			knownObj = known.ObjectValue()
		}
		return resource.NewObjectProperty(FromStored(m, knownObj))
	}
	if a, ok := v.([]any); ok {
		out := make([]resource.PropertyValue, len(a))
		for i, e := range a {
			var k resource.PropertyValue
			if known.IsArray() && i < len(known.ArrayValue()) {
				k = known.ArrayValue()[i]
			}
			out[i] = fromStoredValue(e, k)
		}
		return resource.NewArrayProperty(out)
	}
	return resource.NewPropertyValue(v)
}
