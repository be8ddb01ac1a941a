package ghrunner

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/nektos/act/pkg/exprparser"
	"github.com/nektos/act/pkg/model"
	"github.com/rhysd/actionlint"
)

// Expressions are evaluated by act's interpreter (github.com/nektos/act
// pkg/exprparser v0.2.81: GitHub's operators, coercions, property and
// filter dereference, and its functions, hashFiles included), on
// actionlint's parser, as act runs workflows locally. What is the
// runner's own is what act cannot know: the status check functions
// (Status: cancelled() true only when the workflow run is cancelled,
// failure() over a job's ancestors, docs.github.com, "Evaluate
// expressions in workflows and actions", Status check functions), which
// are evaluated here and handed to act as literals, and how a value is
// written into a string (ToString).
//
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
// inputs, needs, steps, matrix, jobs, vars, secrets, runner, strategy,
// job), the status functions, and the workspace hashFiles() reads.
type Scope struct {
	Contexts map[string]any
	Status   Status
	// Workspace is the directory hashFiles() hashes files of
	// (github.workspace); "" hashes none.
	Workspace string
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
	if _, err := Parse(expr); err != nil {
		return nil, err
	}
	expr, err := s.withStatus(expr)
	if err != nil {
		return nil, err
	}
	env, err := s.environment()
	if err != nil {
		return nil, err
	}
	// Context "step": act's own status functions are never called (they
	// are literals by now); hashFiles is the runner's (hashFiles.go).
	v, err := exprparser.NewInterpeter(env, exprparser.Config{Context: "step", WorkingDir: s.Workspace}).
		Evaluate(expr, exprparser.DefaultStatusCheckNone)
	if err != nil {
		return nil, fmt.Errorf("expression %q: %w", expr, err)
	}
	return plainValue(v)
}

// withStatus replaces, in expr, what the runner answers itself by
// literals, found with actionlint's lexer:
//   - every status check function call (the name, "(" and ")") by its
//     value;
//   - a context object's filter (needs.*) by fromJSON of its values, in
//     its keys' order: act's interpreter walks a Go map, whose order
//     changes from run to run, so join(needs.*.result, ' ') would too.
func (s *Scope) withStatus(expr string) (string, error) {
	tokens, _, lerr := actionlint.LexExpression(expr + "}}")
	if lerr != nil {
		return "", fmt.Errorf("expression %q: %s", expr, lerr.Message)
	}
	var b strings.Builder
	last := 0
	for i := 0; i+2 < len(tokens); i++ {
		t := tokens[i]
		if t.Kind != actionlint.TokenKindIdent || i > 0 && tokens[i-1].Kind == actionlint.TokenKindDot {
			continue
		}
		var literal string
		switch {
		case tokens[i+1].Kind == actionlint.TokenKindLeftParen && tokens[i+2].Kind == actionlint.TokenKindRightParen:
			v, ok := s.status(strings.ToLower(t.Value))
			if !ok {
				continue
			}
			literal = strconv.FormatBool(v)
		case tokens[i+1].Kind == actionlint.TokenKindDot && tokens[i+2].Kind == actionlint.TokenKindStar:
			obj, ok := s.Contexts[strings.ToLower(t.Value)].(map[string]any)
			if !ok {
				continue
			}
			values := make([]any, 0, len(obj))
			for _, k := range slices.Sorted(maps.Keys(obj)) {
				values = append(values, obj[k])
			}
			raw, err := json.Marshal(values)
			if err != nil {
				return "", err
			}
			// The star stays: a filter of the array is the array.
			literal = "fromJSON('" + strings.ReplaceAll(string(raw), "'", "''") + "')."
			b.WriteString(expr[last:t.Offset])
			b.WriteString(literal)
			last = tokens[i+2].Offset
			i += 1
			continue
		default:
			continue
		}
		b.WriteString(expr[last:t.Offset])
		b.WriteString(literal)
		last = tokens[i+2].Offset + 1
		i += 2
	}
	b.WriteString(expr[last:])
	return b.String(), nil
}

// status is a status check function's value; false for another name.
func (s *Scope) status(name string) (v, ok bool) {
	answer := func(f func() bool, def bool) bool {
		if f == nil {
			return def
		}
		return f()
	}
	switch name {
	case "success":
		return answer(s.Status.Success, true), true
	case "failure":
		return answer(s.Status.Failure, false), true
	case "cancelled":
		return answer(s.Status.Cancelled, false), true
	case "always":
		return true, true
	}
	return false, false
}

// environment is the scope's contexts as act's interpreter takes them,
// each converted through JSON into act's type for it. A context the
// scope does not have is absent (act answers "Unavailable context" for
// jobs, and null for the others).
func (s *Scope) environment() (*exprparser.EvaluationEnvironment, error) {
	env := &exprparser.EvaluationEnvironment{HashFiles: hashFiles(s.Workspace)}
	for name, into := range map[string]any{
		"github": &env.Github, "env": &env.Env, "job": &env.Job, "steps": &env.Steps, "runner": &env.Runner,
		"secrets": &env.Secrets, "vars": &env.Vars, "strategy": &env.Strategy, "matrix": &env.Matrix,
		"needs": &env.Needs, "inputs": &env.Inputs,
	} {
		if v, ok := s.Contexts[name]; ok {
			if err := convert(v, into); err != nil {
				return nil, fmt.Errorf("context %s: %w", name, err)
			}
		}
	}
	if v, ok := s.Contexts["jobs"]; ok {
		jobs := map[string]*model.WorkflowCallResult{}
		if err := convert(v, &jobs); err != nil {
			return nil, fmt.Errorf("context jobs: %w", err)
		}
		env.Jobs = &jobs
	}
	for name := range s.Contexts {
		switch name {
		case "github", "env", "job", "jobs", "steps", "runner", "secrets", "vars", "strategy", "matrix", "needs", "inputs":
		default:
			return nil, fmt.Errorf("context %s is not one act's interpreter knows", name)
		}
	}
	return env, nil
}

// convert copies v into into through JSON: act's contexts are typed
// (github's strings, needs' and steps' outputs strings), so a value
// GitHub would write into a string is written as one.
func convert(v any, into any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, into)
}

// plainValue is an act value as JSON's: act answers Go values of its
// typed contexts (map[string]string, structs), which the runner reads
// as JSON's.
func plainValue(v any) (any, error) {
	switch v := v.(type) {
	case nil, bool, string:
		return v, nil
	case float64:
		return v, nil
	case int:
		return float64(v), nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("value %v: %w", v, err)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	return out, nil
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
		if _, perr := actionlint.NewExprParser().Parse(l); perr != nil {
			return "", fmt.Errorf("expression in %q: %s", text, perr.Message)
		}
		v, err := s.Eval(rest[:l.Offset()-2])
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
		if ok, _ := s.status("success"); !ok {
			return false, nil
		}
	}
	v, err := s.Eval(c)
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

// Truthy is GitHub's coercion to boolean (false, 0, -0, "", null and NaN
// are false), as act's interpreter applies it.
func Truthy(v any) bool { return exprparser.IsTruthy(v) }

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
