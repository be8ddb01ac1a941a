package document

import (
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

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
	for rest := body; ; {
		line, after, more := strings.Cut(rest, "\n")
		if line != "" {
			e.pad(indent)
			e.buf.WriteString(line)
		}
		e.buf.WriteByte('\n')
		if !more {
			break
		}
		rest = after
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

var reservedWords = [...]string{"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"}

// reservedWord reports the words YAML 1.1 and 1.2 resolve to booleans or
// null, which yaml.v3 quotes.
func reservedWord(s string) bool {
	if len(s) > 5 {
		return false
	}
	for _, w := range reservedWords {
		if len(w) == len(s) && strings.EqualFold(w, s) {
			return true
		}
	}
	return false
}
