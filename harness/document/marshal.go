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

func deref(v reflect.Value) reflect.Value {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			panic(errFallback)
		}
		v = v.Elem()
	}
	return v
}

// field is one YAML key of a struct type.
type field struct {
	key       string
	index     int
	omitEmpty bool
}

var fieldCache sync.Map // reflect.Type -> []field

func fieldsOf(t reflect.Type) []field {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]field)
	}
	var out []field
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("yaml")
		key, opts, _ := strings.Cut(tag, ",")
		if key == "-" {
			continue
		}
		if opts != "" && opts != "omitempty" || sf.Anonymous {
			panic(errFallback) // flow, inline: leave to yaml.v3
		}
		if key == "" {
			key = strings.ToLower(sf.Name)
		}
		out = append(out, field{key: key, index: i, omitEmpty: opts == "omitempty"})
	}
	fieldCache.Store(t, out)
	return out
}

// empty reports a mapping or sequence with nothing to write.
func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Struct:
		for _, f := range fieldsOf(v.Type()) {
			if !(f.omitEmpty && isZero(v.Field(f.index))) {
				return false
			}
		}
		return true
	case reflect.Map, reflect.Slice:
		return v.Len() == 0
	}
	return false
}

func isZero(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return v.Len() == 0
	case reflect.Slice, reflect.Map:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int64, reflect.Int32:
		return v.Int() == 0
	case reflect.Pointer, reflect.Interface:
		return v.IsNil()
	}
	panic(errFallback)
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
		keys := make([]string, 0, v.Len())
		for _, k := range v.MapKeys() {
			keys = append(keys, k.String())
		}
		slices.SortFunc(keys, compareKeys)
		for _, k := range keys {
			write(k, v.MapIndex(reflect.ValueOf(k).Convert(v.Type().Key())))
		}
	default:
		panic(errFallback)
	}
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

// scalar writes a single-line string: plain when that is safe, otherwise
// as yaml.v3 would quote it.
func (e *encoder) scalar(s string) {
	if plainSafe(s) {
		e.buf.WriteString(s)
		return
	}
	e.buf.WriteString(quoted(s))
}

var quotedCache sync.Map // string -> string

// quoted is yaml.v3's rendering of a single-line scalar that is not plain:
// yaml.v3 is asked once per distinct string.
func quoted(s string) string {
	if q, ok := quotedCache.Load(s); ok {
		return q.(string)
	}
	out, err := yaml.Marshal(s)
	if err != nil {
		panic(errFallback)
	}
	q := strings.TrimSuffix(string(out), "\n")
	if strings.Contains(q, "\n") {
		panic(errFallback)
	}
	quotedCache.Store(s, q)
	return q
}

// literal writes a multi-line string as a literal block whose lines are at
// indent, as yaml.v3 does when nothing forbids it.
func (e *encoder) literal(s string, indent int) {
	if s[0] == ' ' || s[0] == '\n' || strings.HasSuffix(s, "\n\n") {
		panic(errFallback) // indentation or keep indicators
	}
	body, chomp := s, "-"
	if strings.HasSuffix(s, "\n") {
		body, chomp = s[:len(s)-1], ""
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == '\n' {
			if i > 0 && body[i-1] == ' ' {
				panic(errFallback) // a trailing space forbids the block
			}
			continue
		}
		if c < 0x20 || c > 0x7e {
			panic(errFallback)
		}
	}
	if body[len(body)-1] == ' ' {
		panic(errFallback)
	}
	e.buf.WriteString(" |")
	e.buf.WriteString(chomp)
	e.buf.WriteByte('\n')
	for _, line := range strings.Split(body, "\n") {
		if line != "" {
			e.pad(indent)
			e.buf.WriteString(line)
		}
		e.buf.WriteByte('\n')
	}
}

// keySafe accepts keys made of letters, '_' and '-', starting with a
// letter, that yaml.v3 writes plain and sorts as strings.Compare does.
func keySafe(k string) bool {
	if k == "" || len(k) > 128 || !isLetter(k[0]) || reservedWord(k) {
		return false
	}
	for i := 1; i < len(k); i++ {
		if c := k[i]; !isLetter(c) && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// plainSafe accepts single-line strings that yaml.v3 writes plain: they
// start with a letter, '_', '<' or '/', are printable ASCII, have no
// leading or trailing space, no ": " or " #", no trailing ':', and are not
// a word YAML reads as a boolean or null.
func plainSafe(s string) bool {
	if s == "" || reservedWord(s) {
		return false
	}
	switch c := s[0]; {
	case isLetter(c), c == '_', c == '<', c == '/':
	default:
		return false
	}
	last := len(s) - 1
	if s[last] == ' ' || s[last] == ':' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e {
			return false
		}
		if c == ':' && i < last && s[i+1] == ' ' || c == '#' && s[i-1] == ' ' {
			return false
		}
	}
	return true
}

// reservedWord reports the words YAML 1.1 and 1.2 resolve to booleans or
// null, which yaml.v3 quotes.
func reservedWord(s string) bool {
	if len(s) > 5 {
		return false
	}
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null", "~":
		return true
	}
	return false
}
