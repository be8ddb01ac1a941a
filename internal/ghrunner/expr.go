package ghrunner

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/rhysd/actionlint"
)

// Values of expressions are JSON's, as GitHub's are: nil (null), bool,
// float64, string, map[string]any (object) and []any (array).

// Status answers the status check functions where an expression is
// evaluated (a job's if:, a step's if:).
type Status struct {
	// Success, Failure and Cancelled answer success(), failure() and
	// cancelled(); nil answers true, false and false.
	Success, Failure, Cancelled func() bool
}

// Scope is what an expression sees: its contexts by name (github, env,
// inputs, needs, steps, matrix, jobs, vars, secrets, runner, strategy)
// and the status functions.
type Scope struct {
	Contexts map[string]any
	Status   Status
}

// Parse parses the expression inside ${{ }} (without the braces) with
// actionlint's lexer and parser.
func Parse(expr string) (actionlint.ExprNode, error) {
	n, err := actionlint.NewExprParser().Parse(actionlint.NewExprLexer(expr + "}}"))
	if err != nil {
		return nil, fmt.Errorf("expression %q: %s", expr, err.Message)
	}
	return n, nil
}

// Eval evaluates an expression (without ${{ }}).
func (s *Scope) Eval(expr string) (any, error) {
	n, err := Parse(expr)
	if err != nil {
		return nil, err
	}
	return s.eval(n)
}

// Interpolate replaces every ${{ }} in text by its value as a string,
// as GitHub does in with:, env:, run: and the other string fields.
func (s *Scope) Interpolate(text string) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(text, "${{")
		if i < 0 {
			b.WriteString(text)
			return b.String(), nil
		}
		b.WriteString(text[:i])
		rest := text[i+3:]
		l := actionlint.NewExprLexer(rest)
		n, perr := actionlint.NewExprParser().Parse(l)
		if perr != nil {
			return "", fmt.Errorf("expression in %q: %s", text, perr.Message)
		}
		v, err := s.eval(n)
		if err != nil {
			return "", err
		}
		b.WriteString(ToString(v))
		text = rest[l.Offset():]
	}
}

// Value is the value of a field that may be one expression: a field that
// is exactly ${{ expr }} keeps its type (with: plan: ${{ true }}),
// anything else is interpolated to a string.
func (s *Scope) Value(text string) (any, error) {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "${{") && strings.HasSuffix(t, "}}") && strings.Count(t, "${{") == 1 {
		return s.Eval(t[3 : len(t)-2])
	}
	return s.Interpolate(text)
}

// Condition evaluates an if: as GitHub does: the ${{ }} around it are
// optional, and an expression that calls no status function is
// success() && (expression).
func (s *Scope) Condition(cond string) (bool, error) {
	c := strings.TrimSpace(cond)
	if c == "" {
		c = "success()"
	}
	if strings.HasPrefix(c, "${{") && strings.HasSuffix(c, "}}") && strings.Count(c, "${{") == 1 {
		c = strings.TrimSpace(c[3 : len(c)-2])
	}
	n, err := Parse(c)
	if err != nil {
		return false, err
	}
	if !callsStatus(n) {
		if !s.call("success", nil).(bool) {
			return false, nil
		}
	}
	v, err := s.eval(n)
	if err != nil {
		return false, err
	}
	return Truthy(v), nil
}

func callsStatus(n actionlint.ExprNode) bool {
	found := false
	actionlint.VisitExprNode(n, func(n, _ actionlint.ExprNode, entering bool) {
		if f, ok := n.(*actionlint.FuncCallNode); ok && entering {
			switch strings.ToLower(f.Callee) {
			case "success", "failure", "cancelled", "always":
				found = true
			}
		}
	})
	return found
}

