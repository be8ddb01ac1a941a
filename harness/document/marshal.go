package document

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Marshal encodes v as canonical YAML: two-space indentation, struct fields
// in declaration order, map keys sorted; byte for byte what yaml.v3 writes
// with SetIndent(2). Documents whose every scalar is in a simple subset
// (plain single-line strings, literal blocks) are written directly, which
// is several times faster than yaml.v3's emitter; anything else is
// encoded by yaml.v3 itself. A test holds the two to the same bytes.
func Marshal(v any) ([]byte, error) {
	s, err := MarshalString(v)
	if err != nil {
		return nil, err
	}
	return []byte(s), nil
}

// MarshalString is Marshal for callers that keep the document as a string
// (the plan keeps every document): encoded in a reused buffer and copied
// once, at its size.
func MarshalString(v any) (string, error) {
	buf := buffers.Get().(*bytes.Buffer)
	defer func() {
		buf.Reset()
		buffers.Put(buf)
	}()
	e := encoder{buf: buf}
	if e.document(reflect.ValueOf(v)) {
		return buf.String(), nil
	}
	b, err := MarshalYAMLv3(v)
	return string(b), err
}

var buffers = sync.Pool{New: func() any { return bytes.NewBuffer(make([]byte, 0, 8<<10)) }}

// MarshalYAMLv3 encodes v with yaml.v3: the reference Marshal matches.
func MarshalYAMLv3(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// errFallback stops the fast path: the value is outside its subset.
var errFallback = errors.New("outside the fast subset")

type encoder struct {
	buf *bytes.Buffer
}

func (e *encoder) document(v reflect.Value) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if r != errFallback {
				panic(r)
			}
			ok = false
		}
	}()
	v = deref(v)
	if v.Kind() != reflect.Struct && v.Kind() != reflect.Map {
		return false
	}
	if empty(v) {
		return false
	}
	e.entries(v, 0, -1)
	return true
}

// entries writes the keys of a non-empty mapping. The first key goes on
// the current line when first >= 0 (a sequence item), the others at
// indent.
func (e *encoder) entries(v reflect.Value, indent, first int) {
	line := first
	write := func(key string, val reflect.Value) {
		if line >= 0 {
			line = -1
		} else {
			e.pad(indent)
		}
		e.key(key)
		e.value(val, indent)
	}
	switch v.Kind() {
	case reflect.Struct:
		for _, f := range fieldsOf(v.Type()) {
			fv := v.Field(f.index)
			if f.omitEmpty && isZero(fv) {
				continue
			}
			write(f.key, fv)
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			panic(errFallback)
		}
		// The documents' maps are map[string]any (template inputs, specs
		// decoded from YAML) and map[string]string (tags): read without
		// reflection, which costs a key conversion and a lookup per key.
		switch m := v.Interface().(type) {
		case map[string]any:
			for _, k := range sortedKeys(m) {
				write(k, reflect.ValueOf(m[k]))
			}
			return
		case map[string]string:
			for _, k := range sortedKeys(m) {
				write(k, reflect.ValueOf(m[k]))
			}
			return
		}
		type entry struct {
			key string
			val reflect.Value
		}
		entries := make([]entry, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			entries = append(entries, entry{it.Key().String(), it.Value()})
		}
		slices.SortFunc(entries, func(a, b entry) int { return compareKeys(a.key, b.key) })
		for _, e := range entries {
			write(e.key, e.val)
		}
	default:
		panic(errFallback)
	}
}

// sortedKeys are m's keys in yaml.v3's order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareKeys)
	return keys
}

// compareKeys orders map keys as yaml.v3 does for the keys the fast path
// accepts (ASCII letters, '_' and '-'; see keySafe): at the first
// difference two letters compare as characters, and a non-letter sorts
// before a letter; a prefix sorts first.
func compareKeys(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		ca, cb := a[i], b[i]
		if ca == cb {
			continue
		}
		if la, lb := isLetter(ca), isLetter(cb); la != lb {
			if la {
				return 1
			}
			return -1
		}
		return int(ca) - int(cb)
	}
	return len(a) - len(b)
}

func (e *encoder) key(k string) {
	if !keySafe(k) {
		panic(errFallback)
	}
	e.buf.WriteString(k)
	e.buf.WriteByte(':')
}

// value writes what follows "key:" for a key at indent.
func (e *encoder) value(v reflect.Value, indent int) {
	v = deref(v)
	switch v.Kind() {
	case reflect.Struct, reflect.Map:
		if empty(v) {
			e.buf.WriteString(" {}\n")
			return
		}
		e.buf.WriteByte('\n')
		e.entries(v, indent+2, -1)
	case reflect.Slice:
		if v.Len() == 0 {
			e.buf.WriteString(" []\n")
			return
		}
		e.buf.WriteByte('\n')
		e.items(v, indent+2)
	case reflect.String:
		s := v.String()
		if strings.Contains(s, "\n") {
			e.literal(s, indent+2)
			return
		}
		e.buf.WriteByte(' ')
		e.scalar(s)
		e.buf.WriteByte('\n')
	default:
		e.buf.WriteByte(' ')
		e.plain(v)
		e.buf.WriteByte('\n')
	}
}

// items writes a non-empty sequence whose dashes are at indent.
func (e *encoder) items(v reflect.Value, indent int) {
	for i := 0; i < v.Len(); i++ {
		item := deref(v.Index(i))
		e.pad(indent)
		e.buf.WriteString("- ")
		switch item.Kind() {
		case reflect.Struct, reflect.Map:
			if empty(item) {
				e.buf.WriteString("{}\n")
				continue
			}
			e.entries(item, indent+2, 0)
		case reflect.String:
			if strings.Contains(item.String(), "\n") {
				panic(errFallback)
			}
			e.scalar(item.String())
			e.buf.WriteByte('\n')
		case reflect.Slice:
			panic(errFallback)
		default:
			e.plain(item)
			e.buf.WriteByte('\n')
		}
	}
}

func (e *encoder) plain(v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		e.buf.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int64, reflect.Int32:
		e.buf.WriteString(strconv.FormatInt(v.Int(), 10))
	default:
		panic(errFallback)
	}
}

const spaces = "                                                                "

func (e *encoder) pad(n int) {
	for ; n > len(spaces); n -= len(spaces) {
		e.buf.WriteString(spaces)
	}
	e.buf.WriteString(spaces[:n])
}
