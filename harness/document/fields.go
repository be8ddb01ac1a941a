package document

import (
	"reflect"
	"strings"
	"sync"
)

// deref follows interfaces and pointers to the value the fast encoder
// writes; a nil one is outside its subset.
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
	case reflect.Struct:
		// As yaml.v3's omitempty: every exported field zero.
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && !isZero(v.Field(i)) {
				return false
			}
		}
		return true
	}
	panic(errFallback)
}