func (s *Scope) eval(n actionlint.ExprNode) (any, error) {
	switch n := n.(type) {
	case *actionlint.NullNode:
		return nil, nil
	case *actionlint.BoolNode:
		return n.Value, nil
	case *actionlint.IntNode:
		return float64(n.Value), nil
	case *actionlint.FloatNode:
		return n.Value, nil
	case *actionlint.StringNode:
		return n.Value, nil
	case *actionlint.VariableNode:
		v, ok := lookup(s.Contexts, n.Name)
		if !ok {
			return nil, fmt.Errorf("unknown context %q", n.Name)
		}
		return v, nil
	case *actionlint.ObjectDerefNode:
		recv, err := s.eval(n.Receiver)
		if err != nil {
			return nil, err
		}
		return property(recv, n.Property), nil
	case actionlint.ObjectDerefNode:
		return s.eval(&n)
	case *actionlint.ArrayDerefNode:
		recv, err := s.eval(n.Receiver)
		if err != nil {
			return nil, err
		}
		return filter(recv), nil
	case actionlint.ArrayDerefNode:
		return s.eval(&n)
	case *actionlint.IndexAccessNode:
		recv, err := s.eval(n.Operand)
		if err != nil {
			return nil, err
		}
		idx, err := s.eval(n.Index)
		if err != nil {
			return nil, err
		}
		return index(recv, idx), nil
	case *actionlint.NotOpNode:
		v, err := s.eval(n.Operand)
		if err != nil {
			return nil, err
		}
		return !Truthy(v), nil
	case *actionlint.LogicalOpNode:
		l, err := s.eval(n.Left)
		if err != nil {
			return nil, err
		}
		// Both return an operand, as in JavaScript: a && b is a when a
		// is falsy, else b; a || b is a when a is truthy, else b.
		if (n.Kind == actionlint.LogicalOpNodeKindAnd) != Truthy(l) {
			return l, nil
		}
		return s.eval(n.Right)
	case *actionlint.CompareOpNode:
		l, err := s.eval(n.Left)
		if err != nil {
			return nil, err
		}
		r, err := s.eval(n.Right)
		if err != nil {
			return nil, err
		}
		return compare(n.Kind, l, r), nil
	case *actionlint.FuncCallNode:
		args := make([]any, len(n.Args))
		for i, a := range n.Args {
			v, err := s.eval(a)
			if err != nil {
				return nil, err
			}
			args[i] = v
		}
		v := s.call(strings.ToLower(n.Callee), args)
		if err, ok := v.(error); ok {
			return nil, err
		}
		return v, nil
	}
	return nil, fmt.Errorf("unsupported expression node %T", n)
}

// call is a function's value, or an error.
func (s *Scope) call(name string, args []any) any {
	arg := func(i int) any {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	orDefault := func(f func() bool, def bool) bool {
		if f == nil {
			return def
		}
		return f()
	}
	switch name {
	case "success":
		return orDefault(s.Status.Success, true)
	case "failure":
		return orDefault(s.Status.Failure, false)
	case "cancelled":
		return orDefault(s.Status.Cancelled, false)
	case "always":
		return true
	case "contains":
		if a, ok := arg(0).([]any); ok {
			return slices.ContainsFunc(a, func(e any) bool { return equal(e, arg(1)) })
		}
		return strings.Contains(strings.ToLower(ToString(arg(0))), strings.ToLower(ToString(arg(1))))
	case "startswith":
		return strings.HasPrefix(strings.ToLower(ToString(arg(0))), strings.ToLower(ToString(arg(1))))
	case "endswith":
		return strings.HasSuffix(strings.ToLower(ToString(arg(0))), strings.ToLower(ToString(arg(1))))
	case "format":
		return format(ToString(arg(0)), args[min(1, len(args)):])
	case "join":
		sep := ","
		if len(args) > 1 {
			sep = ToString(args[1])
		}
		a, ok := arg(0).([]any)
		if !ok {
			return ToString(arg(0))
		}
		parts := make([]string, len(a))
		for i, e := range a {
			parts[i] = ToString(e)
		}
		return strings.Join(parts, sep)
	case "tojson":
		b, err := json.MarshalIndent(arg(0), "", "  ")
		if err != nil {
			return err
		}
		return string(b)
	case "fromjson":
		var v any
		if err := json.Unmarshal([]byte(ToString(arg(0))), &v); err != nil {
			return fmt.Errorf("fromJSON(%q): %w", ToString(arg(0)), err)
		}
		return v
	}
	return fmt.Errorf("function %s() is not supported by this runner", name)
}

// format is GitHub's format(): {N} replaced by argument N, {{ and }}
// by a brace.
func format(f string, args []any) any {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		c := f[i]
		switch {
		case c == '{' && i+1 < len(f) && f[i+1] == '{':
			b.WriteByte('{')
			i++
		case c == '}' && i+1 < len(f) && f[i+1] == '}':
			b.WriteByte('}')
			i++
		case c == '{':
			end := strings.IndexByte(f[i:], '}')
			if end < 0 {
				return fmt.Errorf("format(%q): unclosed {", f)
			}
			n, err := strconv.Atoi(f[i+1 : i+end])
			if err != nil || n < 0 || n >= len(args) {
				return fmt.Errorf("format(%q): bad argument index %q", f, f[i+1:i+end])
			}
			b.WriteString(ToString(args[n]))
			i += end
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// lookup finds key in m, exactly or else ignoring case (GitHub's
// property names are case-insensitive).
func lookup(m map[string]any, key string) (any, bool) {
	if v, ok := m[key]; ok {
		return v, true
	}
	for k, v := range m {
		if strings.EqualFold(k, key) {
			return v, true
		}
	}
	return nil, false
}

// property is recv.name: null for a missing property or a receiver that
// is not an object; on an array (the result of .*), each element's.
func property(recv any, name string) any {
	switch r := recv.(type) {
	case map[string]any:
		v, _ := lookup(r, name)
		return v
	case map[string]string:
		for k, v := range r {
			if strings.EqualFold(k, name) {
				return v
			}
		}
		return nil
	case []any:
		out := []any{}
		for _, e := range r {
			if v := property(e, name); v != nil {
				out = append(out, v)
			}
		}
		return out
	}
	return nil
}

// filter is recv.*: an object's values (in key order) or an array's
// elements.
func filter(recv any) any {
	switch r := recv.(type) {
	case map[string]any:
		keys := make([]string, 0, len(r))
		for k := range r {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		out := make([]any, len(keys))
		for i, k := range keys {
			out[i] = r[k]
		}
		return out
	case []any:
		return r
	}
	return []any{}
}

func index(recv, idx any) any {
	switch r := recv.(type) {
	case []any:
		f, ok := idx.(float64)
		if !ok || f < 0 || int(f) >= len(r) {
			return nil
		}
		return r[int(f)]
	default:
		return property(recv, ToString(idx))
	}
}

// Truthy is GitHub's coercion to boolean: false, 0, -0, "", null and NaN
// are false.
func Truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case float64:
		return v != 0 && !math.IsNaN(v)
	case string:
		return v != ""
	}
	return true
}

// ToString is a value as ${{ }} writes it into a string.
func ToString(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case bool:
		return strconv.FormatBool(v)
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1e15 {
			return strconv.FormatInt(int64(v), 10)
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return v
	case []any:
		return "Array"
	}
	return "Object"
}

// number is GitHub's coercion to a number for comparing values of
// different types.
func number(v any) float64 {
	switch v := v.(type) {
	case nil:
		return 0
	case bool:
		if v {
			return 1
		}
		return 0
	case float64:
		return v
	case string:
		s := strings.TrimSpace(v)
		if s == "" {
			return 0
		}
		if strings.HasPrefix(s, "0x") {
			if n, err := strconv.ParseInt(s[2:], 16, 64); err == nil {
				return float64(n)
			}
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
	}
	return math.NaN()
}

// equal is ==: same types compare as themselves (strings ignoring case,
// objects and arrays by identity); different types as numbers.
func equal(l, r any) bool {
	if l == nil && r == nil {
		return true
	}
	switch lv := l.(type) {
	case string:
		if rv, ok := r.(string); ok {
			return strings.EqualFold(lv, rv)
		}
	case bool:
		if rv, ok := r.(bool); ok {
			return lv == rv
		}
	case float64:
		if rv, ok := r.(float64); ok {
			return lv == rv
		}
	case map[string]any, []any:
		if reflect.TypeOf(l) == reflect.TypeOf(r) {
			return reflect.ValueOf(l).UnsafePointer() == reflect.ValueOf(r).UnsafePointer()
		}
		return false
	}
	switch r.(type) {
	case map[string]any, []any:
		return false
	}
	a, b := number(l), number(r)
	return a == b
}

func compare(kind actionlint.CompareOpNodeKind, l, r any) bool {
	switch kind {
	case actionlint.CompareOpNodeKindEq:
		return equal(l, r)
	case actionlint.CompareOpNodeKindNotEq:
		return !equal(l, r)
	}
	var c int
	ls, lok := l.(string)
	rs, rok := r.(string)
	if lok && rok {
		c = strings.Compare(strings.ToLower(ls), strings.ToLower(rs))
	} else {
		a, b := number(l), number(r)
		if math.IsNaN(a) || math.IsNaN(b) {
			return false
		}
		switch {
		case a < b:
			c = -1
		case a > b:
			c = 1
		}
	}
	switch kind {
	case actionlint.CompareOpNodeKindLess:
		return c < 0
	case actionlint.CompareOpNodeKindLessEq:
		return c <= 0
	case actionlint.CompareOpNodeKindGreater:
		return c > 0
	case actionlint.CompareOpNodeKindGreaterEq:
		return c >= 0
	}
	return false
}
